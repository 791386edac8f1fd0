import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO, SHARED } from "../helpers/paths.js";
import { REAL_SITES, describeShared } from "../helpers/shared.js";
import { tempRepo } from "./temp-repo.js";

const exec = promisify(execFile);
const FIXTURES = join(REPO, "fixtures/docs-json");

describeShared("svc-mcp check on the shared corpora", () => {
  const summaries: Record<(typeof REAL_SITES)[number], string> = {
    cline: "checked docs.json and 113 pages: 0 errors, 6 warnings",
    "open-wearables": "checked docs.json and 66 pages: 0 errors, 11 warnings",
    spree: "checked docs.json and 426 pages (+706 generated from API specs): 0 errors, 122 warnings",
  };
  for (const corpus of REAL_SITES) {
    it(`${corpus}: exit 0, warnings only`, async () => {
      const run = await runCli(["check", "--dir", join(SHARED, "corpora", corpus)]);
      const lines = run.stdout.trimEnd().split("\n");
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(lines.at(-1)).toBe(summaries[corpus]);
      expect(lines.slice(0, -1).filter((l) => !/^\S+(?: \S+:)? warning: /.test(l))).toEqual([]);
      if (corpus === "spree") {
        // The stale root `tabs` is a warning naming the element used.
        expect(lines[0]).toBe('docs.json:162:17 navigation: warning: has several root navigation elements: "versions" is used, "tabs" is ignored');
      }
    });
  }

  it("cline: the three pages on disk that no navigation lists, and the components the preview does not know", async () => {
    const run = await runCli(["check", "--dir", join(SHARED, "corpora/cline")]);
    expect(run.stdout).toBe(
      [
        'core-workflows/task-management.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)',
        'features/auto-compact.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)',
        "features/multiroot-workspace.mdx:52:1 warning: <Files> is not a component the preview knows: it shows the element's children",
        "features/multiroot-workspace.mdx:53:3 warning: <Folder> (used 6 times) is not a component the preview knows: it shows the element's children",
        "features/multiroot-workspace.mdx:57:9 warning: <File> (used 4 times) is not a component the preview knows: it shows the element's children",
        'provider-config/atomic-chat.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)',
        "checked docs.json and 113 pages: 0 errors, 6 warnings",
        "",
      ].join("\n"),
    );
  });
});

describe("svc-mcp check: api.playground.display simple", () => {
  // Issue 24: ollama's docs.json writes "simple"; the warning said the playground is shown as
  // "interactive" while the pages show none (it is read as "none").
  it("warns with what the pages show", async () => {
    const root = tempRepo({ "docs.json": { api: { playground: { display: "simple" } }, navigation: { pages: ["index"] } }, "index.mdx": "# Home\n" });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        `docs.json:4:18 api.playground.display: warning: "simple" is the hosted platform's value, not one of the specification's ("interactive", "auth", "none"): read as the platform shows it, a copyable endpoint with no playground (as "none")`,
        "checked docs.json and 1 page: 0 errors, 1 warning",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});

describe("svc-mcp check --json", () => {
  it("prints the same findings for machines", async () => {
    const run = await runCli(["check", "--json", "--dir", join(FIXTURES, "ref-positions")]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      errors: 1,
      warnings: 2,
      files: ["docs.json", "fr/navigation.json"],
      pages: 2,
      generatedPages: 0,
      diagnostics: [
        {
          severity: "warning",
          file: "fr/navigation.json",
          line: 8,
          column: 9,
          path: "navigation.languages[1].groups[0].pages[1]",
          message: 'page "fr/missing" not found: no fr/missing.mdx or fr/missing.md',
          code: "page-file",
        },
        {
          severity: "error",
          file: "fr/navigation.json",
          line: 11,
          column: 5,
          path: "navigation.languages[1].groups[1]",
          message: '"group" is required',
          code: "required",
        },
        {
          severity: "warning",
          file: "fr/navigation.json",
          line: 13,
          column: 9,
          path: "navigation.languages[1].groups[1].pages[0]",
          message:
            'page "fr/index" is listed twice in language "fr" (first at navigation.languages[1].groups[0].pages[0]); both listings show it, and it is placed (breadcrumbs) where it is first listed',
          code: "duplicate-page",
        },
      ],
    });
  });

  it("a clean repository: exit 0 and no findings", async () => {
    const run = await runCli(["check", "--json", "--dir", join(REPO, "fixtures/nav-demo")]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ errors: 0, warnings: 0, files: ["docs.json"], pages: 9, generatedPages: 2, diagnostics: [] });
  });

  it("a folder that does not exist is a usage error", async () => {
    expect(await runCli(["check", "--dir", "no/such/folder"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --dir no/such/folder: no such folder\n" });
  });
});

describe("the svc-mcp process", () => {
  it("check: compiler-style lines on stdout, exit 1", async () => {
    const dir = join(FIXTURES, "required-group");
    const error = await exec("node", [join(REPO, "bin/svc-mcp.js"), "check", "--dir", dir]).then(
      () => undefined,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(error).toMatchObject({ code: 1, stdout: readFileSync(join(dir, "expected.txt"), "utf8"), stderr: "" });
  });

  it("nav and check exit 0 on a clean site", async () => {
    const dir = join(REPO, "fixtures/nav-demo");
    const nav = await exec("node", [join(REPO, "bin/svc-mcp.js"), "nav", "--dir", dir]);
    expect(nav.stdout).toBe(readFileSync(join(dir, "expected-nav.txt"), "utf8"));
    const check = await exec("node", [join(REPO, "bin/svc-mcp.js"), "check", "--dir", dir]);
    expect(check).toEqual({ stdout: "checked docs.json and 9 pages (+2 generated from API specs): no problems\n", stderr: "" });
  });
});

describe("svc-mcp check --fetch-remote", () => {
  it("verifies the operation entries of a spec docs.json names by URL (a loopback server here)", async () => {
    const spec = {
      openapi: "3.0.3",
      info: { title: "Remote", version: "1" },
      paths: { "/users": { get: { summary: "List users", responses: { "200": { description: "OK" } } } } },
    };
    const server = createServer((req, res) => {
      res.writeHead(req.url === "/openapi.json" ? 200 : 404, { "content-type": "application/json" });
      res.end(req.url === "/openapi.json" ? JSON.stringify(spec) : "{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/openapi.json`;
      const root = tempRepo({
        "docs.json": { navigation: { tabs: [{ tab: "Docs", pages: ["index"] }, { tab: "API", openapi: url, pages: ["GET /users", "GET /nope"] }] } },
        "index.mdx": "# Home\n",
      });
      const offline = await runCli(["check", "--dir", root]);
      expect(offline).toEqual({
        code: 0,
        stdout: [
          `docs.json:12:20 navigation.tabs[1].openapi: warning: ${url} is not fetched, so the operation entries that use it are not verified (--fetch-remote fetches it)`,
          "checked docs.json and 1 page: 0 errors, 1 warning",
          "",
        ].join("\n"),
        stderr: "",
      });
      const online = await runCli(["check", "--dir", root, "--fetch-remote"]);
      expect(online).toEqual({
        code: 1,
        stdout: [
          `docs.json:15:11 navigation.tabs[1].pages[1]: "GET /nope" matches no operation (${url} has no GET /nope), and as a page path no file GET /nope.mdx exists`,
          "checked docs.json and 1 page (+1 generated from API specs): 1 error, 0 warnings",
          "",
        ].join("\n"),
        stderr: "",
      });
    } finally {
      server.close();
    }
  });
});
