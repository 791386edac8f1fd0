import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";
import { TestClient } from "../helpers/test-client.js";

/**
 * What loading the docs found wrong: `check` prints every finding; `fs`, `search` and `serve`
 * print one line with the count and the command that lists them.
 */

/** A docs.json warning (two root elements), a page whose front matter does not parse, and a page. */
const FILES = {
  "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "G", pages: ["index"] }], pages: ["index"] } }),
  "index.mdx": "---\ntitle: Home\n---\n\nWelcome to Acme.\n",
  "broken.mdx": '---\ntitle: "Broken\n---\n\nText.\n',
};
let repo: ReturnType<typeof makeRepo>;
beforeAll(() => {
  repo = makeRepo(FILES);
});
afterAll(() => repo.cleanup());

describe("findings at load", () => {
  it("check lists each of them", async () => {
    expect(await runCli(["check", "--dir", repo.dir])).toEqual({
      code: 0,
      stdout:
        'docs.json:1:29 navigation: warning: has several root navigation elements: "groups" is used, "pages" is ignored\n' +
        "broken.mdx:3 warning: skipped: invalid front matter: unexpected end of the stream within a double quoted scalar\n" +
        "checked docs.json and 1 page: 0 errors, 2 warnings\n",
      stderr: "",
    });
  });

  it("fs and search say how many, where, and which command lists them, in one line", async () => {
    const line = `svc-mcp: 2 warnings in docs.json and 1 other file; run \`svc-mcp check --dir ${repo.dir}\` for details\n`;
    expect(await runCli(["fs", "--dir", repo.dir, "ls /"])).toEqual({ code: 0, stdout: "index.mdx\nskill.md\n", stderr: line });
    const search = await runCli(["search", "welcome", "--dir", repo.dir, "--json"]);
    expect([search.code, search.stderr]).toEqual([0, line]);
  });

  it("name the folder as the user wrote it, quoted for the shell when it must be, or not at all from inside it", async () => {
    const spaced = makeRepo({ "my docs/docs.json": FILES["docs.json"], "my docs/index.mdx": FILES["index.mdx"] });
    try {
      expect((await runCli(["fs", "--dir", "my docs", "ls /"], { cwd: spaced.dir })).stderr).toBe(
        "svc-mcp: 1 warning in docs.json; run `svc-mcp check --dir 'my docs'` for details\n",
      );
      expect((await runCli(["fs", "ls /"], { cwd: join(spaced.dir, "my docs") })).stderr).toBe("svc-mcp: 1 warning in docs.json; run `svc-mcp check` for details\n");
    } finally {
      spaced.cleanup();
    }
  });

  it("a site without findings prints nothing", async () => {
    expect(await runCli(["fs", "--dir", fixture("demo"), "ls /api"])).toEqual({ code: 0, stdout: "authentication.mdx\noverview.mdx\n", stderr: "" });
  });

  it("serve (stdio) prints the count among its start-up lines", async () => {
    const stateHome = makeRepo({});
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO, "bin", "svc-mcp.js"), "serve", "--dir", repo.dir, "--no-watch"],
      env: { ...(process.env as Record<string, string>), XDG_STATE_HOME: stateHome.dir },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new TestClient({ name: "summary-test", version: "1" });
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["search_acme", "query_docs_filesystem_acme", "submit_feedback"]);
    } finally {
      await client.close();
      stateHome.cleanup();
    }
    expect(stderr).toBe(
      `svc-mcp: 2 warnings in docs.json and 1 other file; run \`svc-mcp check --dir ${repo.dir}\` for details\n` +
        `svc-mcp: project "acme" (from the site name; set --project-id to change it); state in ${stateHome.dir}/svc-mcp/acme\n` +
        'svc-mcp: serving "Acme" (1 page) over stdio; tools search_acme, query_docs_filesystem_acme, submit_feedback\n',
    );
  });
});
