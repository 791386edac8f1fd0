import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * A new user's first try: `printf '<initialize>\n<initialized>\n<tools/call>\n' | svc-mcp serve`.
 * The SDK's stdio transport closed at stdin's end and aborted the requests still in flight, so
 * the server exited 0 having answered the ping but not the calls. Every request read before the
 * end is answered now, then the process exits 0. The whole input is written and stdin closed
 * at once, while the docs are still loading: the requests wait in the pipe meanwhile. Also here:
 * a folder of pages without docs.json, served with its warning on stderr, never on stdout.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");
/** The page's modification time, fixed so the answers' provenance is known. */
const MTIME = new Date("2026-01-02T03:04:05.000Z");
const PROVENANCE = { lastModified: MTIME.toISOString(), ttlMs: 60000 };

let repo: { dir: string; cleanup: () => void };
let state: string;
beforeAll(() => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }), "index.mdx": "---\ntitle: Home\n---\n\nWelcome widgets.\n" });
  utimesSync(join(repo.dir, "index.mdx"), MTIME, MTIME);
  state = mkdtempSync(join(tmpdir(), "svc-mcp-state-"));
});
afterAll(() => {
  repo.cleanup();
  rmSync(state, { recursive: true, force: true });
});

const line = (message: object): string => `${JSON.stringify(message)}\n`;
const call = (id: number, name: string, args: object): string => line({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

it("answers every request sent before stdin's end, then exits 0", async () => {
  const child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch", "--no-fetch-remote"], { stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => void (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? `${signal} after stderr ${JSON.stringify(stderr)}`)));
  child.stdin.end(
    line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) +
      line({ jsonrpc: "2.0", method: "notifications/initialized" }) +
      call(2, "search_acme", { query: "widgets" }) +
      call(3, "query_docs_filesystem_acme", { command: "cat /index.mdx" }) +
      line({ jsonrpc: "2.0", id: 4, method: "ping" }) +
      call(5, "query_docs_filesystem_acme", { command: "wc -l /index.mdx" }),
  );
  expect(await exited).toBe(0);
  // Answers come in the order they are ready (calls run concurrently): ordered by id.
  const answers = stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { id: number })
    .sort((a, b) => a.id - b.id);
  const meta = { "svc-mcp/provenance": PROVENANCE };
  const reads = [{ path: "/index.mdx", lastModified: PROVENANCE.lastModified }];
  const page = "---\ntitle: Home\n---\n\nWelcome widgets.\n";
  expect(answers).toEqual([
    {
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, logging: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
        serverInfo: { name: "svc-mcp", title: "Acme docs", version: "0.1.0" },
        instructions:
          "Documentation for Acme. It covers: Start. Use search_acme to find pages for a question, then query_docs_filesystem_acme to read them (pages are files: /a/b.mdx is the page at http://localhost:3000/a/b). Cite page links in answers.",
      },
    },
    {
      jsonrpc: "2.0",
      id: 2,
      result: {
        _meta: meta,
        content: [{ type: "text", text: "1. Home\n   http://localhost:3000/\n   file: /index.mdx · score 0.359\n   Welcome widgets." }],
        structuredContent: {
          results: [{ title: "Home", section: "", path: "/index", file: "/index.mdx", url: "http://localhost:3000/", snippet: "Welcome widgets.", score: 0.359, lastModified: PROVENANCE.lastModified }],
          provenance: PROVENANCE,
        },
      },
    },
    {
      jsonrpc: "2.0",
      id: 3,
      result: { _meta: meta, content: [{ type: "text", text: page }], structuredContent: { stdout: page, stderr: "", exitCode: 0, truncated: false, reads, provenance: PROVENANCE } },
    },
    { jsonrpc: "2.0", id: 4, result: {} },
    {
      jsonrpc: "2.0",
      id: 5,
      result: {
        _meta: meta,
        content: [{ type: "text", text: "5 /index.mdx\n" }],
        structuredContent: { stdout: "5 /index.mdx\n", stderr: "", exitCode: 0, truncated: false, reads, provenance: PROVENANCE },
      },
    },
  ]);
  expect(stderr).toBe(
    `svc-mcp: project "acme" (from the site name; set --project-id to change it); state in ${state}\n` +
      'svc-mcp: serving "Acme" (1 page) over stdio; tools search_acme, query_docs_filesystem_acme, submit_feedback\n',
  );
});

it("serves a folder of pages without docs.json, with one warning on stderr and nothing but protocol on stdout", async () => {
  // Named so: the site takes the folder's name, which the answers carry.
  const notes = makeRepo({ "notes/b.mdx": "---\ntitle: Beta\n---\n\nbeta\n", "notes/a.mdx": "---\ntitle: Alpha\n---\n\nalpha\n" });
  try {
    const child = spawn(process.execPath, [BIN, "serve", "--dir", join(notes.dir, "notes"), "--state", state, "--no-watch", "--no-fetch-remote"], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => void (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
    const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? `${signal} after stderr ${JSON.stringify(stderr)}`)));
    child.stdin.end(
      line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) +
        line({ jsonrpc: "2.0", method: "notifications/initialized" }) +
        line({ jsonrpc: "2.0", id: 2, method: "ping" }),
    );
    expect(await exited).toBe(0);
    const answers = stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { id: number })
      .sort((a, b) => a.id - b.id);
    expect(answers).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-06-18",
          capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, logging: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
          serverInfo: { name: "svc-mcp", title: "notes docs", version: "0.1.0" },
          instructions:
            "Documentation for notes. Use search_notes to find pages for a question, then query_docs_filesystem_notes to read them (pages are files: /a/b.mdx is the page at http://localhost:3000/a/b). Cite page links in answers.",
        },
      },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    expect(stderr).toBe(
      `svc-mcp: warning: no docs.json (or mint.json) in ${join(notes.dir, "notes")}: every page is served, in file order, with no navigation; write a docs.json there with the site's "name" and its "navigation" to order them (\`svc-mcp schema\` prints its JSON Schema)\n` +
        `svc-mcp: project "notes" (from the site name; set --project-id to change it); state in ${state}\n` +
        'svc-mcp: serving "notes" (2 pages) over stdio; tools search_notes, query_docs_filesystem_notes, submit_feedback\n',
    );
  } finally {
    notes.cleanup();
  }
});
