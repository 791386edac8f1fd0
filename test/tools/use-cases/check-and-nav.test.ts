import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NavTree } from "../../../src/config/docs-json/nav-tree.js";
import { checkDocs } from "../../../src/engine/use-cases/check-docs.js";
import { navigateDocs } from "../../../src/engine/use-cases/navigate-docs.js";
import { ANONYMOUS, readerWithGroups } from "../../../src/vfs/access.js";
import { localContext } from "../../../src/vfs/request-context.js";
import { REPO } from "../../helpers/paths.js";
import { makeRepo } from "../../helpers/repo.js";

/** The check and nav use cases driven directly: no CLI, the repository context built by hand. */
describe("checkDocs", () => {
  it("reports every finding with its code, and what was checked", async () => {
    const report = await checkDocs({ root: join(REPO, "fixtures/docs-json/warn-page-file") });
    expect(report).toEqual({
      diagnostics: [
        { severity: "warning", file: "docs.json", line: 6, column: 17, path: "navigation.groups[0].root", message: 'page "overview" not found: no overview.mdx or overview.md', code: "page-file" },
        { severity: "warning", file: "docs.json", line: 9, column: 11, path: "navigation.groups[0].pages[1]", message: 'page "guides/setup" not found: no guides/setup.mdx or guides/setup.md', code: "page-file" },
        {
          severity: "warning",
          file: "docs.json",
          line: 11,
          column: 11,
          path: "navigation.groups[0].pages[3]",
          message: 'page "guide.mdx" is listed twice (first at navigation.groups[0].pages[2])',
          code: "duplicate-page",
        },
      ],
      errors: 0,
      warnings: 3,
      files: ["docs.json"],
      docsJson: true,
      configFile: "docs.json",
      pages: 2,
      generatedPages: 0,
    });
  });
});

describe("navigateDocs", () => {
  const root = join(REPO, "fixtures/nav-demo");

  it("resolves the author's navigation, the same tree `nav --json` prints", async () => {
    const answer = await navigateDocs({ root }, {});
    expect(answer.ok && answer.value.ok ? answer.value.tree : answer).toEqual(JSON.parse(readFileSync(join(root, "expected-nav.json"), "utf8")) as NavTree);
  });

  it("names each filter the site does not have, with the values it has", async () => {
    expect(await navigateDocs({ root }, { version: "v9", language: "de" })).toEqual({
      ok: false,
      issues: [
        { argument: "version", message: "v9: no such version (the site has v1, v2)" },
        { argument: "language", message: "de: no such language (the site has en, fr)" },
      ],
    });
  });

  it("a reader's view has only what they may read", async () => {
    const repo = makeRepo({
      "docs.json": JSON.stringify({ name: "Two", navigation: { groups: [{ group: "Start", pages: ["index", "runbook"] }] } }),
      "index.mdx": "# Welcome",
      "runbook.mdx": "---\ntitle: Runbook\ngroups: [staff]\n---\nDrain the node.",
    });
    try {
      const pages = async (request?: ReturnType<typeof localContext>) => {
        const answer = await navigateDocs({ root: repo.dir, ...(request !== undefined ? { request } : {}) }, {});
        return answer.ok && answer.value.ok ? answer.value.tree.pages.map((p) => p.page) : answer;
      };
      expect(await pages()).toEqual(["/index", "/runbook"]);
      expect(await pages(localContext(ANONYMOUS))).toEqual(["/index"]);
      expect(await pages(localContext(readerWithGroups(["staff"])))).toEqual(["/index", "/runbook"]);
    } finally {
      repo.cleanup();
    }
  });

  it("a repository without docs.json has no navigation: the answer says so, it is no argument's fault", async () => {
    const repo = makeRepo({ "index.mdx": "# Welcome" });
    try {
      expect(await navigateDocs({ root: repo.dir }, {})).toEqual({ ok: true, value: { ok: false, reason: "missing", diagnostics: [] } });
    } finally {
      repo.cleanup();
    }
  });
});
