import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReloadStreams } from "../../src/bridge/web/preview/live-reload.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { LIMITS } from "../../src/limits.js";
import { ANONYMOUS, type Reader } from "../../src/vfs/access.js";
import { localContext, requestContext } from "../../src/vfs/request-context.js";
import { connect } from "../helpers/mcp.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * A file's restricted parts coming and going (security.md row 150): each reader keeps the time of
 * the version that last changed the bytes they are served, whatever happens to the file's set of
 * rules. Before, an edit that changed that set (the first restricted operation or import, one for
 * a new group, the last one removed) gave every reader the file's new time, the provenance commit
 * of then and a live-reload event: it told readers outside the restricted parts when those
 * changed. Seen here through `stat` in the filesystem tool, its `reads` and provenance, search
 * hits' `lastModified` and provenance, and the preview's live-reload streams.
 */

const STAFF: Reader = { authenticated: true, groups: new Set(["staff"]), allGroups: false };
const OPS: Reader = { authenticated: true, groups: new Set(["ops"]), allGroups: false };

const T = ["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01", "2026-05-01", "2026-06-01"].map((d) => new Date(`${d}T00:00:00.000Z`));
const SHA = ["0", "1", "2", "3", "4", "5"].map((c) => c.repeat(40));

/** The spec: a public operation (its description `pub`), and the restricted ones given. */
function spec(pub: string, restricted: { path: string; summary: string; group: string }[]): string {
  const paths: Record<string, unknown> = { "/orders": { get: { summary: "List orders", description: pub, responses: { "200": { description: "OK" } } } } };
  for (const r of restricted) paths[r.path] = { get: { summary: r.summary, "x-svc": { metadata: { groups: [r.group] } }, responses: { "200": { description: "OK" } } } };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths }, null, 2);
}

/** The guide: a public paragraph, and the restricted snippets it imports (each used once). */
function guide(pub: string, imports: { name: string; file: string; use: string }[]): string {
  const head = imports.map((i) => `import ${i.name} from "/snippets/${i.file}"\n\n`).join("");
  const uses = imports.map((i) => `\n${i.use}\n`).join("");
  return `---\ntitle: Guide\n---\n\n${head}Verify the webhook signature ${pub}.\n${uses}`;
}

let root: string;
let runtime: DocsRuntime;

function write(rel: string, text: string, at: Date): void {
  writeFileSync(join(root, rel), text);
  utimesSync(join(root, rel), at, at);
}

/** One commit of both files at time `T[n]`. */
async function commit(n: number, specText: string, guideText: string): Promise<void> {
  writeFileSync(join(root, ".git/refs/heads/main"), `${SHA[n]}\n`);
  write("api/shop.json", specText, T[n] as Date);
  write("guide.mdx", guideText, T[n] as Date);
  await runtime.applyChanges(["api/shop.json", "guide.mdx"]);
}

/** What `reader` is shown of the files' times: by `stat` (with the tool's reads and provenance) and by search. */
async function seen(reader: Reader): Promise<unknown> {
  const client = await connect(runtime, reader);
  try {
    const shell = (await client.call("query_docs_filesystem_shop", { command: "stat -c '%n %y' /api/shop.json /guide.mdx /api-reference/list-orders.mdx" })).structuredContent as {
      stdout: string;
      reads: unknown;
      provenance: unknown;
    };
    const search = (await client.call("search_shop", { query: "webhook signature" })).structuredContent as { results: { path: string; lastModified?: string }[]; provenance: unknown };
    return {
      stat: shell.stdout,
      reads: shell.reads,
      shellProvenance: shell.provenance,
      hits: search.results.map((r) => `${r.path} ${r.lastModified}`),
      searchProvenance: search.provenance,
    };
  } finally {
    await client.close();
  }
}

/** The spec and the guide as `reader` reads them. */
async function bytes(reader: Reader): Promise<{ spec: string; guide: string }> {
  const shell = runtime.readerState(localContext(reader)).shell;
  return { spec: (await shell.run("cat /api/shop.json")).stdout, guide: (await shell.run("cat /guide.mdx")).stdout };
}

/** What a reader is shown when the spec and the guide date from `T[n]`, the page of the public
 *  operation from `T[page]`, at commit `SHA[sha]`. */
function dated(n: number, page: number, sha: number): unknown {
  const iso = (i: number): string => (T[i] as Date).toISOString();
  const stamp = (i: number): string => iso(i).replace("T", " ").replace(".000Z", ".000000000 +0000");
  const newest = { commit: SHA[sha], lastModified: iso(Math.max(n, page)), ttlMs: 60_000 };
  return {
    stat: `/api/shop.json ${stamp(n)}\n/guide.mdx ${stamp(n)}\n/api-reference/list-orders.mdx ${stamp(page)}\n`,
    reads: [
      { path: "/api/shop.json", lastModified: iso(n) },
      { path: "/guide.mdx", lastModified: iso(n) },
      { path: "/api-reference/list-orders.mdx", lastModified: iso(page) },
    ],
    shellProvenance: newest,
    hits: [`/guide ${iso(n)}`],
    searchProvenance: { commit: SHA[sha], lastModified: iso(n), ttlMs: 60_000 },
  };
}

/** The names of a stream's events, in order. */
function eventNames(text: string): string[] {
  return text
    .split("\n\n")
    .filter((e) => e !== "" && !e.startsWith(":"))
    .map((e) => /^event: (.*)$/m.exec(e)?.[1] ?? e);
}

const STAFF_NOTE = { name: "StaffNote", file: "staff.mdx" };
const OPS_NOTE = { name: "OpsNote", file: "ops.mdx", use: "<OpsNote />" };

beforeAll(async () => {
  root = writeRepo({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/refs/heads/main": `${SHA[0]}\n`,
    "docs.json": { name: "Shop", navigation: { groups: [{ group: "Guides", pages: ["guide"] }, { group: "API", openapi: "api/shop.json" }] } },
    "snippets/staff.mdx": "---\ngroups: [staff]\n---\n\nRotate the signing secret.\n",
    "snippets/ops.mdx": "---\ngroups: [ops]\n---\n\nPage the on-call.\n",
    "api/shop.json": "{}",
  });
  for (const f of ["docs.json", "snippets/staff.mdx", "snippets/ops.mdx"]) utimesSync(join(root, f), T[0] as Date, T[0] as Date);
  write("api/shop.json", spec("v1", []), T[0] as Date);
  write("guide.mdx", guide("v1", []), T[0] as Date);
  runtime = await DocsRuntime.load({ root });
});
afterAll(async () => {
  await runtime?.close();
});

describe("variant times across changes of a file's rules", () => {
  it("each reader keeps the time, commit and quiet of the version that last changed their bytes: first restricted part, its change, a second group's, all removed", async () => {
    const streams = new ReloadStreams(runtime);
    const open = async (reader: Reader, caller: string) => eventNames(await streams.stream(requestContext(reader, "public", Date.now, caller), caller).text());
    const events = { anonymous: open(ANONYMOUS, "a"), staff: open(STAFF, "s"), ops: open(OPS, "o") };
    const shown = async (pub = "v1") => {
      // The anonymous reader's bytes are the first version's until the public edit (what their time stands for).
      expect(await bytes(ANONYMOUS)).toEqual({ spec: spec(pub, []), guide: guide(pub, []) });
      return { anonymous: await seen(ANONYMOUS), staff: await seen(STAFF), ops: await seen(OPS) };
    };
    expect(await shown()).toEqual({ anonymous: dated(0, 0, 0), staff: dated(0, 0, 0), ops: dated(0, 0, 0) });

    // The first restricted operation and import: staff's bytes change, nobody else's.
    await commit(1, spec("v1", [{ path: "/vault", summary: "Open the vault", group: "staff" }]), guide("v1", [{ ...STAFF_NOTE, use: '<StaffNote version="1" />' }]));
    expect(await shown()).toEqual({ anonymous: dated(0, 0, 0), staff: dated(1, 0, 1), ops: dated(0, 0, 0) });

    // The restricted parts change.
    await commit(2, spec("v1", [{ path: "/vault", summary: "Open the vault door", group: "staff" }]), guide("v1", [{ ...STAFF_NOTE, use: '<StaffNote version="2" />' }]));
    expect(await shown()).toEqual({ anonymous: dated(0, 0, 0), staff: dated(2, 0, 2), ops: dated(0, 0, 0) });

    // A second group's parts: a new rule, and only its readers' bytes change.
    await commit(
      3,
      spec("v1", [
        { path: "/vault", summary: "Open the vault door", group: "staff" },
        { path: "/rota", summary: "Read the rota", group: "ops" },
      ]),
      guide("v1", [{ ...STAFF_NOTE, use: '<StaffNote version="2" />' }, OPS_NOTE]),
    );
    expect(await shown()).toEqual({ anonymous: dated(0, 0, 0), staff: dated(2, 0, 2), ops: dated(3, 0, 3) });

    // Every restricted part removed: the file is the anonymous reader's again, byte for byte.
    await commit(4, spec("v1", []), guide("v1", []));
    expect(await shown()).toEqual({ anonymous: dated(0, 0, 0), staff: dated(4, 0, 4), ops: dated(4, 0, 4) });

    // A public edit moves everyone's.
    await commit(5, spec("v2", []), guide("v2", []));
    expect(await shown("v2")).toEqual({ anonymous: dated(5, 5, 5), staff: dated(5, 5, 5), ops: dated(5, 5, 5) });

    await streams.settled();
    streams.close();
    expect({ anonymous: await events.anonymous, staff: await events.staff, ops: await events.ops }).toEqual({
      anonymous: ["ready", "change"],
      staff: ["ready", "change", "change", "change", "change"],
      ops: ["ready", "change", "change", "change"],
    });
  });

  it("a restricted import moved to a new group at each of 70 edits: the anonymous reader keeps its time, each group's readers are dated by their edit, and the rules remembered stop growing at the bound on classes", async () => {
    const day = (i: number): Date => new Date(Date.UTC(2027, 0, 1 + i));
    for (let i = 0; i < 70; i++) write(`snippets/team-${i}.mdx`, `---\ngroups: [team-${i}]\n---\n\nTeam ${i} only.\n`, day(-2));
    const rotate = async (i: number, pub: string): Promise<void> => {
      write("guide.mdx", guide(pub, [{ name: "TeamNote", file: `team-${i}.mdx`, use: "<TeamNote />" }]), day(i));
      await runtime.applyChanges(["guide.mdx"]);
    };
    const statOf = async (reader: Reader): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run("stat -c '%y' /guide.mdx")).stdout;
    const stamp = (at: Date): string => `${at.toISOString().replace("T", " ").replace(".000Z", ".000000000 +0000")}\n`;
    const remembered = (): number | undefined => runtime.site.variants?.get("/guide.mdx")?.times.rules.length;
    // The public text of the edits below (and the snippets), read once as the anonymous reader.
    write("guide.mdx", guide("rotated", []), day(-1));
    await runtime.applyChanges(["guide.mdx", ...Array.from({ length: 70 }, (_, i) => `snippets/team-${i}.mdx`)]);
    await statOf(ANONYMOUS);
    const shown: string[] = [];
    const rules: (number | undefined)[] = [];
    for (let i = 0; i < 70; i++) {
      await rotate(i, "rotated");
      const team = { authenticated: true, groups: new Set([`team-${i}`]), allGroups: false };
      shown.push(`${await statOf(ANONYMOUS)}${await statOf(team)}`);
      rules.push(remembered());
    }
    expect(shown).toEqual(Array.from({ length: 70 }, (_, i) => `${stamp(day(-1))}${stamp(day(i))}`));
    // Each old group's readers were dated by the edit that took their part away: its rule is kept
    // to tell them from the anonymous reader, up to the bound on classes, then no more.
    expect(rules).toEqual(Array.from({ length: 70 }, (_, i) => Math.min(i + 1, LIMITS.load.maxTimedClasses)));
    // A public edit dates every reader alike: the old groups are let go, and with them the times.
    write("guide.mdx", guide("public edit", []), day(70));
    await runtime.applyChanges(["guide.mdx"]);
    expect(`${await statOf(ANONYMOUS)}${remembered()}`).toBe(`${stamp(day(70))}undefined`);
  });
});
