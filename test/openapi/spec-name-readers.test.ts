/**
 * Adversary round 46 F5 and round 47 F6: a front matter name that no path finds (`openapi:
 * openapi.json GET /pets` on a page in `guides/`) is matched against the ends of the repository's
 * spec files' paths. Round 46 made a spec file only a staff page names no candidate for a public
 * page's name, so which file the public page found depended on what the staff page names: with
 * it, `api/openapi.json` (its operation shown, its file mounted for anonymous readers); without
 * it, two files and no reference (round 47 F6). A page's name now resolves from the repository's
 * files and that page alone: beside `internal/openapi.json` it finds two files for every reader,
 * whether or not a staff page names one, and the site is the same for an anonymous reader either way.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const SPEC = { openapi: "3.1.0", info: { title: "Pets", version: "1" }, paths: { "/pets": { get: { summary: "List pets", description: "Every pet PETLIST.", responses: { "200": { description: "Done" } } } } } };

const repo = (staffPage: boolean): Record<string, unknown> => ({
  "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/p"] }] } },
  "api/openapi.json": SPEC,
  "internal/openapi.json": { ...SPEC, info: { title: "Internal", version: "1" } },
  "guides/p.mdx": "---\ntitle: P\nopenapi: openapi.json GET /pets\n---\n\nPublic prose.\n",
  ...(staffPage ? { "internal/adm.mdx": "---\ntitle: Adm\ngroups: [staff]\nopenapi: /internal/openapi.json GET /pets\n---\n\nStaff prose.\n" } : {}),
});

describe("a spec named by the end of its path, beside another file of that name a staff page names", () => {
  const roots: string[] = [];
  let withStaff: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    for (const staff of [true, false]) roots.push(writeRepo(repo(staff)));
    withStaff = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withStaff.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const run = async (runtime: DocsRuntime, reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;
  const COMMAND = "find / -type f | sort; grep -c PETLIST /guides/p.mdx";

  it("finds two files for an anonymous reader, as on the site without the staff page: the page shows no operation, and neither file is theirs", async () => {
    const seen = await run(withStaff, ANONYMOUS, COMMAND);
    expect(seen).toBe(await run(without, ANONYMOUS, COMMAND));
    expect(seen).toBe("/guides/p.mdx\n/skill.md\n0\n");
    expect(await run(withStaff, ANONYMOUS, "cat /guides/p.mdx")).toBe(await run(without, ANONYMOUS, "cat /guides/p.mdx"));
  });

  it("is the same for staff, and their own page shows the file it names by its path", async () => {
    const staff = readerWithGroups(["staff"]);
    expect(await run(withStaff, staff, "grep -c PETLIST /guides/p.mdx /internal/adm.mdx; find / -type f | sort")).toBe("/guides/p.mdx:0\n/internal/adm.mdx:1\n/guides/p.mdx\n/internal/adm.mdx\n/internal/openapi.json\n/skill.md\n");
    expect(withStaff.site.api?.pages.get("/guides/p")).toBeUndefined();
    expect(withStaff.site.api?.pages.get("/internal/adm")?.source).toBe("internal/openapi.json");
  });
});
