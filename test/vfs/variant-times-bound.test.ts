import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ReloadStreams } from "../../src/bridge/web/preview/live-reload.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext, requestContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * Variant times past the bound on remembered classes (security.md rows 159 and 160). A spec with
 * an operation for each of 70 groups dated a class for each of its pages at its first edit, and
 * 70 readers in as many groups pushed out the anonymous reader's class: a class so left out was
 * dated by the file's time, the time of an edit of any group's part, so the anonymous reader
 * learned when staff content changed (`stat`, a live-reload event). And a variant whose bytes
 * another file changed (a snippet's `groups`, a staff page starting to document an operation)
 * kept the file's time: new bytes under an old time.
 */

const STAFF = readerWithGroups(["staff"]);
const EVERYTHING: Reader = { authenticated: true, groups: new Set(), allGroups: true };
const TEAMS = Array.from({ length: 70 }, (_, i) => readerWithGroups([`team-${i}`]));

const T = ["2026-01-01", "2026-02-01", "2026-03-01"].map((d) => new Date(`${d}T00:00:00.000Z`));

/** The spec: a public operation, a staff one (its summary `vault`), and one for each of `teams` groups. */
function spec(vault: string, teams: number): string {
  const ok = { "200": { description: "OK" } };
  const paths: Record<string, unknown> = { "/vault": { get: { summary: vault, "x-svc": { metadata: { groups: ["staff"] } }, responses: ok } } };
  for (let i = 0; i < teams; i++) paths[`/team-${i}`] = { get: { summary: `Team ${i} rota`, "x-svc": { metadata: { groups: [`team-${i}`] } }, responses: ok } };
  // Last, and last by name: its page (dated as the anonymous reader's spec) comes after the teams'.
  paths["/orders"] = { get: { summary: "Watch orders", responses: ok } };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths }, null, 2);
}

/** `stat`'s line for a time. */
const stamp = (at: Date): string => at.toISOString().replace("T", " ").replace(/\.(\d{3})Z$/, ".$1000000 +0000");

/** The names of a stream's events, in order. */
function eventNames(text: string): string[] {
  return text
    .split("\n\n")
    .filter((e) => e !== "" && !e.startsWith(":"))
    .map((e) => /^event: (.*)$/m.exec(e)?.[1] ?? e);
}

let root: string | undefined;
let runtime: DocsRuntime | undefined;

afterEach(async () => {
  await runtime?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  runtime = undefined;
  root = undefined;
});

async function start(files: Record<string, unknown>, dated: Record<string, string>): Promise<DocsRuntime> {
  root = writeRepo(files);
  for (const [rel, text] of Object.entries(dated)) write(rel, text, T[0] as Date);
  runtime = await DocsRuntime.load({ root });
  return runtime;
}

function write(rel: string, text: string, at: Date): void {
  writeFileSync(join(root as string, rel), text);
  utimesSync(join(root as string, rel), at, at);
}

async function edit(rel: string, text: string, at: Date): Promise<void> {
  write(rel, text, at);
  await (runtime as DocsRuntime).applyChanges([rel]);
}

/** `stat -c '%n %y'` of `paths` as `reader` sees them. */
async function stat(reader: Reader, ...paths: string[]): Promise<string> {
  return (await (runtime as DocsRuntime).readerState(localContext(reader)).shell.run(`stat -c '%n %y' ${paths.join(" ")}`)).stdout;
}

/** The live-reload events `reader` is sent until `streams` is closed. */
function listen(streams: ReloadStreams, reader: Reader, caller: string): Promise<string[]> {
  return streams
    .stream(requestContext(reader, "public", Date.now, caller), caller)
    .text()
    .then(eventNames);
}

const TEAM_SITE = { "docs.json": { name: "Shop", navigation: { groups: [{ group: "API", openapi: "api/shop.json" }] } }, "api/shop.json": "{}" };

describe("variant times past the bound on remembered classes", () => {
  it("a spec with an operation for each of 70 groups, its pages dated, then edited in a staff part: the anonymous reader keeps its time and is sent no change", async () => {
    const docs = await start(TEAM_SITE, { "api/shop.json": spec("Open the vault", 70) });
    // Every page of the spec dated: one class for each operation's readers.
    const pages = (await docs.readerState(localContext(EVERYTHING)).shell.run("ls /api-reference")).stdout.trim().split("\n");
    expect(pages).toHaveLength(72);
    await stat(EVERYTHING, ...pages.map((p) => `/api-reference/${p}`));
    const streams = new ReloadStreams(docs);
    const events = { anonymous: listen(streams, ANONYMOUS, "a"), staff: listen(streams, STAFF, "s") };
    expect(await stat(ANONYMOUS, "/api/shop.json", "/api-reference/watch-orders.mdx")).toBe(`/api/shop.json ${stamp(T[0] as Date)}\n/api-reference/watch-orders.mdx ${stamp(T[0] as Date)}\n`);

    await edit("api/shop.json", spec("Open the vault door", 70), T[1] as Date);
    expect({ anonymous: await stat(ANONYMOUS, "/api/shop.json", "/api-reference/watch-orders.mdx"), staff: await stat(STAFF, "/api/shop.json") }).toEqual({
      anonymous: `/api/shop.json ${stamp(T[0] as Date)}\n/api-reference/watch-orders.mdx ${stamp(T[0] as Date)}\n`,
      staff: `/api/shop.json ${stamp(T[1] as Date)}\n`,
    });
    await streams.settled();
    streams.close();
    expect({ anonymous: await events.anonymous, staff: await events.staff }).toEqual({ anonymous: ["ready"], staff: ["ready", "change"] });
  });

  it("70 readers of as many classes, the anonymous reader after them: a staff edit moves neither its time nor theirs", async () => {
    await start(TEAM_SITE, { "api/shop.json": spec("Open the vault", 70) });
    const at = (n: number): string => `${stamp(T[n] as Date)}\n`;
    for (const team of TEAMS) await stat(team, "/api/shop.json");
    expect(await stat(ANONYMOUS, "/api/shop.json")).toBe(`/api/shop.json ${at(0)}`);
    const times = async (): Promise<string[]> => {
      const out = [(await stat(ANONYMOUS, "/api/shop.json")).slice("/api/shop.json ".length), (await stat(STAFF, "/api/shop.json")).slice("/api/shop.json ".length)];
      for (const team of TEAMS) out.push((await stat(team, "/api/shop.json")).slice("/api/shop.json ".length));
      return out;
    };
    // Two edits: after the first, the classes past the bound are no longer carried.
    await edit("api/shop.json", spec("Open the vault door", 70), T[1] as Date);
    expect(await times()).toEqual([at(0), at(1), ...TEAMS.map(() => at(0))]);
    await edit("api/shop.json", spec("Open the vault doors", 70), T[2] as Date);
    expect(await times()).toEqual([at(0), at(2), ...TEAMS.map(() => at(0))]);
  });

  it("a variant whose bytes another file changed gets a new time: a snippet made staff's, a staff page documenting an operation", async () => {
    const guide = '---\ntitle: Guide\n---\n\nimport Note from "/snippets/note.mdx"\n\nRead this.\n\n<Note />\n';
    const docs = await start(
      {
        "docs.json": { name: "Shop", navigation: { groups: [{ group: "Guides", pages: ["guide"] }, { group: "API", openapi: "api/shop.json" }] } },
        "api/shop.json": "{}",
        "snippets/note.mdx": "",
      },
      { "guide.mdx": guide, "snippets/note.mdx": "---\ntitle: Note\n---\n\nA note.\n", "api/shop.json": spec("Open the vault", 0) },
    );
    const streams = new ReloadStreams(docs);
    const events = { anonymous: listen(streams, ANONYMOUS, "a"), staff: listen(streams, STAFF, "s") };
    const paths = ["/guide.mdx", "/api/shop.json"];
    const shown = async (reader: Reader): Promise<string> => stat(reader, ...paths);
    const lines = (guideAt: Date, specAt: Date): string => `/guide.mdx ${stamp(guideAt)}\n/api/shop.json ${stamp(specAt)}\n`;
    const plusOne = new Date((T[0] as Date).getTime() + 1);
    expect({ anonymous: await shown(ANONYMOUS), staff: await shown(STAFF) }).toEqual({ anonymous: lines(T[0] as Date, T[0] as Date), staff: lines(T[0] as Date, T[0] as Date) });

    // The snippet made staff's: the anonymous reader's guide loses its import, the guide file unchanged.
    await edit("snippets/note.mdx", "---\ntitle: Note\ngroups: [staff]\n---\n\nA note.\n", T[1] as Date);
    expect((await docs.readerState(localContext(ANONYMOUS)).shell.run("cat /guide.mdx")).stdout).not.toContain("<Note />");
    expect({ anonymous: await shown(ANONYMOUS), staff: await shown(STAFF) }).toEqual({ anonymous: lines(plusOne, T[0] as Date), staff: lines(T[0] as Date, T[0] as Date) });

    // A staff page starts documenting the public operation: the anonymous reader's spec loses it, the spec file unchanged.
    await edit("staff-orders.mdx", "---\ntitle: Orders for staff\ngroups: [staff]\nopenapi: GET /orders\n---\n\nStaff notes.\n", T[2] as Date);
    expect((await docs.readerState(localContext(ANONYMOUS)).shell.run("cat /api/shop.json")).stdout).not.toContain("/orders");
    expect({ anonymous: await shown(ANONYMOUS), staff: await shown(STAFF) }).toEqual({ anonymous: lines(plusOne, plusOne), staff: lines(T[0] as Date, T[0] as Date) });

    // Staff's changes are the snippet's and the new page's own.
    await streams.settled();
    streams.close();
    expect({ anonymous: await events.anonymous, staff: await events.staff }).toEqual({ anonymous: ["ready", "change", "change"], staff: ["ready", "change", "change"] });
  });
});
