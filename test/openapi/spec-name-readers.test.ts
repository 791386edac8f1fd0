/**
 * Adversary round 46 F5: a front matter name that no path finds (`openapi: openapi.json GET /pets`
 * on a page in `guides/`) is matched against the ends of the repository's spec files' paths. A
 * spec file only a staff page names (by its path) was one of them, so the public page's name found
 * two and the page lost its reference for everyone: an anonymous reader learnt that a file of that
 * name exists which they may not read. Only the files every reader of the page may read count now.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const SPEC = { openapi: "3.1.0", info: { title: "Pets", version: "1" }, paths: { "/pets": { get: { summary: "List pets", description: "Every pet PETLIST.", responses: { "200": { description: "Done" } } } } } };

const repo = (staffSpec: boolean): Record<string, unknown> => ({
  "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/p"] }] } },
  "api/openapi.json": SPEC,
  "guides/p.mdx": "---\ntitle: P\nopenapi: openapi.json GET /pets\n---\n\nPublic prose.\n",
  ...(staffSpec
    ? {
        "internal/openapi.json": { ...SPEC, info: { title: "Internal", version: "1" } },
        "internal/adm.mdx": "---\ntitle: Adm\ngroups: [staff]\nopenapi: /internal/openapi.json GET /pets\n---\n\nStaff prose.\n",
      }
    : {}),
});

describe("a spec named by the end of its path, beside a spec file only staff pages name", () => {
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

  it("is, for an anonymous reader, the one they may read: the page shows its operation as on the site without the staff spec", async () => {
    const seen = await run(withStaff, ANONYMOUS, COMMAND);
    expect(seen).toBe(await run(without, ANONYMOUS, COMMAND));
    expect(seen).toBe("/api/openapi.json\n/guides/p.mdx\n/skill.md\n1\n");
    expect(await run(withStaff, ANONYMOUS, "cat /guides/p.mdx")).toBe(await run(without, ANONYMOUS, "cat /guides/p.mdx"));
  });

  it("is the same for staff (every reader of the public page must read its spec), and their own page shows theirs", async () => {
    const staff = readerWithGroups(["staff"]);
    expect(await run(withStaff, staff, "grep -c PETLIST /guides/p.mdx /internal/adm.mdx; find / -type f | sort")).toBe(
      "/guides/p.mdx:1\n/internal/adm.mdx:1\n/api/openapi.json\n/guides/p.mdx\n/internal/adm.mdx\n/internal/openapi.json\n/skill.md\n",
    );
    expect(withStaff.site.api?.pages.get("/guides/p")?.source).toBe("api/openapi.json");
    expect(withStaff.site.api?.pages.get("/internal/adm")?.source).toBe("internal/openapi.json");
  });
});
