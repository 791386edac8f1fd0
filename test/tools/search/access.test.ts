import { describe, expect, it } from "vitest";
import { LIMITS } from "../../../src/limits.js";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { pageVariants } from "../../../src/engine/search/variants.js";
import { type Access, ANONYMOUS, canRead, readerWithGroups } from "../../../src/vfs/access.js";
import type { Site } from "../../../src/vfs/site.js";
import { inlineSite } from "./inline-site.js";

/** Exact cases of what search shows readers with different rights (the property is in access.property.test.ts). */

function indexOf(site: Site): SearchIndex {
  const index = new SearchIndex();
  index.sync(site);
  return index;
}

const groups = (...g: string[]) => (a: Access) => canRead(a, readerWithGroups(g), "public");
const brief = (hits: readonly SearchHit[]) => hits.map((h) => [h.page.path, h.section.heading, h.snippet]);

describe("page variants", () => {
  const variantsOf = (files: Record<string, string>, page: string) => {
    const site = inlineSite(files);
    const p = site.pages.get(page);
    if (p === undefined) throw new Error(`no page ${page}`);
    return pageVariants(p, (path) => site.files.get(path)).variants.map((v) => ({
      text: (v.expanded?.body ?? p.body).split("\n").filter((l) => l !== "" && !l.startsWith("import ")),
      condition: v.condition?.map((c) => [c.access.groups?.join("+"), c.readable]),
    }));
  };

  it("one per outcome of two snippets under different groups, and none for the page's own rule", () => {
    const files = {
      "/guide.mdx": "---\ntitle: Guide\n---\nimport A from '/snippets/a.mdx';\nimport B from '/snippets/b.mdx';\nimport C from '/snippets/c.mdx';\n\nIntro.\n\n<A />\n\n<B />\n\n<C />\n",
      "/snippets/a.mdx": "---\ngroups: [a]\n---\nFor a.\n",
      "/snippets/b.mdx": "---\ngroups: [b]\n---\nFor b.\n",
      "/snippets/c.mdx": "For all.\n",
    };
    expect(variantsOf(files, "/guide")).toEqual([
      { text: ["Intro.", "For a.", "For b.", "For all."], condition: [["a", true], ["b", true]] },
      { text: ["Intro.", "For b.", "For all."], condition: [["a", false], ["b", true]] },
      { text: ["Intro.", "For all."], condition: [["a", false], ["b", false]] },
      { text: ["Intro.", "For a.", "For all."], condition: [["a", true], ["b", false]] },
    ]);
  });

  it("a `<Snippet file>` tag's file under a group is one more rule: left out with the tag, as an import of it", () => {
    const files = {
      "/guide.mdx": '---\ntitle: Guide\n---\nIntro.\n\n<Snippet file="staff.mdx" />\n\n<Snippet file="all.mdx" />\n',
      "/_snippets/staff.mdx": "---\ngroups: [staff]\n---\nFor staff.\n",
      "/_snippets/all.mdx": "For all.\n",
    };
    expect(variantsOf(files, "/guide")).toEqual([
      { text: ["Intro.", "For staff.", "For all."], condition: [["staff", true]] },
      { text: ["Intro.", "For all."], condition: [["staff", false]] },
    ]);
  });

  it("a snippet inside a left-out one is not asked about, and an unused import adds nothing", () => {
    const files = {
      "/guide.mdx": "---\ntitle: Guide\n---\nimport Outer from '/snippets/outer.mdx';\nimport Unused from '/snippets/unused.mdx';\n\nIntro.\n\n<Outer />\n",
      "/snippets/outer.mdx": "---\ngroups: [a]\n---\nimport Inner from './inner.mdx';\n\nOuter.\n\n<Inner />\n",
      "/snippets/inner.mdx": "---\ngroups: [b]\n---\nInner.\n",
      "/snippets/unused.mdx": "---\ngroups: [c]\n---\nUnused.\n",
    };
    expect(variantsOf(files, "/guide")).toEqual([
      { text: ["Intro.", "Outer.", "Inner."], condition: [["a", true], ["b", true]] },
      { text: ["Intro."], condition: [["a", false]] },
      { text: ["Intro.", "Outer."], condition: [["a", true], ["b", false]] },
    ]);
  });

  it(`past ${LIMITS.search.maxPageVariants} outcomes, each reader gets its own variant, made when it first searches`, () => {
    const names = ["a", "b", "c", "d", "e"];
    const files: Record<string, string> = {
      "/guide.mdx": `---\ntitle: Guide\n---\n${names.map((n) => `import S${n} from '/snippets/${n}.mdx';`).join("\n")}\n\nIntro.\n\n${names.map((n) => `<S${n} />`).join("\n\n")}\n`,
    };
    for (const n of names) files[`/snippets/${n}.mdx`] = `---\ngroups: [${n}]\n---\nOnly for ${n}quokka.\n`;
    const variants = variantsOf(files, "/guide");
    // The first outcomes, and the one every reader of the page reads.
    expect(variants.length).toBe(LIMITS.search.maxPageVariants);
    expect(variants).toContainEqual({ text: ["Intro."], condition: names.map((n) => [n, false]) });
    // Every one of the 32 readers gets exactly what it may read, in either order of first searches.
    for (const order of [[...Array(32).keys()], [...Array(32).keys()].reverse()]) {
      const index = indexOf(inlineSite(files));
      for (const mask of order) {
        const mine = names.filter((_, i) => (mask & (1 << i)) !== 0);
        const [hit] = index.search({ query: "intro", canRead: groups(...mine) });
        expect(hit?.snippet).toBe(["Intro.", ...mine.map((n) => `Only for ${n}quokka.`)].join(" "));
      }
    }
  });

  it(`past ${LIMITS.search.maxReaderVariants} variants made for readers, the oldest are made again when their readers come back`, () => {
    const names = ["a", "b", "c", "d", "e", "f", "g"];
    const files: Record<string, string> = {
      "/guide.mdx": `---\ntitle: Guide\n---\n${names.map((n) => `import S${n} from '/snippets/${n}.mdx';`).join("\n")}\n\nIntro.\n\n${names.map((n) => `<S${n} />`).join("\n\n")}\n`,
      "/other.mdx": "---\ntitle: Other\n---\nAn intro to something else.\n",
    };
    for (const n of names) files[`/snippets/${n}.mdx`] = `---\ngroups: [${n}]\n---\nOnly for ${n}quokka.\n`;
    expect(2 ** names.length - LIMITS.search.maxPageVariants).toBeGreaterThan(LIMITS.search.maxReaderVariants);
    const index = indexOf(inlineSite(files));
    const want = (mine: string[]) => [
      ["/guide", "", ["Intro.", ...mine.map((n) => `Only for ${n}quokka.`)].join(" ")],
      ["/other", "", "An intro to something else."],
    ];
    const masks = [...Array(2 ** names.length).keys()];
    for (const mask of [...masks, ...masks.reverse()]) {
      const mine = names.filter((_, i) => (mask & (1 << i)) !== 0);
      const hits = brief(index.search({ query: "intro", canRead: groups(...mine) }));
      expect(hits.sort()).toEqual(want(mine).sort());
    }
  });
});

describe("search by readers with different rights", () => {
  it("on a fully authenticated site, a public page's plain snippet is for signed-in readers only", () => {
    const site = inlineSite({
      "/welcome.mdx": "---\ntitle: Welcome\npublic: true\n---\nimport Plans from '/snippets/plans.mdx';\n\nWelcome aboard.\n\n<Plans />\n",
      "/snippets/plans.mdx": "Enterprise plans include a quokka.\n",
    });
    const index = indexOf(site);
    const anonymous = (a: Access) => canRead(a, ANONYMOUS, "full");
    const member = (a: Access) => canRead(a, readerWithGroups(["x"]), "full");
    expect(brief(index.search({ query: "welcome quokka", canRead: anonymous }))).toEqual([["/welcome", "", "Welcome aboard."]]);
    expect(brief(index.search({ query: "welcome quokka", canRead: member }))).toEqual([["/welcome", "", "Welcome aboard. Enterprise plans include a quokka."]]);
  });

  it("leaves a restricted import's tags out with their titles and children, as the reader's own view of the page does", () => {
    const files = {
      "/guide.mdx": [
        "---",
        "title: Guide",
        "---",
        "import Secret from '/snippets/secret.mdx';",
        "import { Badge } from '/snippets/badge.mdx';",
        "",
        "Rotate tokens yearly.",
        "",
        '<Secret title="Rotation schedule">Fallback wombat words</Secret>',
        "",
        '<Badge label="Quokka tier" />',
      ].join("\n"),
      "/snippets/secret.mdx": "---\ngroups: [staff]\n---\nThe vault key rotates monthly.\n",
      "/snippets/badge.mdx": "---\ngroups: [staff]\n---\nexport const Badge = ({ label }) => <span>{label}</span>;\n",
    };
    const index = indexOf(inlineSite(files));
    const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
    for (const query of ["schedule", "fallback wombat", "quokka tier", "vault"]) expect(index.search({ query, canRead: anonymous })).toEqual([]);
    expect(brief(index.search({ query: "rotate", canRead: anonymous }))).toEqual([["/guide", "", "Rotate tokens yearly."]]);
    // Staff get the snippet inlined (its tag's title and children go with the tag) and the badge's label.
    expect(brief(index.search({ query: "rotate", canRead: groups("staff") }))).toEqual([["/guide", "", "Rotate tokens yearly. The vault key rotates monthly. Quokka tier"]]);
  });

  it("re-indexes a page when the rule of a file it imports by name changes", () => {
    const files = {
      "/guide.mdx": "---\ntitle: Guide\n---\nimport { Badge } from '/snippets/badge.mdx';\n\nTokens.\n\n<Badge label=\"Quokka tier\" />\n",
      "/snippets/badge.mdx": "export const Badge = ({ label }) => <span>{label}</span>;\n",
    };
    const before = inlineSite(files);
    const index = indexOf(before);
    const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
    expect(brief(index.search({ query: "quokka", canRead: anonymous }))).toEqual([["/guide", "", "Tokens. Quokka tier"]]);
    const after = inlineSite({ ...files, "/snippets/badge.mdx": `---\ngroups: [staff]\n---\n${files["/snippets/badge.mdx"]}` }, undefined, before);
    expect(index.sync(after)).toEqual({ added: 1, removed: 1 });
    expect(index.search({ query: "quokka", canRead: anonymous })).toEqual([]);
  });

  it("typo corrections do not depend on the order restricted pages brought words in", () => {
    // Nine words one edit from "zorpa", each on one page: only eight are taken. A restricted
    // page indexed first, holding them in reverse, must not change which eight.
    const near = ["zorpb", "zorpc", "zorpd", "zorpe", "zorpf", "zorpg", "zorph", "zorpi", "zorpj"];
    const pub = Object.fromEntries(near.map((w) => [`/${w}.mdx`, `---\ntitle: Page ${w}\n---\nThe ${w} value.\n`]));
    const secret = { "/aaa-secret.mdx": `---\ntitle: Secret\ngroups: [staff]\n---\n${[...near].reverse().join(" ")}\n` };
    const withSecret = indexOf(inlineSite({ ...secret, ...pub }));
    const without = indexOf(inlineSite(pub));
    const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
    const paths = (index: SearchIndex) => index.search({ query: "zorpa", pageSize: 50, canRead: anonymous }).map((h) => h.page.path);
    expect(paths(without)).toEqual(near.slice(0, 8).map((w) => `/${w}`));
    expect(paths(withSecret)).toEqual(paths(without));
  });

  it("re-indexes a page when a snippet it imports changes groups, and statistics follow", () => {
    const files = {
      "/guide.mdx": "---\ntitle: Guide\n---\nimport S from '/snippets/s.mdx';\n\nRotate tokens.\n\n<S />\n",
      "/other.mdx": "---\ntitle: Other\n---\nTokens expire.\n",
      "/snippets/s.mdx": "Rotate the vault key.\n",
    };
    const before = inlineSite(files);
    const index = indexOf(before);
    const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
    expect(brief(index.search({ query: "vault", canRead: anonymous }))).toEqual([["/guide", "", "Rotate tokens. Rotate the vault key."]]);
    const after = inlineSite({ ...files, "/snippets/s.mdx": "---\ngroups: [staff]\n---\nRotate the vault key.\n" }, undefined, before);
    expect(index.sync(after)).toEqual({ added: 1, removed: 1 });
    expect(index.search({ query: "vault", canRead: anonymous })).toEqual([]);
    expect(brief(index.search({ query: "vault", canRead: groups("staff") }))).toEqual([["/guide", "", "Rotate tokens. Rotate the vault key."]]);
    const publicOnly = indexOf(inlineSite({ "/guide.mdx": files["/guide.mdx"], "/other.mdx": files["/other.mdx"] }));
    const scores = (i: SearchIndex) => i.search({ query: "rotate tokens", canRead: anonymous }).map((h) => [h.page.path, h.score, h.snippet]);
    expect(scores(index)).toEqual(scores(publicOnly));
  });
});
