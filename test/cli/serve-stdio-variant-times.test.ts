import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { variantTimesFile } from "../../src/store/variant-times-file.js";
import { REPO } from "../helpers/paths.js";
import { writeRepo } from "../openapi/helpers.js";

const BIN = join(REPO, "bin", "svc-mcp.js");

/**
 * `serve` over stdio keeps each reader class's time of a file with restricted parts in its state
 * folder across restarts (security.md row 160): a staff edit made while it was stopped does not
 * date the anonymous reader's copy of the spec. The state file is read before the load and
 * written at the stop; what it says of itself goes to stderr, stdout stays the protocol.
 */

const T = ["2026-01-01", "2026-03-01"].map((d) => new Date(`${d}T00:00:00.000Z`));

function spec(vault: string): string {
  const ok = { "200": { description: "OK" } };
  const paths = {
    "/vault": { get: { summary: vault, "x-svc": { metadata: { groups: ["staff"] } }, responses: ok } },
    "/orders": { get: { summary: "Watch orders", description: "Every order placed, as it is placed.", responses: ok } },
  };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths }, null, 2);
}

const stamp = (at: Date): string => at.toISOString().replace("T", " ").replace(/\.(\d{3})Z$/, ".$1000000 +0000");

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

interface Served {
  readonly code: number | null;
  /** Each stdout line parsed, by id. */
  readonly answers: unknown[];
  readonly stderr: string;
}

/** One `serve` over stdio: initialize, then `stat` of the spec and its page, then a search; stdin closed once all are answered. */
async function serve(root: string, state: string, home: string): Promise<Served> {
  const child = spawn(process.execPath, [BIN, "serve", "--dir", root, "--state", state, "--no-watch"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, XDG_STATE_HOME: home, SVC_MCP_CACHE: "off" },
  });
  let stdout = "";
  let stderr = "";
  let answered!: () => void;
  const all = new Promise<void>((resolve) => (answered = resolve));
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    if (stdout.split("\n").filter((l) => l !== "").length >= 3) answered();
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const send = (msg: object): void => void child.stdin.write(`${JSON.stringify(msg)}\n`);
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "query_docs_filesystem_shop", arguments: { command: "stat -c '%n %y' /api/shop.json /api-reference/watch-orders.mdx" } } });
  send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_shop", arguments: { query: "watch orders placed" } } });
  await all;
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  // Every line of stdout is a JSON-RPC message (a parse failure fails the test).
  const messages = stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: { content?: { text: string }[]; structuredContent?: { results: { path: string; lastModified: string }[] } } })
    .sort((a, b) => a.id - b.id);
  const answers = messages.map((m) => (m.id === 1 ? m.jsonrpc : m.id === 2 ? m.result?.content?.[0]?.text : m.result?.structuredContent?.results.map((r) => `${r.path} ${r.lastModified}`)));
  return { code, answers, stderr };
}

function site(): { root: string; state: string; home: string } {
  const root = writeRepo({ "docs.json": { name: "Shop", navigation: { groups: [{ group: "API", openapi: "api/shop.json" }] } }, "api/shop.json": spec("Open the vault") });
  utimesSync(join(root, "api/shop.json"), T[0] as Date, T[0] as Date);
  const state = mkdtempSync(join(tmpdir(), "svc-times-state-"));
  const home = mkdtempSync(join(tmpdir(), "svc-times-home-"));
  dirs.push(root, state, home);
  return { root, state, home };
}

/** What the anonymous reader is answered when the spec and its page are dated `at`. */
const answers = (at: Date): unknown[] => ["2.0", `/api/shop.json ${stamp(at)}\n/api-reference/watch-orders.mdx ${stamp(at)}\n`, [`/api-reference/watch-orders ${at.toISOString()}`]];

const serving = (state: string): string =>
  `svc-mcp: project "shop" (from the site name; set --project-id to change it); state in ${state}\n` +
  'svc-mcp: serving "Shop" (0 pages, +2 generated from API specs) over stdio; tools search_shop, query_docs_filesystem_shop, submit_feedback\n';

describe("serve (stdio) keeps variant times across restarts", () => {
  it("a staff edit while stopped: the anonymous reader's spec and page keep their time; stdout is the protocol alone", async () => {
    const { root, state, home } = site();
    expect(await serve(root, state, home)).toEqual({ code: 0, answers: answers(T[0] as Date), stderr: serving(state) });
    writeFileSync(join(root, "api/shop.json"), spec("Open the vault door"));
    utimesSync(join(root, "api/shop.json"), T[1] as Date, T[1] as Date);
    expect(await serve(root, state, home)).toEqual({ code: 0, answers: answers(T[0] as Date), stderr: serving(state) });
  });

  it("a damaged state file: the server starts and serves, dating by the file, and says why on stderr", async () => {
    const { root, state, home } = site();
    const file = variantTimesFile(root, { state, cwd: "/", env: {} }) as string;
    mkdirSync(join(state, "variant-times"));
    writeFileSync(file, "\u0000garbage");
    expect(await serve(root, state, home)).toEqual({
      code: 0,
      answers: answers(T[0] as Date),
      stderr:
        `svc-mcp: warning: the variant times kept in ${file} are not taken (not JSON (Unexpected token '\\x00', "\\x00garbage" is not valid JSON)): each reader class of a file with restricted parts is dated by the file's time until its bytes change\n` +
        serving(state),
    });
    // Written anew at the stop: the next start takes it.
    writeFileSync(join(root, "api/shop.json"), spec("Open the vault door"));
    utimesSync(join(root, "api/shop.json"), T[1] as Date, T[1] as Date);
    expect(await serve(root, state, home)).toEqual({ code: 0, answers: answers(T[0] as Date), stderr: serving(state) });
  });
});
