import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";
import { TestClient } from "../helpers/test-client.js";

/**
 * `svc-mcp install` and `connect --stdio` write a command that runs this installation (never a
 * package name the registry may not have), edit JSON-with-comments configs keeping the comments,
 * and the command they write starts a server an MCP client can use.
 */

const BIN = join(REPO, "bin", "svc-mcp.js");
const DEMO = fixture("demo");
const NODE_FORM = { command: process.execPath, args: [BIN, "serve", "--dir", DEMO] };

let project: ReturnType<typeof makeRepo>;
let home: ReturnType<typeof makeRepo>;
beforeEach(() => {
  project = makeRepo({});
  home = makeRepo({});
});
afterEach(() => {
  project.cleanup();
  home.cleanup();
});

const install = (argv: string[], env: Record<string, string> = {}) => runCli(["install", ...argv, "--dir", DEMO], { cwd: project.dir, env: { HOME: home.dir, XDG_STATE_HOME: join(home.dir, "state"), ...env } });
const read = (path: string) => readFileSync(join(project.dir, path), "utf8");

describe("the command an editor config gets", () => {
  it("by default: this installation's entry point under the Node that runs it (no svc-mcp on PATH)", async () => {
    expect(await install(["--editor", "claude-code"])).toEqual({
      code: 0,
      stdout: `Added MCP server "nimbus-storage" (stdio: ${process.execPath} ${BIN} serve --dir ${DEMO}) in ${join(project.dir, ".mcp.json")} for Claude Code.\n`,
      stderr: `Claude Code starts the server itself when it needs the docs, with this installation (${process.execPath} ${BIN}); run install again after moving it or removing that Node.\n`,
    });
    expect(JSON.parse(read(".mcp.json"))).toEqual({ mcpServers: { "nimbus-storage": { type: "stdio", ...NODE_FORM } } });
  });

  it("`svc-mcp` when the first svc-mcp on PATH is this installation (as npm install -g or npm link puts it there)", async () => {
    const bin = join(home.dir, "bin");
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, "svc-mcp"));
    expect(await install(["--editor", "cursor"], { PATH: `${join(home.dir, "empty")}:${bin}:/usr/bin` })).toEqual({
      code: 0,
      stdout: `Added MCP server "nimbus-storage" (stdio: svc-mcp serve --dir ${DEMO}) in ${join(project.dir, ".cursor", "mcp.json")} for Cursor.\n`,
      stderr: `Cursor starts the server itself when it needs the docs, with the svc-mcp on its PATH (this installation, ${BIN}).\n`,
    });
    expect(JSON.parse(read(".cursor/mcp.json"))).toEqual({ mcpServers: { "nimbus-storage": { command: "svc-mcp", args: ["serve", "--dir", DEMO] } } });
  });

  it("the Node form when the first svc-mcp on PATH is another program", async () => {
    const other = join(home.dir, "other");
    const ours = join(home.dir, "ours");
    mkdirSync(other);
    mkdirSync(ours);
    writeFileSync(join(other, "svc-mcp"), "#!/bin/sh\necho another svc-mcp\n");
    chmodSync(join(other, "svc-mcp"), 0o755);
    symlinkSync(BIN, join(ours, "svc-mcp"));
    await install(["--editor", "cursor"], { PATH: `${other}:${ours}` });
    expect(JSON.parse(read(".cursor/mcp.json"))).toEqual({ mcpServers: { "nimbus-storage": NODE_FORM } });
  });

  it("--npx: the published package pinned to this version, saying it must be published", async () => {
    expect(await install(["--editor", "vscode", "--npx"])).toEqual({
      code: 0,
      stdout: `Added MCP server "nimbus-storage" (stdio: npx -y svc-mcp@0.1.0 serve --dir ${DEMO}) in ${join(project.dir, ".vscode", "mcp.json")} for VS Code.\n`,
      stderr: "VS Code starts the server itself when it needs the docs, with npx, which runs svc-mcp 0.1.0 from npm's cache or downloads that version from the npm registry (it must be published there).\n",
    });
    expect(JSON.parse(read(".vscode/mcp.json"))).toEqual({ servers: { "nimbus-storage": { type: "stdio", command: "npx", args: ["-y", "svc-mcp@0.1.0", "serve", "--dir", DEMO] } } });
    expect(await install(["--editor", "vscode", "--npx", "--http"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --npx says which command the editor starts; with --http or --url the editor starts nothing, it connects to the URL\n",
    });
  });

  it("starts a server an MCP client (the official SDK) can list the tools of", async () => {
    await install(["--editor", "cursor"]);
    const { command, args } = (JSON.parse(read(".cursor/mcp.json")) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers["nimbus-storage"]!;
    const client = new TestClient({ name: "install-test", version: "1" });
    await client.connect(new StdioClientTransport({ command, args: [...args, "--no-watch"], env: { HOME: home.dir, XDG_STATE_HOME: join(home.dir, "state"), PATH: process.env.PATH ?? "" }, stderr: "ignore" }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["search_nimbus_storage", "query_docs_filesystem_nimbus_storage", "submit_feedback"]);
    } finally {
      await client.close();
    }
  });
});

describe("a VS Code mcp.json with comments (JSONC) is edited, keeping its comments and layout", () => {
  it("adds the entry first, every other line as it was; updates it in place", async () => {
    mkdirSync(join(project.dir, ".vscode"));
    const original = [
      "{",
      "\t// Servers for this repository.",
      '\t"servers": {',
      '\t\t"other": { "type": "http", "url": "https://example.com/mcp" }, // keep me',
      "\t},",
      "\t/* inputs come later */",
      '\t"inputs": [],',
      "}",
      "",
    ].join("\n");
    writeFileSync(join(project.dir, ".vscode", "mcp.json"), original);
    expect((await install(["--editor", "vscode", "--http"])).code).toBe(0);
    expect(read(".vscode/mcp.json")).toBe(
      [
        "{",
        "\t// Servers for this repository.",
        '\t"servers": {',
        '\t\t"nimbus-storage": {',
        '\t\t\t"type": "http",',
        '\t\t\t"url": "http://127.0.0.1:3333/mcp"',
        "\t\t},",
        '\t\t"other": { "type": "http", "url": "https://example.com/mcp" }, // keep me',
        "\t},",
        "\t/* inputs come later */",
        '\t"inputs": [],',
        "}",
        "",
      ].join("\n"),
    );
    expect((await install(["--editor", "vscode", "--url", "http://127.0.0.1:4444/mcp"])).stdout).toContain("Updated MCP server");
    expect(read(".vscode/mcp.json")).toBe(
      [
        "{",
        "\t// Servers for this repository.",
        '\t"servers": {',
        '\t\t"nimbus-storage": {',
        '\t\t\t"type": "http",',
        '\t\t\t"url": "http://127.0.0.1:4444/mcp"',
        "\t\t},",
        '\t\t"other": { "type": "http", "url": "https://example.com/mcp" }, // keep me',
        "\t},",
        "\t/* inputs come later */",
        '\t"inputs": [],',
        "}",
        "",
      ].join("\n"),
    );
  });

  it("adds the servers object when the file has none", async () => {
    mkdirSync(join(project.dir, ".vscode"));
    writeFileSync(join(project.dir, ".vscode", "mcp.json"), '// empty for now\n{\n  "inputs": [] // none\n}\n');
    await install(["--editor", "vscode", "--http"]);
    expect(read(".vscode/mcp.json")).toBe('// empty for now\n{\n  "servers": {\n    "nimbus-storage": {\n      "type": "http",\n      "url": "http://127.0.0.1:3333/mcp"\n    }\n  },\n  "inputs": [] // none\n}\n');
  });
});

/**
 * Adversary round 11, F6: a repository whose `.vscode/mcp.json` was a link to a credentials file
 * outside it had that file read and its whole content written into the repository, as a 0644 file
 * in the link's place. A project's config is read and written only where it really is inside the
 * current folder; a link is never replaced (its target inside is edited); writes keep the mode.
 */
describe("an editor config reached through a link", () => {
  const SECRET = '{"client_secret":"d-FL95Q","refresh_token":"1//0REFRESHTOKENSECRET"}\n';
  const byHand = (key: string, entry: Record<string, unknown>) => `. Add this under "${key}" by hand:\n${JSON.stringify({ "nimbus-storage": entry }, null, 2)}\n`;
  const refusal = (key: string, entry: Record<string, unknown>, message: string) => ({ code: 1, stdout: "", stderr: `svc-mcp: ${message}${byHand(key, entry)}` });
  const ENTRIES = {
    cursor: { file: ".cursor/mcp.json", key: "mcpServers", entry: NODE_FORM },
    vscode: { file: ".vscode/mcp.json", key: "servers", entry: { type: "stdio", ...NODE_FORM } },
    "claude-code": { file: ".mcp.json", key: "mcpServers", entry: { type: "stdio", ...NODE_FORM } },
  } as const;

  it.each(Object.keys(ENTRIES) as (keyof typeof ENTRIES)[])("%s: a config that is a link to a file outside the folder is neither read nor replaced", async (editor) => {
    const { file, key, entry } = ENTRIES[editor];
    const secret = join(home.dir, "credentials.json");
    writeFileSync(secret, SECRET, { mode: 0o600 });
    mkdirSync(join(project.dir, file, ".."), { recursive: true });
    symlinkSync(secret, join(project.dir, file));
    expect(await install(["--editor", editor])).toEqual(
      refusal(key, entry, `${join(project.dir, file)} is a link to ${realpathSync(secret)}, outside ${project.dir}: svc-mcp neither reads nor writes a project's editor config outside the project; it was left unchanged`),
    );
    expect(readlinkSync(join(project.dir, file))).toBe(secret);
    expect(readFileSync(secret, "utf8")).toBe(SECRET);
  });

  it("a linked folder that leads outside, a link that leads nowhere outside: refused, nothing created there", async () => {
    const { key, entry } = ENTRIES.vscode;
    const outside = join(home.dir, "elsewhere");
    mkdirSync(outside);
    symlinkSync(outside, join(project.dir, ".vscode"));
    expect(await install(["--editor", "vscode"])).toEqual(
      refusal(key, entry, `${join(project.dir, ".vscode", "mcp.json")} leads to ${join(realpathSync(outside), "mcp.json")} through a linked folder, outside ${project.dir}: svc-mcp neither reads nor writes a project's editor config outside the project; it was left unchanged`),
    );
    expect(readdirSync(outside)).toEqual([]);
    const nowhere = join(home.dir, "new", "mcp.json");
    symlinkSync(nowhere, join(project.dir, ".mcp.json"));
    expect(await install(["--editor", "claude-code"])).toEqual(
      refusal("mcpServers", ENTRIES["claude-code"].entry, `${join(project.dir, ".mcp.json")} is a link to ${join(realpathSync(home.dir), "new", "mcp.json")}, outside ${project.dir}: svc-mcp neither reads nor writes a project's editor config outside the project; it was left unchanged`),
    );
    expect([existsSync(join(home.dir, "new")), lstatSync(join(project.dir, ".mcp.json")).isSymbolicLink()]).toEqual([false, true]);
  });

  it("a link inside the folder: its target is edited, keeping its mode, and the link stays", async () => {
    mkdirSync(join(project.dir, "shared"));
    const target = join(project.dir, "shared", "mcp.json");
    writeFileSync(target, '{\n  "mcpServers": {}\n}\n', { mode: 0o640 });
    chmodSync(target, 0o640);
    symlinkSync("shared/mcp.json", join(project.dir, ".mcp.json"));
    expect((await install(["--editor", "claude-code"])).stdout).toBe(
      `Added MCP server "nimbus-storage" (stdio: ${process.execPath} ${BIN} serve --dir ${DEMO}) in ${join(project.dir, ".mcp.json")} (a link to ${realpathSync(target)}) for Claude Code.\n`,
    );
    expect(readlinkSync(join(project.dir, ".mcp.json"))).toBe("shared/mcp.json");
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ mcpServers: { "nimbus-storage": ENTRIES["claude-code"].entry } });
    expect(statSync(target).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(project.dir, "shared"))).toEqual(["mcp.json"]);
  });

  it("--global: a user config that is a link (a dotfiles manager's) is edited where it leads, keeping the link and its private mode", async () => {
    mkdirSync(join(home.dir, "dotfiles"));
    const target = join(home.dir, "dotfiles", "claude.json");
    writeFileSync(target, '{\n  "oauthAccount": { "token": "t" }\n}\n', { mode: 0o600 });
    symlinkSync(target, join(home.dir, ".claude.json"));
    expect((await install(["--editor", "claude-code", "--global"])).code).toBe(0);
    expect(readlinkSync(join(home.dir, ".claude.json"))).toBe(target);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ mcpServers: { "nimbus-storage": ENTRIES["claude-code"].entry }, oauthAccount: { token: "t" } });
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it.runIf(process.platform !== "win32")("a config that is no regular file (a pipe) is not read", async () => {
    mkdirSync(join(project.dir, ".cursor"));
    execFileSync("mkfifo", [join(project.dir, ".cursor", "mcp.json")]);
    expect(await install(["--editor", "cursor"])).toEqual(refusal("mcpServers", NODE_FORM, `${join(project.dir, ".cursor", "mcp.json")} is not a regular file; it was left unchanged`));
  });
});

describe("svc-mcp connect --stdio", () => {
  const connect = (argv: string[]) => runCli(["connect", ...argv, "--dir", DEMO], { cwd: project.dir, env: { HOME: home.dir } });

  it("prints the four ways in for a server the tool starts itself: this installation", async () => {
    const line = `${process.execPath} ${BIN} serve --dir ${DEMO}`;
    const cursor = Buffer.from(JSON.stringify({ command: process.execPath, args: [BIN, "serve", "--dir", DEMO] })).toString("base64");
    const vscode = encodeURIComponent(JSON.stringify({ name: "nimbus-storage", type: "stdio", command: process.execPath, args: [BIN, "serve", "--dir", DEMO] }));
    expect(await connect(["--stdio"])).toEqual({
      code: 0,
      stdout:
        `mcp               ${line}\n` +
        `add-mcp           npx add-mcp '${line}' --name nimbus-storage\n` +
        `install-editor-1  cursor://anysphere.cursor-deeplink/mcp/install?name=nimbus-storage&config=${encodeURIComponent(cursor)}\n` +
        `install-editor-2  vscode:mcp/install?${vscode}\n`,
      stderr: "Connect an AI tool to the Nimbus Storage docs, started by the tool itself (install-editor-1: Cursor, install-editor-2: VS Code):\n",
    });
  });

  it("--npx pins the version; --npx without --stdio and --stdio with --url are mistakes", async () => {
    expect(JSON.parse((await connect(["--stdio", "--npx", "--json"])).stdout)).toMatchObject({
      mcp: `npx -y svc-mcp@0.1.0 serve --dir ${DEMO}`,
      "add-mcp": `npx add-mcp 'npx -y svc-mcp@0.1.0 serve --dir ${DEMO}' --name nimbus-storage`,
    });
    expect(await connect(["--npx"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --npx goes with --stdio: it says which command the AI tool starts\n" });
    expect(await connect(["--stdio", "--url", "http://127.0.0.1:3333/mcp"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --stdio and --url do not go together: --url names an HTTP server, --stdio a server the AI tool starts itself\n",
    });
  });
});
