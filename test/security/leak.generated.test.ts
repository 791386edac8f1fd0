import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAY_PATH } from "../../src/config/openapi/playground.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ALL_ACCESS, ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { requestContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { type Harness, credentialTokens, mcpClient, startBridge, userTokens } from "../bridge/harness.js";
import { connect } from "../helpers/mcp.js";
import { fixture } from "../helpers/paths.js";
import { GUESSED_RESOURCES, RELAY_PAGES, type SearchCall, generateCommands, generateSearches } from "./leak-commands.js";

/**
 * The generated leak test. `fixtures/leak-site` holds markers (`LEAKMARKER_<where>_<group>`) in
 * every place restricted content lives: page bodies, titles, headings, file and folder names,
 * front matter, a restricted snippet and a restricted page imported by public pages, OpenAPI
 * operations restricted with `x-svc`/`x-mint` `metadata.groups` (their paths, summaries,
 * schemas, tags), AsyncAPI channels and operations, skills, version and navigation names, an
 * ignored draft. A fixed-seed generator (`LEAK_SEED` overrides it, `LEAK_COMMANDS` the count)
 * draws command lines over every shell command, search calls with version and language
 * filters, resource reads; four readers (anonymous, `staff`, `partners`, a client credential)
 * run them all in-process, and a sample over the real HTTP bridge with real OAuth tokens, with
 * `/.well-known/mcp`, the API pages as HTML and the playground relay. No marker may reach a reader outside its group;
 * each must reach some reader inside it (so the check can fail).
 */

const ROOT = fixture("leak-site");
const SEED = Number(process.env.LEAK_SEED ?? 20261124);
const COMMANDS = Number(process.env.LEAK_COMMANDS ?? 2000);
/** How many of the commands (and searches) also go over real HTTP for each reader. */
const HTTP_SAMPLE = 60;
const HOW = `(seed ${SEED}; rerun with LEAK_SEED=${SEED} npx vitest run test/security/leak.generated.test.ts)`;

type ReaderName = "anonymous" | "staff" | "partners" | "credential";
const READERS: Readonly<Record<ReaderName, Reader>> = {
  anonymous: ANONYMOUS,
  staff: readerWithGroups(["staff"]),
  partners: readerWithGroups(["partners"]),
  credential: ALL_ACCESS,
};
const NAMES = Object.keys(READERS) as ReaderName[];

/**
 * Who may see a marker, from its last part: a group's members and all-access credentials; `all`
 * everyone; `malformed` (an `x-svc` groups value that cannot be read: restricted to nobody but
 * all-access readers); `ignored` nobody.
 */
function allowedReaders(marker: string): ReadonlySet<ReaderName> {
  const group = marker.slice(marker.lastIndexOf("_") + 1).toLowerCase();
  if (group === "all") return new Set(NAMES);
  if (group === "staff" || group === "partners") return new Set<ReaderName>([group, "credential"]);
  if (group === "malformed") return new Set<ReaderName>(["credential"]);
  if (group === "ignored") return new Set();
  throw new Error(`marker ${marker}: unknown group "${group}"`);
}

/** Every marker in the fixture, found by reading it (so a new one is checked without listing it). */
function fixtureMarkers(): string[] {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      for (const m of name.matchAll(/leakmarker_[a-z]+_[a-z]+/gi)) found.add(m[0].toLowerCase());
      if (statSync(abs).isDirectory()) walk(abs);
      else for (const m of readFileSync(abs, "utf8").matchAll(/leakmarker_[a-z]+_[a-z]+/gi)) found.add(m[0].toLowerCase());
    }
  };
  walk(ROOT);
  return [...found].sort();
}

/**
 * Markers compared loosely: generated page names and slugs change case and separators
 * (`leakmarker-opsum-staff`, `LeakmarkerOpsumStaff`), and those still leak the name.
 */
const loose = (text: string): string => text.toLowerCase().replace(/[-_\s]/g, "");

interface Output {
  readonly reader: ReaderName;
  /** What the reader typed (a command, a query, a URI): a marker it holds is an echo, not a leak. */
  readonly typed: string;
  readonly text: string;
  readonly via: "in-process" | "http";
}

class Ledger {
  readonly markers = fixtureMarkers();
  private readonly looseMarkers = this.markers.map(loose);
  /** One example per (marker, reader, way in), with how many outputs carried it. */
  private readonly found = new Map<string, { example: string; count: number }>();
  readonly seenBy = new Map<string, Set<ReaderName>>();
  outputs = 0;

  record(o: Output): void {
    this.outputs++;
    const text = loose(o.text);
    const typed = loose(o.typed);
    this.markers.forEach((marker, i) => {
      const m = this.looseMarkers[i] as string;
      if (!text.includes(m) || typed.includes(m)) return;
      if (allowedReaders(marker).has(o.reader)) {
        const seen = this.seenBy.get(marker) ?? new Set();
        seen.add(o.reader);
        this.seenBy.set(marker, seen);
      } else {
        const key = `${marker} reached ${o.reader} (${o.via})`;
        const leak = this.found.get(key);
        if (leak !== undefined) leak.count++;
        else {
          const at = o.text.toLowerCase().replace(/[-\s]/g, "_").indexOf(marker);
          this.found.set(key, { example: `from ${JSON.stringify(o.typed)}: ...${o.text.slice(Math.max(0, at - 120), at + 80)}...`, count: 1 });
        }
      }
    });
  }

  /** Each leak once: the marker, the reader, how many outputs, and the first command that showed it. */
  get leaks(): string[] {
    return [...this.found].map(([key, { example, count }]) => `${key} in ${count} output(s), first ${example}`);
  }
}

const ledger = new Ledger();
const commands = generateCommands(SEED, COMMANDS);
const searches = generateSearches(SEED, 150);
let runtime: DocsRuntime;
let h: Harness;
const tokens: Partial<Record<ReaderName, string>> = {};

const text = (result: unknown): string => JSON.stringify(result);
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const searchArgs = (s: SearchCall) => ({ ...s, pageSize: 50 });

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: ROOT, baseUrl: "https://docs.leak.test" });
  h = await startBridge({ root: ROOT, authMode: "partial", mcp: "enabled", apps: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("pat", "pat-password-1", ["partners"]);
  tokens.staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
  tokens.partners = (await userTokens(h, "pat", "pat-password-1")).access_token;
  tokens.credential = (await credentialTokens(h)).access_token;
});
afterAll(async () => {
  await runtime?.close();
  await h?.close();
});

/** Everything an MCP client can ask, as one reader: metadata, resources, commands, searches. */
async function exercise(
  reader: ReaderName,
  via: Output["via"],
  client: Awaited<ReturnType<typeof mcpClient>>["client"],
  lines: readonly string[],
  calls: readonly SearchCall[],
): Promise<void> {
  const add = (typed: string, t: string): void => ledger.record({ reader, typed, text: t, via });
  add("", text(client.getServerVersion()));
  add("", client.getInstructions() ?? "");
  const tools = await client.listTools();
  add("", text(tools));
  const fs = tools.tools.find((t) => t.name.startsWith("query_docs_filesystem_"))?.name ?? "";
  const search = tools.tools.find((t) => t.name.startsWith("search_"))?.name ?? "";
  for (const ask of [() => client.listPrompts(), () => client.listResourceTemplates()]) add("", await ask().then(text, errorText));
  const { resources } = await client.listResources();
  add("", text(resources));
  for (const uri of new Set([...resources.map((r) => r.uri), ...GUESSED_RESOURCES])) {
    add(uri, await client.readResource({ uri }).then(text, errorText));
  }
  for (const command of lines) add(command, await client.callTool({ name: fs, arguments: { command } }).then(text, errorText));
  for (const s of calls) add(text(s), await client.callTool({ name: search, arguments: searchArgs(s) }).then(text, errorText));
}

describe(`generated leak test ${HOW}`, () => {
  // One test per reader: each is ~6 s of CPU on an idle machine; the time limits leave room for
  // a machine shared with other work (they catch a hang, they do not measure).
  it.each(NAMES)(`runs ${COMMANDS} command lines, 150 searches and every metadata request as %s, in-process`, async (reader) => {
    const before = ledger.outputs;
    const context = requestContext(READERS[reader], "partial");
    const c = await connect(runtime, context);
    try {
      await exercise(reader, "in-process", c.client, commands, searches);
    } finally {
      await c.close();
    }
    // The navigation `svc-mcp nav --groups` prints: the site's nav as this reader may see it.
    ledger.record({ reader, typed: "", text: text(navigationOfSite(runtime.site, { context })), via: "in-process" });
    expect(ledger.outputs - before).toBeGreaterThan(COMMANDS + searches.length);
  });

  it("runs a sample of the same over the real HTTP bridge with real tokens, with /.well-known/mcp, the API pages as HTML and the relay", async () => {
    const step = Math.floor(commands.length / HTTP_SAMPLE);
    const sample = commands.filter((_, i) => i % step === 0);
    for (const reader of NAMES) {
      const token = tokens[reader];
      const c = await mcpClient(reader === "anonymous" ? h.urls.mcp : h.urls.authedMcp, token !== undefined ? { token } : {});
      try {
        await exercise(reader, "http", c.client, sample, searches.slice(0, 20));
      } finally {
        await c.close();
      }
      const auth: Record<string, string> = token !== undefined ? { authorization: `Bearer ${token}` } : {};
      const wellKnown = await fetch(h.urls.wellKnownMcp, { headers: auth });
      ledger.record({ reader, typed: "", text: `${wellKnown.status} ${await wellKnown.text()}`, via: "http" });
      for (const page of RELAY_PAGES) {
        // The API page as HTML (the pages for people), and through the playground relay.
        const html = await fetch(`${h.origin}${page}`, { headers: { accept: "text/html", ...auth } });
        ledger.record({ reader, typed: page, text: `${html.status} ${await html.text()}`, via: "http" });
        for (const method of ["GET", "POST"]) {
          const body = JSON.stringify({ page, method, url: `http://127.0.0.1:9/v1${page.includes("vault") ? "/leakmarker_path_staff/1" : "/orders"}` });
          const res = await fetch(`${h.origin}${RELAY_PATH}`, { method: "POST", headers: { "content-type": "application/json", ...auth }, body });
          ledger.record({ reader, typed: body, text: `${res.status} ${await res.text()}`, via: "http" });
        }
      }
    }
  });

  it("reached no reader with a marker outside its groups", () => {
    expect(ledger.leaks, `leaks ${HOW}`).toEqual([]);
  });

  it("reached, for each marker, a reader who may see it (so the check above can fail)", () => {
    const unseen = ledger.markers.filter((m) => allowedReaders(m).size > 0 && ledger.seenBy.get(m) === undefined);
    expect(unseen, `markers no allowed reader saw ${HOW}`).toEqual([]);
    // The fixture covers both groups, public content, and the ignored draft.
    expect(ledger.markers.length).toBeGreaterThanOrEqual(40);
  });
});
