import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveCacheDir } from "../../src/store/cache-dir.js";
import { resolveStateDir } from "../../src/store/state-dir.js";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * XDG Base Directory spec: "If an implementation encounters a relative path in any of these
 * variables it should consider the path invalid and ignore it"; an empty one counts as unset.
 */
describe("XDG_STATE_HOME, XDG_CACHE_HOME and XDG_CONFIG_HOME that are empty or relative are ignored", () => {
  let home: ReturnType<typeof makeRepo>;
  let cwd: ReturnType<typeof makeRepo>;
  beforeEach(() => {
    home = makeRepo({});
    cwd = makeRepo({});
  });
  afterEach(() => {
    home.cleanup();
    cwd.cleanup();
  });

  it("state goes under $HOME/.local/state, never into the current folder", async () => {
    for (const value of ["", "state", "./state"]) {
      const env = { HOME: home.dir, XDG_STATE_HOME: value };
      expect(resolveStateDir("p", { cwd: cwd.dir, env })).toBe(join(home.dir, ".local", "state", "svc-mcp", "p"));
      const r = await runCli(["users", "add", "sam", "--dir", fixture("demo")], { cwd: cwd.dir, env });
      expect([value, r.code]).toEqual([value, 0]);
      expect(readdirSync(cwd.dir)).toEqual([]);
      expect(existsSync(join(home.dir, ".local", "state", "svc-mcp", "nimbus-storage", "access.db"))).toBe(true);
      await runCli(["users", "remove", "sam", "--dir", fixture("demo")], { cwd: cwd.dir, env });
    }
    // An absolute one is used as it is.
    expect(resolveStateDir("p", { cwd: cwd.dir, env: { HOME: home.dir, XDG_STATE_HOME: "/srv/state" } })).toBe("/srv/state/svc-mcp/p");
  });

  it("the spec cache goes under $HOME/.cache", () => {
    for (const value of ["", "cache"]) expect(resolveCacheDir({ HOME: home.dir, XDG_CACHE_HOME: value })).toBe(join(home.dir, ".cache", "svc-mcp"));
    expect(resolveCacheDir({ HOME: home.dir, XDG_CACHE_HOME: "/srv/cache" })).toBe("/srv/cache/svc-mcp");
  });

  it.runIf(process.platform === "linux")("VS Code's user config is found under $HOME/.config", async () => {
    for (const value of ["", "config"]) {
      const r = await runCli(["install", "--editor", "vscode", "--global", "--dir", fixture("demo")], { cwd: cwd.dir, env: { HOME: home.dir, XDG_CONFIG_HOME: value } });
      expect(r.stdout).toBe(`Added MCP server "nimbus-storage" (stdio: ${process.execPath} ${join(REPO, "bin", "svc-mcp.js")} serve --dir ${fixture("demo")}) in ${join(home.dir, ".config", "Code", "User", "mcp.json")} for VS Code.\n`);
      expect(readdirSync(cwd.dir)).toEqual([]);
      rmSync(join(home.dir, ".config"), { recursive: true });
    }
  });
});
