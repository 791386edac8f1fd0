import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * A version's path segment (`v6` for `v6.x`) is read off where versions' pages part ways; the
 * pages of versions a reader may not read must not move it (adversary round 36 F1: with two
 * staff-only versions beside it, an anonymous reader was told `v6.x (also v6)`, and a site's
 * only public version `Current` took `docs` once a staff-only `Next` existed). Each site is
 * compared with the same site without its restricted versions: a reader gets the same answers.
 */
const page = (title: string, groups?: string) => `---\ntitle: ${title}\n${groups !== undefined ? `groups: [${groups}]\n` : ""}---\n\n${title} of the server.\n`;
const version = (name: string, pages: readonly string[], extra: Record<string, unknown> = {}) => ({ version: name, ...extra, groups: [{ group: name, pages }] });

const SITES = {
  lab: {
    "docs.json": JSON.stringify({
      name: "Lab",
      navigation: {
        versions: [
          version("v6.x", ["v6/index", "v6/guides/setup"], { default: true }),
          version("V6", ["staff6/secret"], { tag: "Latest" }),
          version("Version 2030 (beta)", ["v7/secret"]),
        ],
      },
    }),
    "v6/index.mdx": page("Welcome"),
    "v6/guides/setup.mdx": page("Setup"),
    "staff6/secret.mdx": page("Staff six", "staff"),
    "v7/secret.mdx": page("Beta secret", "staff"),
  },
  labWithout: {
    "docs.json": JSON.stringify({ name: "Lab", navigation: { versions: [version("v6.x", ["v6/index", "v6/guides/setup"], { default: true })] } }),
    "v6/index.mdx": page("Welcome"),
    "v6/guides/setup.mdx": page("Setup"),
  },
  current: {
    "docs.json": JSON.stringify({ name: "Lab", navigation: { versions: [version("Current", ["docs/index", "docs/setup"]), version("Next", ["next/setup"])] } }),
    "docs/index.mdx": page("Welcome"),
    "docs/setup.mdx": page("Setup"),
    "next/setup.mdx": page("Next setup", "staff"),
  },
  currentWithout: {
    "docs.json": JSON.stringify({ name: "Lab", navigation: { versions: [version("Current", ["docs/index", "docs/setup"])] } }),
    "docs/index.mdx": page("Welcome"),
    "docs/setup.mdx": page("Setup"),
  },
};

type Site = keyof typeof SITES;
const runtimes = new Map<Site, DocsRuntime>();
const cleanups: (() => void)[] = [];
beforeAll(async () => {
  for (const [name, files] of Object.entries(SITES) as [Site, Record<string, string>][]) {
    const repo = makeRepo(files);
    cleanups.push(repo.cleanup);
    runtimes.set(name, await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.lab.test" }));
  }
});
afterAll(async () => {
  for (const r of runtimes.values()) await r.close();
  for (const c of cleanups) c();
});

/** A search's answer as text: the error message, or the hits' paths. */
async function search(site: Site, reader: Reader, args: Record<string, unknown>): Promise<string> {
  const c = await connect(runtimes.get(site) as DocsRuntime, reader);
  try {
    const r = await c.call("search_lab", { query: "setup", ...args });
    if (r.isError === true) return c.text(r);
    return (r.structuredContent as { results: { path: string }[] }).results.map((h) => h.path).join(" ");
  } finally {
    await c.close();
  }
}

describe("a version's other name comes from the pages the reader may read", () => {
  it("an unknown version lists the public version as a site without the restricted ones does", async () => {
    const message = 'Invalid arguments for search_lab: version: not a version of this site; use one of v6.x, latest (got "zzz")';
    expect(await search("lab", ANONYMOUS, { version: "zzz" })).toBe(message);
    expect(await search("labWithout", ANONYMOUS, { version: "zzz" })).toBe(message);
    // Staff read all three versions, which part ways at the first folder.
    expect(await search("lab", readerWithGroups(["staff"]), { version: "zzz" })).toBe(
      'Invalid arguments for search_lab: version: not a version of this site; use one of v6.x (also v6), V6 (also staff6), Version 2030 (beta) (also v7), latest (got "zzz")',
    );
  });

  it("a restricted version's folder does not make a public version's folder one of its names", async () => {
    const message = 'Invalid arguments for search_lab: version: not a version of this site; use one of Current, latest (got "docs")';
    expect(await search("current", ANONYMOUS, { version: "docs" })).toBe(message);
    expect(await search("currentWithout", ANONYMOUS, { version: "docs" })).toBe(message);
    expect(await search("current", readerWithGroups(["staff"]), { version: "docs" })).toBe("/docs/setup");
  });
});
