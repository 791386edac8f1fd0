import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { DEMO, FS, INIT, PROTOCOL, mcpClient, postForm, postJson, runCli, tempDir } from "./harness.js";

/** The state commands in-process (exact outputs and errors), and `serve --http` as a process. */

const BIN = join(REPO, "bin", "svc-mcp.js");
let home: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let stateDir: string;
const cli = (argv: string[], stdin?: string) => runCli([...argv, "--dir", DEMO], { env, ...(stdin !== undefined ? { stdin } : {}) });

beforeEach(() => {
  home = tempDir("svc-mcp-home-");
  env = { XDG_STATE_HOME: join(home.dir, "state"), HOME: home.dir };
  stateDir = join(home.dir, "state", "svc-mcp", "nimbus-storage");
});
afterEach(() => home.cleanup());

describe("svc-mcp credentials", () => {
  it("create prints the ID and secret once; --json is exactly {label, clientId, clientSecret}", async () => {
    const text = await cli(["credentials", "create", "--label", "CI bot"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Client ID: {5}mcpc_[0-9A-Za-z]{20}\nClient secret: mcps_[0-9A-Za-z]{40}\n$/);
    expect(text.stderr).toBe(
      'Created client credential "CI bot". Copy the secret now: it is shown only once and cannot be retrieved.\n' +
        "Exchange it at POST <server>/authed/mcp/oauth/token (grant_type=client_credentials); treat it like a password.\n",
    );
    const json = await cli(["credentials", "create", "--label", "export", "--json"]);
    const created = JSON.parse(json.stdout) as Record<string, string>;
    expect(Object.keys(created)).toEqual(["label", "clientId", "clientSecret"]);
    expect(created.label).toBe("export");
    expect(statSync(join(stateDir, "access.db")).mode & 0o777).toBe(0o600);
  });

  it("list shows labels and IDs, never secrets; delete revokes permanently", async () => {
    const a = JSON.parse((await cli(["credentials", "create", "--label", "one", "--json"])).stdout) as { clientId: string; clientSecret: string };
    const list = await cli(["credentials", "list"]);
    expect(list.stdout).toMatch(new RegExp(`^LABEL  CLIENT ID {18}CREATED\none    ${a.clientId}  \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\n$`));
    expect(list.stdout).not.toContain(a.clientSecret);
    const json = JSON.parse((await cli(["credentials", "list", "--json"])).stdout) as Record<string, unknown>[];
    expect(json).toEqual([{ label: "one", clientId: a.clientId, createdAt: expect.any(String) }]);
    expect(await cli(["credentials", "delete", a.clientId])).toEqual({
      code: 0,
      stdout: `Deleted client credential ${a.clientId} ("one"): its tokens stopped working. This cannot be undone.\n`,
      stderr: "",
    });
    expect(await cli(["credentials", "delete", a.clientId])).toEqual({
      code: 1,
      stdout: "",
      stderr: `svc-mcp: no client credential "${a.clientId}"; see \`svc-mcp credentials list\`\n`,
    });
    expect(await cli(["credentials", "list"])).toEqual({ code: 0, stdout: "", stderr: "No client credentials. Create one with `svc-mcp credentials create --label L`.\n" });
  });

  it.each([
    [["credentials", "create"], "credentials create needs --label: one line of 1 to 100 characters saying what the credential is for"],
    [["credentials", "create", "--label", "x".repeat(101)], "credentials create needs --label: one line of 1 to 100 characters saying what the credential is for"],
    [["credentials", "delete"], "credentials delete needs the client ID (see `svc-mcp credentials list`)"],
    [["credentials", "list", "extra"], 'credentials list takes no argument; got "extra"'],
    [["credentials", "list", "--label", "x"], "--label is for credentials create"],
  ])("%j is a usage error (exit 2)", async (argv, message) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\n` });
  });
});

describe("svc-mcp users", () => {
  it("add generates a password (shown once) or reads one from stdin; list shows groups; remove", async () => {
    const gen = await cli(["users", "add", "Alice", "--groups", "staff,partners"]);
    expect(gen.code).toBe(0);
    expect(gen.stdout).toMatch(/^Added user alice \(groups: partners, staff\)\.\nPassword: [0-9A-Za-z]{20}\n$/);
    expect(gen.stderr).toBe("The password is shown only once; pass --password-stdin to choose one instead.\n");
    const own = await cli(["users", "add", "bob", "--password-stdin", "--json"], "bob-secret-pw\nignored\n");
    expect(own).toEqual({ code: 0, stdout: '{"name":"bob","groups":[]}\n', stderr: "" });
    const list = await cli(["users", "list"]);
    expect(list.stdout).toMatch(/^NAME {3}GROUPS {10}CREATED\nalice  partners,staff  \S+\nbob    - {15}\S+\n$/);
    expect(await cli(["users", "add", "BOB", "--password-stdin"], "another-pw\n")).toEqual({
      code: 1,
      stdout: "",
      stderr: 'svc-mcp: user "bob" already exists; remove it first to change its password or groups\n',
    });
    expect(await cli(["users", "remove", "alice"])).toEqual({ code: 0, stdout: "Removed user alice; their tokens stopped working.\n", stderr: "" });
    expect((await cli(["users", "remove", "alice"])).stderr).toBe('svc-mcp: no user "alice"; see `svc-mcp users list`\n');
  });

  it.each([
    [["users", "add", "x y"], 'user name must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit; got "x y"'],
    [["users", "add"], "users add needs a user name"],
    [["users", "remove", "a", "--groups", "x"], "--groups and --password-stdin are for users add"],
  ])("%j is a usage error", async (argv, message) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\n` });
  });

  it("refuses a short password from stdin", async () => {
    expect(await cli(["users", "add", "eve", "--password-stdin"], "short\n")).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: the password must be at least 8 characters\n" });
  });
});

describe("svc-mcp redirect-domains", () => {
  it("adds (normalized), lists, removes; loopback needs no entry", async () => {
    expect((await cli(["redirect-domains", "add", "https://Tool.Example/cb"])).stdout).toBe(
      "Added redirect domain https://tool.example (only the domain counts; stored as https://tool.example).\n",
    );
    expect((await cli(["redirect-domains", "add", "tool.example"])).stdout).toBe("https://tool.example is already listed.\n");
    await cli(["redirect-domains", "add", "myapp://callback"]);
    expect(await cli(["redirect-domains", "list"])).toEqual({
      code: 0,
      stdout: "https://tool.example\nmyapp://callback\n",
      stderr: "Always trusted: localhost, 127.0.0.1 and [::1] (http or https, any port).\n",
    });
    expect((await cli(["redirect-domains", "list", "--json"])).stdout).toBe('["https://tool.example","myapp://callback"]\n');
    expect((await cli(["redirect-domains", "remove", "tool.example"])).stdout).toBe(
      "Removed redirect domain https://tool.example: tools returning there can no longer complete sign-in.\n",
    );
    expect(await cli(["redirect-domains", "remove", "tool.example"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "svc-mcp: https://tool.example is not on the list; see `svc-mcp redirect-domains list`\n",
    });
    expect(await cli(["redirect-domains", "add", "javascript:alert(1)"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: redirect-domains add: javascript: URLs are always refused as redirect targets\n",
    });
    expect((await cli(["redirect-domains", "add", "localhost:3000"])).stderr).toBe(
      "svc-mcp: redirect-domains add: localhost is a loopback address and always trusted; it needs no entry\n",
    );
  });
});

describe("svc-mcp mcp", () => {
  it("prints JSON status, sets the auth mode, refuses a bad mode", async () => {
    expect(JSON.parse((await cli(["mcp", "status", "--json"])).stdout)).toEqual({ authMode: "public", mcp: "enabled", toggle: null, stateDir });
    await cli(["mcp", "auth", "full"]);
    expect(JSON.parse((await cli(["mcp", "status", "--json"])).stdout)).toEqual({ authMode: "full", mcp: "disabled", toggle: null, stateDir });
    expect((await cli(["mcp", "auth"])).stdout).toBe(
      "site auth    full\n" +
        "MCP server   disabled: docs with authentication start disabled (enable with `svc-mcp mcp enable`)\n" +
        "/mcp         no sign-in; only pages marked `public: true`\n" +
        "/authed/mcp  bearer token required; a person reads ungrouped pages, `public: true` pages and their groups' pages; a client credential reads every page\n",
    );
    expect(await cli(["mcp", "auth", "secret"])).toEqual({ code: 2, stdout: "", stderr: 'svc-mcp: mcp auth: the mode must be public, partial or full; got "secret"\n' });
    expect(await cli(["mcp", "enable", "now"])).toEqual({ code: 2, stdout: "", stderr: 'svc-mcp: mcp enable takes no argument; got "now"\n' });
  });
});

describe("svc-mcp connect", () => {
  it("prints the four contextual-menu options for the server URL", async () => {
    const r = await cli(["connect", "--url", "https://docs.nimbus.example/mcp"]);
    const cursorConfig = Buffer.from(JSON.stringify({ url: "https://docs.nimbus.example/mcp" })).toString("base64");
    const vscode = encodeURIComponent(JSON.stringify({ name: "nimbus-storage", type: "http", url: "https://docs.nimbus.example/mcp" }));
    expect(r).toEqual({
      code: 0,
      stdout:
        "mcp               https://docs.nimbus.example/mcp\n" +
        "add-mcp           npx add-mcp https://docs.nimbus.example/mcp --name nimbus-storage\n" +
        `install-editor-1  cursor://anysphere.cursor-deeplink/mcp/install?name=nimbus-storage&config=${encodeURIComponent(cursorConfig)}\n` +
        `install-editor-2  vscode:mcp/install?${vscode}\n`,
      stderr: "Connect an AI tool to the Nimbus Storage docs (install-editor-1: Cursor, install-editor-2: VS Code):\n",
    });
    const json = JSON.parse((await cli(["connect", "--json"])).stdout) as Record<string, string>;
    expect(Object.keys(json)).toEqual(["mcp", "add-mcp", "install-editor-1", "install-editor-2"]);
    expect(json.mcp).toBe("http://127.0.0.1:3333/mcp");
    await cli(["mcp", "auth", "partial"]);
    expect((JSON.parse((await cli(["connect", "--json"])).stdout) as Record<string, string>).mcp).toBe("http://127.0.0.1:3333/authed/mcp");
  });
});

describe("svc-mcp install", () => {
  let project: ReturnType<typeof tempDir>;
  beforeEach(() => {
    project = tempDir("svc-mcp-project-");
  });
  afterEach(() => project.cleanup());
  const install = (argv: string[]) => runCli([...argv, "--dir", DEMO], { cwd: project.dir, env });
  const read = (path: string) => JSON.parse(readFileSync(join(project.dir, path), "utf8")) as unknown;

  it("adds the server to Cursor's config as a command it starts (stdio), keeping the servers already there", async () => {
    mkdirSync(join(project.dir, ".cursor"));
    writeFileSync(join(project.dir, ".cursor", "mcp.json"), JSON.stringify({ mcpServers: { other: { command: "other-mcp" } }, extra: true }));
    expect(await install(["install", "--editor", "cursor"])).toEqual({
      code: 0,
      stdout: `Added MCP server "nimbus-storage" (stdio: ${process.execPath} ${BIN} serve --dir ${DEMO}) in ${join(project.dir, ".cursor", "mcp.json")} for Cursor.\n`,
      stderr: `Cursor starts the server itself when it needs the docs, with this installation (${process.execPath} ${BIN}); run install again after moving it or removing that Node.\n`,
    });
    expect(read(".cursor/mcp.json")).toEqual({
      mcpServers: { other: { command: "other-mcp" }, "nimbus-storage": { command: process.execPath, args: [BIN, "serve", "--dir", DEMO] } },
      extra: true,
    });
    expect((await install(["install", "--editor", "cursor"])).stdout).toContain("Already up to date:");
  });

  it("--http (or --url) writes the HTTP form, and says the server must be running", async () => {
    expect(await install(["install", "--editor", "cursor", "--url", "https://docs.nimbus.example/mcp"])).toEqual({
      code: 0,
      stdout: `Added MCP server "nimbus-storage" (https://docs.nimbus.example/mcp) in ${join(project.dir, ".cursor", "mcp.json")} for Cursor.\n`,
      stderr: `Cursor reaches https://docs.nimbus.example/mcp only while \`svc-mcp serve --http\` is running there (for these docs: svc-mcp serve --http --dir ${DEMO}).\n`,
    });
    expect(read(".cursor/mcp.json")).toEqual({ mcpServers: { "nimbus-storage": { url: "https://docs.nimbus.example/mcp" } } });
    expect((await install(["install", "--editor", "cursor", "--url", "https://docs.nimbus.example/mcp"])).stdout).toContain("Already up to date:");
    expect((await install(["install", "--editor", "cursor", "--url", "https://docs.nimbus.example/authed/mcp"])).stdout).toContain("Updated MCP server");
    // Back to the stdio form: the entry is replaced, not merged.
    expect((await install(["install", "--editor", "cursor"])).stdout).toContain("Updated MCP server");
    expect(read(".cursor/mcp.json")).toEqual({ mcpServers: { "nimbus-storage": { command: process.execPath, args: [BIN, "serve", "--dir", DEMO] } } });
  });

  it("writes VS Code's servers and Claude Code's .mcp.json in their own shapes", async () => {
    await install(["install", "--editor", "vscode"]);
    expect(read(".vscode/mcp.json")).toEqual({ servers: { "nimbus-storage": { type: "stdio", command: process.execPath, args: [BIN, "serve", "--dir", DEMO] } } });
    await install(["install", "--editor", "vscode", "--http"]);
    expect(read(".vscode/mcp.json")).toEqual({ servers: { "nimbus-storage": { type: "http", url: "http://127.0.0.1:3333/mcp" } } });
    await install(["install", "--editor", "claude-code", "--name", "docs"]);
    expect(read(".mcp.json")).toEqual({ mcpServers: { docs: { type: "stdio", command: process.execPath, args: [BIN, "serve", "--dir", DEMO] } } });
    await install(["install", "--editor", "claude-code", "--name", "docs", "--http"]);
    expect(read(".mcp.json")).toEqual({ mcpServers: { docs: { type: "http", url: "http://127.0.0.1:3333/mcp" } } });
  });

  it("writes the user-wide config with --global", async () => {
    writeFileSync(join(home.dir, ".claude.json"), JSON.stringify({ numStartups: 3, mcpServers: {} }));
    await install(["install", "--editor", "claude-code", "--global", "--http"]);
    expect(JSON.parse(readFileSync(join(home.dir, ".claude.json"), "utf8"))).toEqual({
      numStartups: 3,
      mcpServers: { "nimbus-storage": { type: "http", url: "http://127.0.0.1:3333/mcp" } },
    });
  });

  it("leaves a file it cannot parse unchanged and says what to add", async () => {
    mkdirSync(join(project.dir, ".vscode"));
    const original = '{\n  // my servers\n  "servers": {}\n';
    writeFileSync(join(project.dir, ".vscode", "mcp.json"), original);
    const r = await install(["install", "--editor", "vscode", "--http"]);
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `svc-mcp: ${join(project.dir, ".vscode", "mcp.json")} is not JSON (with comments): CloseBraceExpected at line 4, column 1; it was left unchanged. ` +
        'Add this under "servers" by hand:\n{\n  "nimbus-storage": {\n    "type": "http",\n    "url": "http://127.0.0.1:3333/mcp"\n  }\n}\n',
    });
    expect(readFileSync(join(project.dir, ".vscode", "mcp.json"), "utf8")).toBe(original);
  });

  it("refuses an editor it does not know", async () => {
    const r = await install(["install", "--editor", "emacs"]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: 'svc-mcp: --editor must be one of cursor, vscode, claude-code; got "emacs"\nRun with --help for usage.\n' });
  });
});

describe("svc-mcp serve --http (a real process)", () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
    child = undefined;
  });

  /** Start the server on port 0; resolves with the URLs it printed. */
  async function serve(args: string[] = []) {
    child = spawn(process.execPath, [BIN, "serve", "--http", "--port", "0", "--dir", DEMO, "--no-watch", ...args], { env: { ...process.env, ...env } });
    const lines: string[] = [];
    const rl = createInterface({ input: child.stderr });
    const ready = new Promise<string>((resolve, reject) => {
      let url: string | undefined;
      rl.on("line", (l) => {
        lines.push(l);
        const m = /^svc-mcp: MCP \(public\): +(\S+)$/.exec(l);
        if (m !== null) url = m[1];
        // The last start-up line: the server is ready once it is printed.
        if (url !== undefined && l.includes("site auth")) resolve(url);
      });
      child?.once("exit", (code) => reject(new Error(`exited ${code}: ${lines.join("\n")}`)));
    });
    const mcpUrl = await ready;
    return { mcpUrl, origin: mcpUrl.replace(/\/mcp$/, ""), lines };
  }

  it("prints its URLs on stderr, serves MCP, and stops on SIGTERM with exit 0", async () => {
    const { mcpUrl, origin, lines } = await serve();
    expect(lines).toEqual([
      expect.stringMatching(/^svc-mcp: serving "Nimbus Storage" \(9 pages\) over HTTP on http:\/\/127\.0\.0\.1:\d+; tools search_nimbus_storage, query_docs_filesystem_nimbus_storage, submit_feedback$/),
      `svc-mcp: MCP (public):        ${origin}/mcp`,
      `svc-mcp: MCP (authenticated): ${origin}/authed/mcp`,
      `svc-mcp: OAuth token:         ${origin}/authed/mcp/oauth/token`,
      `svc-mcp: Feedback API:        ${origin}/v1/analytics/nimbus-storage/feedback`,
      `svc-mcp: Feedback dashboard:  ${origin}/_svc/dashboard`,
      `svc-mcp: site auth public; MCP server enabled; project "nimbus-storage" (from the site name; set --project-id to change it); state in ${stateDir}`,
    ]);
    const c = await mcpClient(mcpUrl);
    expect(await c.text(FS, { command: "ls /api" })).toBe("authentication.mdx\noverview.mdx\n");
    await c.close();
    const exited = new Promise<number | null>((resolve) => child?.once("exit", resolve));
    child?.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("stops on SIGTERM at once with a notification stream open: the stream ends, nothing waits for it", async () => {
    const { mcpUrl, lines } = await serve();
    const opened = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(INIT),
    });
    const session = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    const stream = await fetch(mcpUrl, { headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": PROTOCOL } });
    expect([stream.status, stream.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const ended = stream.text();
    const exited = new Promise<number | null>((resolve) => child?.once("exit", resolve));
    child?.kill("SIGTERM");
    await ended;
    expect(await exited).toBe(0);
    // Not counted as a request to finish (which would wait out the drain time before closing it).
    expect(lines.filter((l) => l.includes("stopping"))).toEqual([]);
  });

  it("serves the feedback API, submit_feedback and the playground relay on the same socket", async () => {
    const { mcpUrl, origin } = await serve();
    const rating = await postJson(`${origin}/v1/feedback/nimbus-storage/rating`, { path: "/quickstart", helpful: false });
    expect(rating.status).toBe(201);
    const c = await mcpClient(mcpUrl);
    expect(await c.text("submit_feedback", { path: "/guides/webhooks", feedback: "The retry schedule is missing the maximum delay." })).toMatch(/^Thank you: feedback on \/guides\/webhooks recorded as fb_\w+ for the docs maintainers\.$/);
    await c.close();
    const { key } = JSON.parse((await cli(["keys", "create", "--json"])).stdout) as { key: string };
    const page = await fetch(`${origin}/v1/analytics/nimbus-storage/feedback?limit=10`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await page.json()) as { feedback: { path: string; source: string; comment: string }[]; hasMore: boolean; nextCursor: null };
    expect(body.feedback.map((e) => [e.source, e.path, e.comment])).toEqual([
      ["agent", "/guides/webhooks", "The retry schedule is missing the maximum delay."],
      ["thumbs_only", "/quickstart", "not helpful"],
    ]);
    expect([body.hasMore, body.nextCursor]).toEqual([false, null]);
    const relay = await postJson(`${origin}/_svc/api/request`, { page: "/quickstart", method: "GET", url: "https://api.nimbus.example/v1/buckets" });
    expect([relay.status, relay.body]).toEqual([404, { error: { code: "unknown_page", message: "/quickstart is not an API page of this site" } }]);
  });

  it("sees credentials, users and settings changed by CLI commands while it runs", async () => {
    const { mcpUrl, origin } = await serve();
    const created = await cli(["credentials", "create", "--label", "live", "--json"]);
    const { clientId, clientSecret } = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    const token = await postForm(`${origin}/authed/mcp/oauth/token`, { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret });
    expect(token.status).toBe(200);
    const bearer = { Authorization: `Bearer ${(token.body as { access_token: string }).access_token}` };
    expect((await postJson(`${origin}/authed/mcp`, INIT, bearer)).status).toBe(200);
    await cli(["credentials", "delete", clientId]);
    expect((await postJson(`${origin}/authed/mcp`, INIT, bearer)).status).toBe(401);
    await cli(["mcp", "disable"]);
    expect((await postJson(mcpUrl, INIT)).status).toBe(403);
    await cli(["mcp", "enable"]);
    const r = await postJson(mcpUrl, INIT);
    expect(r.status).toBe(200);
    expect((r.body as { result: { protocolVersion: string } }).result.protocolVersion).toBe(PROTOCOL);
  });

  it("fails clearly when the port is taken, and on bad flags", async () => {
    const { origin } = await serve();
    const port = new URL(origin).port;
    const run = promisify(execFile);
    const failure = (argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
      run(process.execPath, [BIN, ...argv], { env: { ...process.env, ...env } }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    // Said at once, before the docs are read (no loading lines): found by the listen, it came
    // after the whole site had been loaded and indexed. One line, the option named, exit 2 as
    // for the other options; the same with --workers (looked at by the primary) and for preview.
    const busy = `svc-mcp: --port ${port}: already in use on 127.0.0.1; stop what listens there or choose another port (--port 0 picks a free one)\n`;
    expect(await failure(["serve", "--http", "--port", port, "--dir", DEMO, "--no-watch"])).toEqual({ code: 2, stdout: "", stderr: busy });
    expect(await failure(["serve", "--http", "--workers", "2", "--port", port, "--dir", DEMO, "--no-watch"])).toEqual({ code: 2, stdout: "", stderr: busy });
    expect(await failure(["preview", "--no-open", "--port", port, "--dir", DEMO])).toEqual({ code: 2, stdout: "", stderr: busy });
    const bad = await runCli(["serve", "--http", "--rate-limit", "search=lots", "--dir", DEMO, "--no-watch"], { env });
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('svc-mcp: --rate-limit "search=lots": expected KEY=N or KEY=off') });
    const groups = await runCli(["serve", "--http", "--groups", "staff", "--dir", DEMO], { env });
    expect(groups).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --groups previews pages over stdio; over --http each reader's groups come from their token\n" });
  });
});
