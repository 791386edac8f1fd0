/**
 * Adversary round 46 F7: an operation documented by an open page and by a staff page. The staff
 * page's groups narrowed the operation (each reader's spec file, its generated page) while the
 * open page still showed its reference: the anonymous reader's spec left out an operation a page
 * they read shows, which told them a restricted page documents it. The pages documenting an
 * operation now give it their readers' union, and an open one keeps it open (`documentingGroups`).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const SPEC = {
  openapi: "3.1.0",
  info: { title: "Ops", version: "1" },
  paths: {
    "/op": { get: { summary: "Op O", description: "OPDESC-77 details.", responses: { "200": { description: "Done" } } } },
    "/pets": { get: { summary: "List pets", responses: { "200": { description: "Done" } } } },
  },
};

const repo = (pages: Record<string, string>): Record<string, unknown> => ({
  "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: Object.keys(pages).map((p) => p.replace(/\.mdx$/, "")) }, { group: "API", openapi: "api/openapi.json" }] } },
  "api/openapi.json": SPEC,
  ...pages,
});
const page = (title: string, groups?: string): string => `---\ntitle: ${title}\n${groups !== undefined ? `groups: [${groups}]\n` : ""}openapi: GET /op\n---\n\n${title} prose.\n`;
const COMMAND = "jq -c '.paths | keys' /api/openapi.json; ls /api-reference; grep -rlc OPDESC-77 / | sort";

describe("an operation documented by several pages", () => {
  const roots: string[] = [];
  const runtimes: Record<string, DocsRuntime> = {};
  beforeAll(async () => {
    const sites: Record<string, Record<string, string>> = {
      open: { "guides/a.mdx": page("A public") },
      "open and staff": { "guides/a.mdx": page("A public"), "guides/b.mdx": page("B staff", "staff") },
      "staff and ops": { "guides/b.mdx": page("B staff", "staff"), "guides/c.mdx": page("C ops", "ops") },
      // Security row 156: the rule kept, fail closed, where a reader cannot see the staff page.
      "staff at the generated path": { "api-reference/op-o.mdx": page("Op staff", "staff") },
      "staff behind an open page": { "guides/x.mdx": "---\ntitle: X\n---\n\nX prose.\n", "guides/x.md": page("X staff", "staff") },
    };
    for (const [name, pages] of Object.entries(sites)) {
      const root = writeRepo(repo(pages));
      roots.push(root);
      runtimes[name] = await DocsRuntime.load({ root });
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(runtimes).map((r) => r.close()));
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const run = async (name: string, reader: Reader): Promise<string> => (await (runtimes[name] as DocsRuntime).readerState(localContext(reader)).shell.run(COMMAND)).stdout;

  it("an open one keeps it open: the anonymous reader's spec, generated page and open page are those of the site without the staff page", async () => {
    const seen = await run("open and staff", ANONYMOUS);
    expect(seen).toBe(await run("open", ANONYMOUS));
    expect(seen).toBe('["/op","/pets"]\nlist-pets.mdx\nop-o.mdx\n/api-reference/op-o.mdx\n/api/openapi.json\n/guides/a.mdx\n');
  });

  it("restricted ones give it to the readers of any of them, and to no one else", async () => {
    const expected = '["/op","/pets"]\nlist-pets.mdx\nop-o.mdx\n/api-reference/op-o.mdx\n/api/openapi.json\n/guides/';
    expect(await run("staff and ops", readerWithGroups(["staff"]))).toBe(`${expected}b.mdx\n`);
    expect(await run("staff and ops", readerWithGroups(["ops"]))).toBe(`${expected}c.mdx\n`);
    expect(await run("staff and ops", ANONYMOUS)).toBe('["/pets"]\nlist-pets.mdx\n');
  });

  it("a restricted only one restricts it even where other readers get no page of theirs there (security row 156: fail closed)", async () => {
    expect(await run("staff at the generated path", ANONYMOUS)).toBe('["/pets"]\nlist-pets.mdx\n');
    expect(await run("staff at the generated path", readerWithGroups(["staff"]))).toBe('["/op","/pets"]\nlist-pets.mdx\nop-o.mdx\n/api-reference/op-o.mdx\n/api/openapi.json\n');
    expect(await run("staff behind an open page", ANONYMOUS)).toBe('["/pets"]\nlist-pets.mdx\n');
    expect(await run("staff behind an open page", readerWithGroups(["staff"]))).toBe('["/op","/pets"]\nlist-pets.mdx\nop-o.mdx\n/api-reference/op-o.mdx\n/api/openapi.json\n/guides/x.md\n');
  });
});
