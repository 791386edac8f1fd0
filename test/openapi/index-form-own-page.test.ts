/**
 * Adversary round 49 F3: a page with front matter `openapi` at `<path>/index.mdx`, where its
 * operation's page would be generated at `<path>`, takes the path as `<path>.mdx` does (row 157),
 * and is the operation's own page as `<path>.mdx` is: `check` said it had two pages
 * (`api-two-pages`), that it took the generated page's path (`api-page-taken`) and that it was
 * not in the navigation. `check` now says of the index form what it says of the `.mdx` form,
 * whole, staff or public; a `<path>.mdx` beside it, documenting nothing, is still warned of.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { checkDocs } from "../../src/engine/use-cases/check-docs.js";

const ok = { "200": { description: "ok" } };
const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["intro"] }, { group: "API", openapi: "api/openapi.json" }] } }),
  "api/openapi.json": JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Acme API", version: "1" },
    paths: { "/users": { get: { summary: "List users", responses: ok } }, "/widgets": { get: { summary: "List widgets", responses: ok } } },
  }),
  "intro.mdx": "---\ntitle: Intro\n---\nWelcome.\n",
};
const STAFF = "---\ntitle: Staff doc\nopenapi: GET /users\ngroups: [staff]\n---\n\nNotes.\n";
const PUBLIC = "---\ntitle: Users doc\nopenapi: GET /users\n---\n\nNotes.\n";
const EXACT = "api-reference/list-users.mdx";
const INDEX = "api-reference/list-users/index.mdx";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `check`'s report of a repository holding `files`, each line as the command prints it. */
async function check(files: Record<string, string>): Promise<{ lines: string[]; errors: number; warnings: number; pages: number; generatedPages: number }> {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-index-form-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries({ ...FILES, ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const report = await checkDocs({ root: dir });
  return { lines: report.diagnostics.map((d) => formatDiagnostic(d)), errors: report.errors, warnings: report.warnings, pages: report.pages, generatedPages: report.generatedPages };
}

describe("a page documenting an operation at the index form of its generated path", () => {
  it.each([
    ["staff", STAFF],
    ["public", PUBLIC],
  ])("is checked as the same page at <path>.mdx is (%s)", async (_, text) => {
    const index = await check({ [INDEX]: text });
    expect(index).toEqual(await check({ [EXACT]: text }));
    expect(index).toEqual({ lines: [], errors: 0, warnings: 0, pages: 2, generatedPages: 1 });
  });

  it("leaves a <path>.mdx beside it, which takes the path first and documents nothing, warned of", async () => {
    const both = await check({ [INDEX]: PUBLIC, [EXACT]: "---\ntitle: Users\n---\n\nAll about users.\n" });
    expect(both.lines).toEqual([
      `${EXACT} warning: this file takes the path of the generated page for GET /users (api/openapi.json); readers who may not read the file get the generated page`,
    ]);
  });
});
