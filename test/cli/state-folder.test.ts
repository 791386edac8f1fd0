import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Adversary round 11, F5: with `XDG_STATE_HOME` inside the docs repository (as `XDG_CACHE_HOME=$PWD/.cache`
 * is usual in CI), or leading there through a link, every state command created the default state
 * folder in the working tree: `access.db` with password hashes and tokens, one `git add -A` away
 * from being pushed with the docs. The default folder is now refused there, as the cache folder
 * is; a folder the user names (`--state`, `SVC_STATE_URL`) is used, with a warning.
 */
const DOCS = {
  "docs.json": JSON.stringify({ name: "Acme", theme: "mint", colors: { primary: "#000000" }, navigation: { pages: ["index"] } }),
  "index.mdx": "---\ntitle: Home\n---\nWelcome.\n",
};
const ADVICE = "choose a folder outside it with --state DIR (or SVC_STATE_URL), or set XDG_STATE_HOME to one";

let docs: ReturnType<typeof makeRepo>;
let home: ReturnType<typeof makeRepo>;
beforeEach(() => {
  docs = makeRepo(DOCS);
  home = makeRepo({});
});
afterEach(() => {
  docs.cleanup();
  home.cleanup();
});

/** Everything in the docs folder but the site's own files. */
const added = () => readdirSync(docs.dir, { recursive: true, encoding: "utf8" }).filter((p) => !(p in DOCS));
const refused = (folder: string) => ({
  code: 2,
  stdout: "",
  stderr: `svc-mcp: the default state folder ${folder} is inside the docs folder ${docs.dir}, where its files (password hashes, tokens) could be committed with the docs; ${ADVICE}\n`,
});

describe("the default state folder is never inside the docs folder", () => {
  it("XDG_STATE_HOME inside it: every state command refuses (exit 2), nothing is written there", async () => {
    const env = { HOME: home.dir, XDG_STATE_HOME: join(docs.dir, ".state") };
    const folder = join(docs.dir, ".state", "svc-mcp", "acme");
    expect(await runCli(["users", "add", "alice", "--groups", "staff", "--password-stdin", "--dir", docs.dir], { env, stdin: "Sup3r-secret-pass!x\n" })).toEqual(refused(folder));
    // In the docs folder without --dir, and with --project-id (which reads no docs.json).
    expect(await runCli(["users", "list"], { cwd: docs.dir, env })).toEqual(refused(folder));
    expect(await runCli(["keys", "list", "--project-id", "acme"], { cwd: docs.dir, env })).toEqual(refused(folder));
    expect(await runCli(["install", "--editor", "cursor", "--http", "--dir", docs.dir], { cwd: home.dir, env })).toEqual(refused(folder));
    expect(await runCli(["serve", "--no-watch", "--no-fetch-remote", "--dir", docs.dir], { env })).toMatchObject({ code: 2, stdout: "", stderr: expect.stringContaining(refused(folder).stderr) as string });
    expect(added()).toEqual([]);
  });

  it("XDG_STATE_HOME a link that leads into it: refused, naming where the link leads", async () => {
    mkdirSync(join(docs.dir, "guides"));
    symlinkSync(join(docs.dir, "guides"), join(home.dir, "state"));
    const env = { HOME: home.dir, XDG_STATE_HOME: join(home.dir, "state") };
    expect(await runCli(["users", "list", "--dir", docs.dir], { env })).toEqual(
      refused(`${join(home.dir, "state", "svc-mcp", "acme")} (through a link: ${join(realpathSync(docs.dir), "guides", "svc-mcp", "acme")})`),
    );
    expect(added()).toEqual(["guides"]);
  });

  it("HOME inside it (no XDG_STATE_HOME): ~/.local/state is refused there too", async () => {
    expect(await runCli(["users", "list", "--dir", docs.dir], { env: { HOME: docs.dir } })).toEqual(refused(join(docs.dir, ".local", "state", "svc-mcp", "acme")));
    expect(added()).toEqual([]);
  });

  it("a state command with --project-id outside any docs folder (in the home folder) keeps the default", async () => {
    expect(await runCli(["users", "list", "--project-id", "acme"], { cwd: home.dir, env: { HOME: home.dir } })).toEqual({
      code: 0,
      stdout: "",
      stderr: "No users. Add one with `svc-mcp users add NAME --groups a,b`.\n",
    });
  });

  it("a folder the user names inside it is used, with a warning (--state and SVC_STATE_URL)", async () => {
    mkdirSync(join(docs.dir, "state"));
    const warning = (source: string) =>
      `svc-mcp: warning: the state folder ${join(docs.dir, "state")} (${source}) is inside the docs folder ${docs.dir}: keep it out of version control, its files hold password hashes and tokens\n`;
    expect(await runCli(["users", "add", "alice", "--groups", "staff", "--password-stdin", "--dir", docs.dir, "--state", "state"], { cwd: docs.dir, env: { HOME: home.dir }, stdin: "Sup3r-secret-pass!x\n" })).toEqual({
      code: 0,
      stdout: "Added user alice (groups: staff).\n",
      stderr: warning("--state"),
    });
    expect(await runCli(["users", "list"], { cwd: docs.dir, env: { HOME: home.dir, SVC_STATE_URL: join(docs.dir, "state") } })).toMatchObject({ code: 0, stderr: warning("SVC_STATE_URL") });
    expect(existsSync(join(docs.dir, "state", "access.db"))).toBe(true);
  });
});
