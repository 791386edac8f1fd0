/**
 * A reader's outline (sections, versions, languages they are named) is kept across a save that
 * changed pages' text only (`sameOutlineBasis`): made again, it cost 0.3-1.4 s per reader class
 * after every save of a 25,000-page site. A save that changes which readers read a page, adds or
 * removes one, or edits docs.json makes it again, equal to a fresh load's.
 */
import { rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { tempRepo } from "../config/temp-repo.js";

const DOCS = {
  name: "Acme",
  navigation: {
    versions: [
      { version: "v2", groups: [{ group: "Start", pages: ["v2/index", "v2/staff"] }] },
      { version: "v1", groups: [{ group: "Start", pages: ["v1/index"] }] },
    ],
  },
};

describe("a reader's outline across saves", () => {
  const roots: string[] = [];
  const runtimes: DocsRuntime[] = [];
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((r) => r.close()));
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });
  const start = async (): Promise<{ root: string; runtime: DocsRuntime }> => {
    const root = tempRepo({ "docs.json": DOCS, "v2/index.mdx": "# Two\n", "v2/staff.mdx": "---\ngroups: [staff]\n---\n# Staff\n", "v1/index.mdx": "# One\n" });
    roots.push(root);
    const runtime = await DocsRuntime.load({ root });
    runtimes.push(runtime);
    return { root, runtime };
  };
  /** The outline a fresh load of the same files gives. */
  const fresh = async (root: string, reader = ANONYMOUS) => {
    const runtime = await DocsRuntime.load({ root });
    runtimes.push(runtime);
    return runtime.readerState(localContext(reader)).outline;
  };
  const anonymous = localContext(ANONYMOUS);
  const staff = localContext(readerWithGroups(["staff"]));

  it("is the same object after a save of text only, for every reader class", async () => {
    const { root, runtime } = await start();
    const before = [runtime.readerState(anonymous).outline, runtime.readerState(staff).outline];
    writeFileSync(join(root, "v1/index.mdx"), "# One\n\nMore text.\n");
    writeFileSync(join(root, "v2/staff.mdx"), "---\ngroups: [staff]\n---\n# Staff\n\nMore.\n");
    await runtime.applyChanges(["v1/index.mdx", "v2/staff.mdx"]);
    expect(runtime.site.pages.get("/v1/index")?.file.text).toBe("# One\n\nMore text.\n");
    const after = [runtime.readerState(anonymous).outline, runtime.readerState(staff).outline];
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
  });

  it("is made again when a page's readers change, a page comes or goes, or docs.json changes: a fresh load's", async () => {
    const { root, runtime } = await start();
    expect(runtime.readerState(anonymous).outline.knownVersions).toEqual(["v2", "v1"]);
    // v1's one page restricted: an anonymous reader is no longer told of v1.
    writeFileSync(join(root, "v1/index.mdx"), "---\ngroups: [staff]\n---\n# One\n");
    await runtime.applyChanges(["v1/index.mdx"]);
    expect(runtime.readerState(anonymous).outline).toEqual(await fresh(root));
    expect(runtime.readerState(anonymous).outline.knownVersions).toEqual(["v2"]);
    expect(runtime.readerState(staff).outline).toEqual(await fresh(root, readerWithGroups(["staff"])));
    // v2's public page gone: v2 is a staff version now, and an anonymous reader has none.
    unlinkSync(join(root, "v2/index.mdx"));
    await runtime.applyChanges(["v2/index.mdx"]);
    expect(runtime.readerState(anonymous).outline.knownVersions).toEqual([]);
    expect(runtime.readerState(anonymous).outline).toEqual(await fresh(root));
    // It comes back.
    writeFileSync(join(root, "v2/index.mdx"), "# Two\n");
    await runtime.applyChanges(["v2/index.mdx"]);
    expect(runtime.readerState(anonymous).outline.knownVersions).toEqual(["v2"]);
    // docs.json: v1 hidden.
    writeFileSync(join(root, "docs.json"), JSON.stringify({ ...DOCS, navigation: { versions: [DOCS.navigation.versions[0], { ...DOCS.navigation.versions[1], hidden: true }] } }));
    await runtime.applyChanges(["docs.json"]);
    expect(runtime.readerState(staff).outline.versions).toEqual(["v2"]);
    expect(runtime.readerState(staff).outline).toEqual(await fresh(root, readerWithGroups(["staff"])));
  });
});
