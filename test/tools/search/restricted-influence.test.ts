import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { LIMITS } from "../../../src/limits.js";
import { type Access, ANONYMOUS, canRead, type Reader, readerWithGroups } from "../../../src/vfs/access.js";
import type { Site } from "../../../src/vfs/site.js";
import { siteVariants } from "../../../src/vfs/site-variants.js";
import { SiteView } from "../../../src/vfs/view.js";
import { inlineSite } from "./inline-site.js";

/**
 * An anonymous reader's results on a site with restricted text equal its results on the same site
 * without it, to the last byte (found by an adversary's probes): restricted text must not change
 * how the pages it may read are indexed, nor how their versions fold.
 */
const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
const page = (title: string, body: string, groups?: string) => `---\ntitle: ${title}\n${groups !== undefined ? `groups: [${groups}]\n` : ""}---\n\n${body}\n`;
const shown = (files: Record<string, string>, docs: unknown, query: string) => {
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(inlineSite(files, docs));
  return index.search({ query, canRead: anonymous }).map((h) => [h.page.path, h.score, h.snippet, h.otherVersions.map((t) => t.page.path)]);
};

describe("restricted text and an anonymous reader's results", () => {
  it("a restricted snippet repeating public pages' section does not make that section boilerplate for them", () => {
    const foot = "## Support\n\nContact the help desk for billing questions.";
    const docs = { navigation: { groups: [{ group: "G", pages: ["alpha", "beta", "gamma"] }] } };
    const base = {
      "/alpha.mdx": page("Alpha", `Alpha page about rockets.\n\n${foot}`),
      "/beta.mdx": page("Beta", `Beta page about engines.\n\n${foot}`),
    };
    const withSecret = (text: string) => ({
      ...base,
      "/snippets/secret.mdx": page("Secret", text, "staff"),
      "/gamma.mdx": page("Gamma", "import Secret from '/snippets/secret.mdx'\n\nGamma page about fuel.\n\n<Secret />"),
    });
    const without = { ...base, "/gamma.mdx": page("Gamma", "Gamma page about fuel.") };
    for (const query of ["billing questions", "support"]) {
      const want = shown(without, docs, query);
      expect(want.map((h) => h[0])).toEqual(["/alpha", "/beta"]);
      expect(shown(withSecret(foot), docs, query)).toEqual(want);
      expect(shown(withSecret("## Support\n\nSomething else entirely."), docs, query)).toEqual(want);
    }
  });

  it("navigation entries whose pages are restricted fold versions as entries with no page do", () => {
    const docs = {
      navigation: {
        versions: [
          { version: "Current", default: true, groups: [{ group: "G", pages: ["c2/setup", "c2/other"] }] },
          { version: "Legacy", groups: [{ group: "G", pages: ["l1/setup", "old/a", "old/b", "old/c"] }] },
        ],
      },
    };
    const base = {
      "/c2/setup.mdx": page("Setup", "Install the frobnicator with the new installer and configure ports."),
      "/c2/other.mdx": page("Other", "Other things entirely."),
      "/l1/setup.mdx": page("Setup guide", "Old way to frobnicator manual steps tarball unpack compile."),
    };
    const restricted = { ...base, ...Object.fromEntries(["a", "b", "c"].map((x) => [`/old/${x}.mdx`, page(`Old ${x}`, `Staff only ${x}`, "staff")])) };
    for (const query of ["frobnicator", "setup"]) expect(shown(restricted, docs, query)).toEqual(shown(base, docs, query));
  });

  it("past the variants indexed up front, a reader's results depend only on what it may read", async () => {
    // A page inlining snippets of six groups: 64 outcomes, past the 16 indexed with the page.
    const names = ["a", "b", "c", "d", "e", "f"];
    expect(2 ** names.length).toBeGreaterThan(LIMITS.search.maxPageVariants);
    const files: Record<string, string> = {
      "/guide.mdx": page("Guide", `${names.map((n) => `import S${n} from '/snippets/${n}.mdx';`).join("\n")}\n\nRotate the keys.\n\n${names.map((n) => `<S${n} />`).join("\n\n")}`),
      "/keys.mdx": page("Keys", "Keys and tokens: rotate them yearly, store them in the vault."),
      "/tokens.mdx": page("Tokens", "Tokens expire; the vault keeps the keys."),
    };
    for (const n of names) files[`/snippets/${n}.mdx`] = page(`S${n}`, `## Vault ${n}\n\nThe ${n} team rotates keys in vault ${n} with tokens.`, n);
    const site = inlineSite(files);
    const index = new SearchIndex({ cachedResults: 0 });
    index.sync(site);
    /** The site as a reader reads it: its files as its view shows them (restricted imports left out). */
    const variants = await siteVariants(site, undefined, undefined);
    const own = (reader: Reader): Site => {
      const view = new SiteView({ ...site, variants }, reader, "public");
      return inlineSite(Object.fromEntries(view.files.map((f) => [f.path, f.text])));
    };
    const all = (hits: ReturnType<SearchIndex["search"]>) => hits.map((h) => [h.page.path, h.section, h.score, h.snippet]);
    // Readers in an order where many come after the indexed outcomes run out, and again after a sync.
    const masks = [...Array(64).keys()].map((i) => (i * 37) % 64);
    for (const round of [0, 1]) {
      if (round === 1) index.sync(inlineSite({ ...files, "/other.mdx": page("Other", "Unrelated.") }, undefined, site));
      for (const mask of masks) {
        const reader = readerWithGroups(names.filter((_, i) => (mask & (1 << i)) !== 0));
        const mine = new SearchIndex({ cachedResults: 0 });
        mine.sync(round === 1 ? inlineSite({ ...Object.fromEntries([...own(reader).files.values()].map((f) => [f.path, f.text])), "/other.mdx": page("Other", "Unrelated.") }) : own(reader));
        for (const query of ["rotate keys vault", "tokens", "team"]) {
          const req = { query, pageSize: 10, canRead: (a: Access) => canRead(a, reader, "public") };
          expect(all(index.search(req))).toEqual(all(mine.search(req)));
        }
      }
    }
  });
});
