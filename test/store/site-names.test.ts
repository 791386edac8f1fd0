import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { toolNames } from "../../src/engine/tool-names.js";
import { knownSiteName, rememberSiteName } from "../../src/store/site-names.js";
import { legacyProjectIdFromName, projectIdFromName } from "../../src/store/state-dir.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../config/temp-repo.js";

describe("a project ID and tools from any site name (adversary round 38, F3)", () => {
  it("names without an ASCII form are spelled in ASCII and kept apart by a hash; ASCII names are as before", () => {
    const names = ["Nimbus Storage", "Café Docs", "Spree Commerce documentation", "Документация", "文档中心", "文檔中心", "التوثيق", "Straße Docs", "Документация v2"];
    expect(names.map((n) => [n, projectIdFromName(n), legacyProjectIdFromName(n), toolNames(n).search])).toEqual([
      ["Nimbus Storage", "nimbus-storage", "nimbus-storage", "search_nimbus_storage"],
      ["Café Docs", "cafe-docs", "cafe-docs", "search_cafe"],
      ["Spree Commerce documentation", "spree-commerce-documentation", "spree-commerce-documentation", "search_spree_commerce"],
      ["Документация", "dokumentatsiya-b123be6f", "docs", "search_dokumentatsiya"],
      ["文档中心", "wendangzhongxin-677bbe02", "docs", "search_wen_dang_zhong_xin"],
      ["文檔中心", "wendangzhongxin-e529d1fb", "docs", "search_wen_dang_zhong_xin"],
      ["التوثيق", "ltwthyq-e3b066ec", "docs", "search_ltwthyq"],
      ["Straße Docs", "strasse-docs-a95b0365", "stra-e-docs", "search_strasse"],
      ["Документация v2", "dokumentatsiya-v2-755ee2e5", "v2", "search_dokumentatsiya_v2"],
    ]);
  });

  it("two sites of non-Latin names keep their own state; a state left under the shared ID is pointed to", async () => {
    const home = mkdtempSync(join(tmpdir(), "svc-names-home-"));
    const env = { XDG_STATE_HOME: home, SVC_MCP_CACHE: "off" };
    const ru = tempRepo({ "docs.json": { name: "Документация", navigation: { pages: ["index"] } }, "index.mdx": "# Главная\n" });
    const zh = tempRepo({ "docs.json": { name: "文档中心", navigation: { pages: ["index"] } }, "index.mdx": "# 首页\n" });
    expect((await runCli(["mcp", "auth", "full"], { cwd: ru, env })).code).toBe(0);
    const status = await runCli(["mcp", "status"], { cwd: zh, env });
    expect(status.stdout.split("\n")[0]).toBe("site auth    public");
    expect(readdirSync(join(home, "svc-mcp")).sort()).toEqual([".site-names", "dokumentatsiya-b123be6f", "wendangzhongxin-677bbe02"]);
    // Where such a site's state was kept before: pointed to, never moved.
    const ar = tempRepo({ "docs.json": { name: "التوثيق", navigation: { pages: ["index"] } }, "index.mdx": "# بيت\n" });
    mkdirSync(join(home, "svc-mcp", "docs"), { mode: 0o700 });
    const first = await runCli(["mcp", "status"], { cwd: ar, env });
    expect(first.stderr).toBe(
      `svc-mcp: warning: this site's state is now kept in ${join(home, "svc-mcp", "ltwthyq-e3b066ec")}; before, every site whose name has no ASCII spelling kept it in ${join(home, "svc-mcp", "docs")}: if that is this site's, move it there\n`,
    );
    expect((await runCli(["mcp", "status"], { cwd: ar, env })).stderr).toBe("");
  });
});

describe("a docs.json that names no site keeps the name it was served under (adversary round 38, F1)", () => {
  it("on a reload: the tools and the project keep their name, said once", async () => {
    const root = tempRepo({ "docs.json": { name: "Owl Docs", navigation: { pages: ["index"] } }, "index.mdx": "# Home\n" });
    const first = await loadSite(root);
    for (const edit of [{ name: "" }, { name: 42 }, {}]) {
      writeFileSync(join(root, "docs.json"), JSON.stringify({ ...edit, navigation: { pages: ["index"] } }));
      const next = await reloadSite(first, ["docs.json"]);
      expect(next.site.config.name).toBe("Owl Docs");
      expect(next.site.diagnostics.map(formatDiagnostic).filter((d) => d.includes("names no site"))).toEqual([
        'docs.json warning: docs.json names no site; still serving it as "Owl Docs" (its tools and state stay as they are) until it names one',
      ]);
    }
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Owl Guide", navigation: { pages: ["index"] } }));
    expect((await reloadSite(first, ["docs.json"])).site.config.name).toBe("Owl Guide");
  });

  it("at a start: the name the folder was last served under, so its state (sign-in) stays", async () => {
    const home = mkdtempSync(join(tmpdir(), "svc-names-home-"));
    const env = { XDG_STATE_HOME: home, SVC_MCP_CACHE: "off" };
    const root = tempRepo({ "docs.json": { name: "Owl Docs", navigation: { pages: ["index"] } }, "index.mdx": "# Home\n" });
    expect((await runCli(["mcp", "auth", "full"], { cwd: root, env })).code).toBe(0);
    expect(knownSiteName(env, root)).toBe("Owl Docs");
    const kept = readdirSync(join(home, "svc-mcp", ".site-names"));
    expect(kept.length).toBe(1);
    expect(statSync(join(home, "svc-mcp", ".site-names", kept[0] as string)).mode & 0o777).toBe(0o600);
    for (const written of ['{"name": "", "navigation": {"pages": ["index"]}}', '{"navigation": {"pages": ["index"]}}']) {
      writeFileSync(join(root, "docs.json"), written);
      const status = await runCli(["mcp", "status"], { cwd: root, env });
      expect(status.stdout.split("\n")[0]).toBe("site auth    full");
      const loaded = await loadSite(root, () => {}, undefined, { knownName: "Owl Docs" });
      expect(loaded.site.config.name).toBe("Owl Docs");
    }
    // A pipe where the name is kept is never waited on: as if nothing were kept.
    const keptFile = join(home, "svc-mcp", ".site-names", kept[0] as string);
    rmSync(keptFile);
    execFileSync("mkfifo", [keptFile]);
    expect(knownSiteName(env, root)).toBe(undefined);
    rmSync(keptFile);
    rememberSiteName(env, root, "Owl Docs");
    // Another folder's name is never taken.
    const other = tempRepo({ "docs.json": { navigation: { pages: ["index"] } }, "index.mdx": "# Home\n" });
    expect(knownSiteName(env, other)).toBe(undefined);
    rememberSiteName(env, other, "Other");
    expect(knownSiteName(env, other)).toBe("Other");
    expect(knownSiteName(env, root)).toBe("Owl Docs");
  });
});
