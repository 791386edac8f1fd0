import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedbackEntry, NewFeedback } from "../../src/store/feedback/model.js";
import { openFeedbackStore } from "../../src/store/feedback/sqlite-store.js";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";
import { startServe } from "../helpers/serve-http.js";
import { entry, ms, postJson, tempState } from "./harness.js";

const BIN = join(REPO, "bin", "svc-mcp.js");
const DEMO = fixture("demo");

/** The CLI in the demo site, with state under `stateHome` unless --state is given. */
const run = (argv: string[], stateHome: string) => runCli(argv, { cwd: DEMO, env: { XDG_STATE_HOME: stateHome, HOME: stateHome } });

let home: ReturnType<typeof tempState>;
let stateDir: string;
const E: Record<string, FeedbackEntry> = {};

beforeAll(async () => {
  home = tempState();
  stateDir = join(home.dir, "svc-mcp", "nimbus-storage");
  const store = openFeedbackStore(stateDir);
  const seed: [string, Partial<NewFeedback>, string][] = [
    ["a1", { source: "agent", path: "/quickstart", comment: "Missing region flag" }, "2024-05-01T10:00:00Z"],
    ["c1", { source: "contextual", path: "/guides/webhooks", helpful: false, comment: 'Says "retry", but how often?\nAlso: =SUM(A1)', contact: "ana@example.com" } as Partial<NewFeedback>, "2024-05-02T10:00:00Z"],
    ["s1", { source: "code_snippet", path: "/quickstart", comment: "-flag is wrong", code: "nimbus put -r eu\n", filename: "put.sh", lang: "bash" } as Partial<NewFeedback>, "2024-05-03T10:00:00Z"],
    ["t1", { source: "thumbs_only", path: "/", helpful: true, comment: "helpful" } as Partial<NewFeedback>, "2024-05-04T10:00:00Z"],
  ];
  for (const [name, details, at] of seed) E[name] = await store.insert(entry({ projectId: "nimbus-storage", ...details, createdAt: ms(at) }));
  await store.close();
});
afterAll(() => home.cleanup());

describe("svc-mcp keys", () => {
  it("create prints the key once; list shows it without the secret; revoke takes the id or the key", async () => {
    const created = await run(["keys", "create", "--label", "CI export"], home.dir);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^svc_[a-z2-7]{12}[0-9A-Za-z]{32}\n$/);
    const key = created.stdout.trim();
    const id = key.slice(4, 16);
    expect(created.stderr).toBe(
      `Created API key ${id} for project "nimbus-storage" (from the site name; set --project-id to change it); state in ${stateDir}.\n` +
        "Copy it now: it is shown only once. Use it as Authorization: Bearer <key>.\n",
    );
    expect(statSync(join(stateDir, "keys.db")).mode & 0o777).toBe(0o600);

    const json = await run(["keys", "create", "--json"], home.dir);
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(["key"]);
    expect(json.stdout).toMatch(/^\{"key":"svc_[a-z2-7]{12}[0-9A-Za-z]{32}"\}\n$/);
    const id2 = (JSON.parse(json.stdout) as { key: string }).key.slice(4, 16);

    const listed = JSON.parse((await run(["keys", "list", "--json"], home.dir)).stdout);
    expect(listed.map((k: { id: string; label: string; revokedAt: null }) => [k.id, k.label, k.revokedAt])).toEqual(
      expect.arrayContaining([
        [id, "CI export", null],
        [id2, "", null],
      ]),
    );
    expect(JSON.stringify(listed)).not.toContain(key.slice(16));

    const text = (await run(["keys", "list"], home.dir)).stdout;
    expect(text.split("\n")[0]).toBe(`ID${" ".repeat(12)}LABEL      CREATED${" ".repeat(19)}LAST USED  STATUS`);
    expect(text).toContain(`${id}  CI export  `);

    expect(await run(["keys", "revoke", key], home.dir)).toEqual({ code: 0, stdout: `Revoked API key ${id}.\n`, stderr: "" });
    const again = await run(["keys", "revoke", id], home.dir);
    expect(again.stdout).toMatch(new RegExp(`^API key ${id} was already revoked \\(\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)\\.\\n$`));
    expect(await run(["keys", "revoke", "nosuchkey"], home.dir)).toEqual({ code: 1, stdout: "", stderr: 'svc-mcp: no API key "nosuchkey"; see `svc-mcp keys list`\n' });
    expect(await run(["keys", "revoke"], home.dir)).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: keys revoke needs the key's id (see `svc-mcp keys list`)\n" });
  });

  it("--project-id picks another state folder and must be a safe path segment", async () => {
    const created = await run(["keys", "create", "--project-id", "other_site"], home.dir);
    expect(created.code).toBe(0);
    expect(existsSync(join(home.dir, "svc-mcp", "other_site", "keys.db"))).toBe(true);
    expect(await run(["keys", "list", "--project-id", "../x"], home.dir)).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --project-id must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit; got "../x"\n',
    });
    expect(await run(["keys", "list", "--dir", "/nonexistent/docs"], home.dir)).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --dir /nonexistent/docs: no such folder\n",
    });
  });
});

describe("svc-mcp feedback", () => {
  it("list: a table, newest first, with the next cursor when there is more", async () => {
    const r = await run(["feedback", "list", "--limit", "3"], home.dir);
    expect(r).toEqual({
      code: 0,
      stderr: "",
      stdout: expect.any(String),
    });
    const lines = r.stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "CREATED                   ID                       SOURCE        STATUS   PATH              COMMENT",
      `2024-05-04T10:00:00.000Z  ${E.t1!.id}  thumbs_only   pending  /                 helpful`,
      `2024-05-03T10:00:00.000Z  ${E.s1!.id}  code_snippet  pending  /quickstart       -flag is wrong`,
      `2024-05-02T10:00:00.000Z  ${E.c1!.id}  contextual    pending  /guides/webhooks  Says "retry", but how often? Also: =SUM(A1)`,
    ]);
    expect(lines[4]).toMatch(/^More: add --cursor [A-Za-z0-9_-]{55} \(with the same filters\)\.$/);
    const cursor = lines[4]!.split(" ")[3]!;
    const next = JSON.parse((await run(["feedback", "list", "--limit", "3", "--cursor", cursor, "--json"], home.dir)).stdout);
    expect(next).toEqual({ feedback: [E.a1], nextCursor: null, hasMore: false });
  });

  it("list: the GET's filters, as flags, with the GET's validation", async () => {
    const json = async (...flags: string[]) => JSON.parse((await run(["feedback", "list", "--json", ...flags], home.dir)).stdout).feedback.map((e: FeedbackEntry) => e.id);
    expect(await json("--source", "code_snippet")).toEqual([E.s1!.id]);
    expect(await json("--date-from", "2024-05-02", "--date-to", "2024-05-04")).toEqual([E.s1!.id, E.c1!.id]);
    expect(await json("--status", "pending,resolved", "--date-to", "2024-05-02T12:00:00+01:00")).toEqual([E.c1!.id, E.a1!.id]);
    expect(await run(["feedback", "list", "--limit", "0", "--source", "x", "--date-to", "soon"], home.dir)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'svc-mcp: --date-to: dateTo "soon": not an ISO 8601 date-time (2024-05-01T09:30:00Z) or date (2024-05-01)\n' +
        '--source: source "x" is not one of code_snippet, contextual, agent, thumbs_only\n' +
        '--limit: limit must be an integer from 1 to 100; got "0"\n',
    });
    expect(await run(["feedback", "list", "--cursor", "abc"], home.dir)).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --cursor: cursor is malformed or was altered; pass nextCursor from the previous response unchanged\n",
    });
    expect(await run(["feedback", "list", "--format", "csv"], home.dir)).toMatchObject({ code: 2, stderr: "svc-mcp: --format does not apply to feedback list\n" });
  });

  it("list with no feedback collected yet creates no state", async () => {
    const empty = tempState();
    expect(await run(["feedback", "list", "--state", empty.dir], home.dir)).toEqual({ code: 0, stdout: "No feedback matches.\n", stderr: "" });
    expect(existsSync(join(empty.dir, "feedback.db"))).toBe(false);
    empty.cleanup();
  });

  it("export --format csv: every field, RFC 4180 quoting, formulas neutralized", async () => {
    const r = await run(["feedback", "export", "--format", "csv"], home.dir);
    expect(r.stderr).toBe("Exported 4 entries.\n");
    expect(r.stdout).toBe(
      "id,createdAt,source,status,path,comment,helpful,contact,code,filename,lang\r\n" +
        `${E.t1!.id},2024-05-04T10:00:00.000Z,thumbs_only,pending,/,helpful,,,,,\r\n` +
        `${E.s1!.id},2024-05-03T10:00:00.000Z,code_snippet,pending,/quickstart,'-flag is wrong,,,"nimbus put -r eu\n",put.sh,bash\r\n` +
        `${E.c1!.id},2024-05-02T10:00:00.000Z,contextual,pending,/guides/webhooks,"Says ""retry"", but how often?\nAlso: =SUM(A1)",false,ana@example.com,,,\r\n` +
        `${E.a1!.id},2024-05-01T10:00:00.000Z,agent,pending,/quickstart,Missing region flag,,,,,\r\n`,
    );
  });

  it("export --format json: the entries exactly as the API serves them, with filters", async () => {
    const r = await run(["feedback", "export", "--format", "json", "--source", "contextual"], home.dir);
    expect(r.stdout).toBe(`[\n${JSON.stringify(E.c1)}\n]\n`);
    expect(JSON.parse((await run(["feedback", "export", "--format", "json"], home.dir)).stdout)).toEqual([E.t1, E.s1, E.c1, E.a1]);
    expect(await run(["feedback", "export", "--format", "json", "--source", "agent", "--date-from", "2030-01-01"], home.dir)).toEqual({
      code: 0,
      stdout: "[]\n",
      stderr: "Exported 0 entries.\n",
    });
    expect(await run(["feedback", "export", "--limit", "5"], home.dir)).toMatchObject({ code: 2, stderr: "svc-mcp: --limit does not apply to feedback export\n" });
    // Given twice, the last --format counts (yargs made an array, and the output was "[" alone).
    expect(await run(["feedback", "export", "--format", "csv", "--format", "json", "--source", "contextual"], home.dir)).toEqual({
      code: 0,
      stdout: `[\n${JSON.stringify(E.c1)}\n]\n`,
      stderr: "Exported 1 entry.\n",
    });
  });

  it("set-status follows the transitions and names what is wrong", async () => {
    const id = E.a1!.id;
    expect(await run(["feedback", "set-status", id, "resolved"], home.dir)).toEqual({ code: 0, stdout: `${id}: pending -> resolved\n`, stderr: "" });
    expect(await run(["feedback", "set-status", id, "resolved"], home.dir)).toEqual({ code: 0, stdout: `${id} is already resolved.\n`, stderr: "" });
    expect(await run(["feedback", "set-status", id, "dismissed"], home.dir)).toEqual({
      code: 1,
      stdout: "",
      stderr: "svc-mcp: cannot change status from resolved to dismissed; from resolved it can change to pending or in_progress\n",
    });
    expect(await run(["feedback", "set-status", id, "done"], home.dir)).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: status "done" is not one of pending, in_progress, resolved, dismissed\n',
    });
    expect(await run(["feedback", "set-status", "fb_nope", "resolved"], home.dir)).toEqual({
      code: 1,
      stdout: "",
      stderr: 'svc-mcp: no feedback entry "fb_nope" in project "nimbus-storage"\n',
    });
    const back = JSON.parse((await run(["feedback", "set-status", id, "pending", "--json"], home.dir)).stdout);
    expect(back).toEqual({ ...E.a1, status: "pending" });
  });
});

describe("spawned: the CLI changes state while a server runs (SQLite WAL across processes)", () => {
  it("keys create, then set-status and export against a live server's database", async () => {
    const exec = promisify(execFile);
    const state = tempState();
    const { child: server, origin: url } = await startServe(["--dir", DEMO, "--state", state.dir]);
    try {
      const { stdout: keyJson } = await exec(process.execPath, [BIN, "keys", "create", "--json", "--dir", DEMO, "--state", state.dir]);
      const { key } = JSON.parse(keyJson) as { key: string };
      const created = await (await postJson(`${url}/v1/feedback/nimbus-storage/rating`, { path: "/quickstart", helpful: false })).json();

      const { stdout } = await exec(process.execPath, [BIN, "feedback", "set-status", created.id, "in_progress", "--dir", DEMO, "--state", state.dir]);
      expect(stdout).toBe(`${created.id}: pending -> in_progress\n`);
      const page = await (await fetch(`${url}/v1/analytics/nimbus-storage/feedback`, { headers: { authorization: `Bearer ${key}` } })).json();
      expect(page).toEqual({ feedback: [{ ...created, status: "in_progress" }], nextCursor: null, hasMore: false });

      const { stdout: csv } = await exec(process.execPath, [BIN, "feedback", "export", "--dir", DEMO, "--state", state.dir]);
      expect(csv).toBe(
        "id,createdAt,source,status,path,comment,helpful,contact,code,filename,lang\r\n" +
          `${created.id},${created.createdAt},thumbs_only,in_progress,/quickstart,not helpful,,,,,\r\n`,
      );
    } finally {
      server.kill("SIGKILL");
      state.cleanup();
    }
  });
});
