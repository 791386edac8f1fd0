import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { VariantMemory } from "../../src/engine/variant-memory.js";
import { variantTimesFile } from "../../src/store/variant-times-file.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * A file's first restricted part coming while the server is stopped (adversary round 53 F2): a
 * deploy is stop, pull, start, and a pull can append a staff-only operation to a spec, or a
 * staff-only snippet's import to a page. The anonymous reader's bytes are the same; their time
 * must be too (while serving, the same edit keeps it: security.md row 150). The state file kept
 * only files with restricted parts at the stop, so the start dated every class by the file's
 * time, the staff edit's.
 */

const STAFF = readerWithGroups(["staff"]);
const T = ["2026-01-01", "2026-06-15"].map((d) => new Date(`${d}T00:00:00.000Z`));

const OK = { "200": { description: "OK" } };
const ORDERS = { get: { summary: "Watch orders", description: "Every order placed, as it is placed.", responses: OK } };
const VAULT = { get: { summary: "Open the vault", "x-svc": { metadata: { groups: ["staff"] } }, responses: OK } };

/** The spec: a public operation, and a staff one after it when `staff`. */
function spec(staff: boolean): string {
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths: { "/orders": ORDERS, ...(staff ? { "/vault": VAULT } : {}) } }, null, 2);
}

/** A guide, importing the staff-only snippet when `staff`. */
function guide(staff: boolean): string {
  return staff ? '---\ntitle: Plain\n---\nimport Secret from "/snippets/secret.mdx"\n\n# Plain\n\nInstall the client.\n\n<Secret />\n' : "---\ntitle: Plain\n---\n# Plain\n\nInstall the client.\n";
}

const SITE = {
  "docs.json": { name: "Shop", navigation: { groups: [{ group: "Guides", pages: ["guides/plain"] }, { group: "API", openapi: "api/shop.json" }] } },
  "snippets/secret.mdx": "---\ngroups: [staff]\n---\n\nThe master key is KEY-7A1.\n",
  "api/shop.json": "{}",
  "guides/plain.mdx": "",
};

const stamp = (at: Date): string => at.toISOString().replace("T", " ").replace(/\.(\d{3})Z$/, ".$1000000 +0000");

let root: string | undefined;
let state: string | undefined;
let runtime: DocsRuntime | undefined;
let logs: string[] = [];

afterEach(async () => {
  await runtime?.close();
  for (const dir of [root, state]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  runtime = root = state = undefined;
  logs = [];
});

function write(rel: string, text: string, at: Date): void {
  writeFileSync(join(root as string, rel), text);
  utimesSync(join(root as string, rel), at, at);
}

const timesFile = (): string => variantTimesFile(root as string, { state: state as string, cwd: "/", env: {} }) as string;

async function serve(): Promise<void> {
  const file = timesFile();
  runtime = await DocsRuntime.load({ root: root as string, watch: false, log: (m) => logs.push(m), timesMemory: VariantMemory.open(file, root as string, (m) => logs.push(m)) });
}

async function stop(): Promise<void> {
  await runtime?.close();
  runtime = undefined;
}

/** What `reader` is shown of the spec and the guide: their times (`stat`) and their bytes' digests. */
async function shown(reader: Reader): Promise<string> {
  const shell = (runtime as DocsRuntime).readerState(localContext(reader)).shell;
  return (await shell.run("stat -c '%n %y' /api/shop.json /guides/plain.mdx; md5sum /api/shop.json /guides/plain.mdx")).stdout;
}

describe("a file's first restricted part added while stopped", () => {
  it("a staff-only operation appended to a spec and a staff-only import added to a page, with a stop and a start between: the anonymous reader keeps its time and bytes, staff's are the pull's", async () => {
    root = writeRepo(SITE);
    state = mkdtempSync(join(tmpdir(), "svc-times-state-"));
    write("api/shop.json", spec(false), T[0] as Date);
    write("guides/plain.mdx", guide(false), T[0] as Date);
    await serve();
    const before = await shown(ANONYMOUS);
    await stop();
    // Kept with no restricted part anywhere: each page's and the spec's hash (never the text) and time.
    const hash = (text: string): string => createHash("sha256").update(text).digest("base64url");
    expect(JSON.parse(readFileSync(timesFile(), "utf8"))).toEqual({
      format: "svc-mcp variant times",
      version: 1,
      root,
      files: {},
      wholes: {
        "/api/shop.json": [hash(spec(false)), (T[0] as Date).getTime()],
        "/guides/plain.mdx": [hash(guide(false)), (T[0] as Date).getTime()],
        "/snippets/secret.mdx": [hash(SITE["snippets/secret.mdx"]), expect.any(Number)],
      },
    });

    // The pull: each file's first restricted part, dated by the staff edit.
    write("api/shop.json", spec(true), T[1] as Date);
    write("guides/plain.mdx", guide(true), T[1] as Date);
    await serve();
    const after = { anonymous: await shown(ANONYMOUS), staff: (await shown(STAFF)).split("\n").slice(0, 2) };
    expect({ before, after }).toEqual({
      before: after.anonymous,
      after: {
        anonymous: `/api/shop.json ${stamp(T[0] as Date)}\n/guides/plain.mdx ${stamp(T[0] as Date)}\n${before.split("\n").slice(2).join("\n")}`,
        staff: [`/api/shop.json ${stamp(T[1] as Date)}`, `/guides/plain.mdx ${stamp(T[1] as Date)}`],
      },
    });
    expect(logs).toEqual([]);
  });
});
