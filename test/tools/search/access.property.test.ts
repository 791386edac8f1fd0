import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { type Access, ALL_ACCESS, ANONYMOUS, type AuthMode, canRead, type Reader, readerWithGroups } from "../../../src/vfs/access.js";
import type { Site } from "../../../src/vfs/site.js";
import { siteVariants } from "../../../src/vfs/site-variants.js";
import { SiteView } from "../../../src/vfs/view.js";
import { propertyParams } from "../../helpers/property.js";
import { inlineSite } from "./inline-site.js";

/**
 * The property search keeps for every reader:
 *
 *   For every site S, reader R, auth mode M and request Q (query, page size, threshold, version),
 *   searching S as R under M returns exactly what searching S|R returns, where S|R is the site
 *   as R reads it through the shell (`SiteView`): the files R may read, each as R sees it (an
 *   import of a file R may not read left out with the tags that use it), docs.json unchanged.
 *   The same pages in the same order, the same sections (heading, parents, anchor, text),
 *   scores, snippets and folded versions. And the same after `sync` moved the index from
 *   another site to S (updates are incremental, reader statistics included).
 *
 * So nothing R may not read reaches R through search: not its text, and not its statistics
 * (document frequencies, lengths, which words exist for typo and prefix matching); and search
 * holds of a page what R can `cat` of it, with the snippets R may read inlined.
 */

/** Words that meet as stems, prefixes, typos and joined words ("log in" -> `login`). */
const WORDS = [
  "setup", "set", "settings", "setting", "webhook", "webhooks", "payment", "payments", "refund", "refunds", "discount",
  "discounts", "configure", "configuration", "login", "log", "in", "vault", "secret", "rotate", "rotation", "invoice",
  "quokka", "wombat", "token", "tokens", "retry", "retries", "agent", "install",
];
type Rule = "none" | "a" | "b" | "ab" | "public";

const word = fc.constantFrom(...WORDS);
const text = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((ws) => ws.join(" "));
const rule = fc.constantFrom<Rule>("none", "none", "a", "b", "ab", "public");

/**
 * A block of a body: a heading, a paragraph, a code block, or the use of a snippet or page: by
 * default import (inlined for readers who may read it) or named import (a component: its tag
 * stays), as `<X />`, with a `title` a reader sees, or with children.
 */
type Use = { readonly file: "snippet" | "page"; readonly n: number; readonly named: boolean; readonly title?: string; readonly children?: string };
type Block = { heading: string } | { para: string } | { code: string } | { use: Use };
const use = fc.record(
  { file: fc.constantFrom<"snippet" | "page">("snippet", "snippet", "page"), n: fc.nat(4), named: fc.boolean(), title: text(1, 2), children: text(1, 3) },
  { requiredKeys: ["file", "n", "named"] },
);
const block = fc.oneof(
  text(1, 3).map((heading): Block => ({ heading })),
  text(2, 10).map((para): Block => ({ para })),
  text(1, 4).map((code): Block => ({ code })),
  use.map((u): Block => ({ use: { ...u, n: u.file === "snippet" ? u.n % 3 : u.n, named: u.named && u.file === "snippet" } })),
);

interface FileSpec {
  readonly rule: Rule;
  readonly title: string;
  readonly blocks: readonly Block[];
}
const fileSpec = fc.record({ rule, title: text(1, 3), blocks: fc.array(block, { minLength: 1, maxLength: 6 }) });

/** Five page slots (a slot may be empty) and three snippets, possibly versioned; a slot may
 *  also hold a `.md` file, the page `/p<i>` for readers who may not read its `.mdx` one. */
interface SiteSpec {
  readonly pages: readonly (FileSpec | null)[];
  readonly md?: readonly (FileSpec | null)[];
  readonly snippets: readonly FileSpec[];
  readonly versioned: boolean;
}
const siteSpec = fc.record({
  pages: fc.array(fc.option(fileSpec, { freq: 4 }), { minLength: 5, maxLength: 5 }),
  md: fc.array(fc.option(fileSpec, { freq: 2 }), { minLength: 5, maxLength: 5 }),
  snippets: fc.array(fileSpec, { minLength: 3, maxLength: 3 }),
  versioned: fc.boolean(),
});

/** Page `i` of a site: versioned, pages 2k and 2k+1 are the same page in v1 and v2 (twins). */
function pagePath(i: number, versioned: boolean): string {
  return versioned ? `/v${(i % 2) + 1}/p${i >> 1}` : `/p${i}`;
}

function frontMatter(r: Rule, title?: string): string {
  const lines = [
    ...(title !== undefined ? [`title: ${title}`] : []),
    ...(r === "public" ? ["public: true"] : r === "none" ? [] : [`groups: [${r === "ab" ? "a, b" : r}]`]),
  ];
  return lines.length === 0 ? "" : `---\n${lines.join("\n")}\n---\n`;
}

function render(spec: FileSpec, versioned: boolean, title: boolean): string {
  const imports = new Set<string>();
  const body = spec.blocks.map((b) => {
    if ("heading" in b) return `## ${b.heading}`;
    if ("para" in b) return b.para;
    if ("code" in b) return `\`\`\`\n${b.code}\n\`\`\``;
    const { file, n, named, title, children } = b.use;
    const name = `${named ? "N" : file === "snippet" ? "S" : "P"}${n}`;
    const path = file === "snippet" ? `/snippets/s${n}.mdx` : `${pagePath(n, versioned)}.mdx`;
    imports.add(named ? `import { ${name} } from '${path}';` : `import ${name} from '${path}';`);
    const attrs = title !== undefined ? ` title="${title}"` : "";
    return children !== undefined ? `<${name}${attrs}>${children}</${name}>` : `<${name}${attrs} />`;
  });
  return `${frontMatter(spec.rule, title ? spec.title : undefined)}${[...imports].join("\n")}\n\n${body.join("\n\n")}\n`;
}

function files(spec: SiteSpec): Record<string, string> {
  const out: Record<string, string> = {};
  spec.pages.forEach((p, i) => {
    if (p !== null) out[`${pagePath(i, spec.versioned)}.mdx`] = render(p, spec.versioned, true);
  });
  spec.md?.forEach((p, i) => {
    if (p !== null) out[`${pagePath(i, spec.versioned)}.md`] = render(p, spec.versioned, true);
  });
  spec.snippets.forEach((s, j) => {
    out[`/snippets/s${j}.mdx`] = render(s, spec.versioned, false);
  });
  return out;
}

function docsJson(spec: SiteSpec): unknown {
  if (!spec.versioned) return undefined;
  const listed = (v: number) => spec.pages.map((_, i) => i).filter((i) => i % 2 === v - 1).map((i) => pagePath(i, true).slice(1));
  return { name: "T", navigation: { versions: [{ version: "v1", pages: listed(1) }, { version: "v2", pages: listed(2) }] } };
}

function siteOf(spec: SiteSpec): Site {
  return inlineSite(files(spec), docsJson(spec));
}

/** The site as `reader` reads it through the shell: its view's files, as it sees them. */
async function readersSite(spec: SiteSpec, reader: Reader, mode: AuthMode): Promise<Site> {
  const site = siteOf(spec);
  const view = new SiteView({ ...site, variants: await siteVariants(site, undefined, undefined) }, reader, mode);
  return inlineSite(Object.fromEntries(view.files.map((f) => [f.path, f.text])), docsJson(spec));
}

const READERS: readonly [string, Reader][] = [
  ["anonymous", ANONYMOUS],
  ["a", readerWithGroups(["a"])],
  ["b", readerWithGroups(["b"])],
  ["a+b", readerWithGroups(["a", "b"])],
  ["client credential", ALL_ACCESS],
];
/** `partial` reads as `public` for pages (it differs at the endpoints): the updates test uses it. */
const MODES: readonly AuthMode[] = ["public", "full"];

/** A query: words, their typos (a dropped or swapped letter), and words no page has. */
const typo = word.chain((w) => fc.nat(w.length - 2).map((i) => (i % 2 === 0 ? w.slice(0, i) + w.slice(i + 1) : w.slice(0, i) + (w[i + 1] as string) + (w[i] as string) + w.slice(i + 2))));
const query = fc.array(fc.oneof(word, word, typo, fc.constantFrom("xylograph", "conf", "sett", "web hook", "log in")), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(" "));
const request = fc.record({ query, pageSize: fc.constantFrom(1, 3, 10), scoreThreshold: fc.constantFrom(0, 0.2), version: fc.constantFrom(undefined, "v1") });

/** Everything a hit shows, with pages by path (the two sites hold different objects). */
function shown(hits: readonly SearchHit[]) {
  return hits.map((h) => ({
    path: h.page.path,
    section: h.section,
    score: h.score,
    snippet: h.snippet,
    others: h.otherVersions.map((t) => [t.page.path, t.score]),
  }));
}

function indexOf(site: Site): SearchIndex {
  const index = new SearchIndex();
  index.sync(site);
  return index;
}

type Request = { query: string; pageSize: number; scoreThreshold: number; version: string | undefined };

/** Search `index` as `reader` would, against a fresh index of the site as it reads it (readers
 *  who read the same texts share one). */
async function expectSameAsOwnSite(index: SearchIndex, spec: SiteSpec, reader: Reader, mode: AuthMode, requests: readonly Request[], own: Map<string, SearchIndex>): Promise<void> {
  const site = await readersSite(spec, reader, mode);
  const key = JSON.stringify([...site.files.values()].map((f) => [f.path, f.text]));
  const ownIndex = own.get(key) ?? indexOf(site);
  own.set(key, ownIndex);
  const differs = key !== JSON.stringify([...siteOf(spec).files.values()].map((f) => [f.path, f.text]));
  const read = (a: Access) => canRead(a, reader, mode);
  for (const { query: q, pageSize, scoreThreshold, version } of requests) {
    const req = { query: q, pageSize, scoreThreshold, canRead: read, ...(version !== undefined && spec.versioned ? { version } : {}) };
    const got = shown(index.search(req));
    COVERED.requests++;
    if (got.length > 0 && differs) COVERED.withHiddenFiles++;
    expect(got).toEqual(shown(ownIndex.search(req)));
  }
}

/** How many searches returned hits to a reader who reads the site otherwise than as written:
 *  the property must not hold only because the generator rarely makes such cases (about a
 *  third of searches do). */
const COVERED = { requests: 0, withHiddenFiles: 0 };

describe("search as a reader equals search on the site as it reads it", () => {
  it("for generated sites, readers, auth modes and queries", async () => {
    await fc.assert(
      fc.asyncProperty(siteSpec, fc.array(request, { minLength: 1, maxLength: 4 }), async (spec, requests) => {
        const index = indexOf(siteOf(spec));
        const own = new Map<string, SearchIndex>();
        for (const mode of MODES) {
          for (const [, reader] of READERS) await expectSameAsOwnSite(index, spec, reader, mode, requests, own);
        }
      }),
      propertyParams(100),
    );
    expect(COVERED.withHiddenFiles).toBeGreaterThan(COVERED.requests / 10);
  });

  it("after incremental updates, with reader statistics made before them", async () => {
    await fc.assert(
      fc.asyncProperty(siteSpec, siteSpec, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), fc.array(request, { minLength: 1, maxLength: 3 }), async (before, other, take, requests) => {
        // The site after: each page slot and snippet either kept or taken from `other`.
        const after: SiteSpec = {
          versioned: before.versioned,
          pages: before.pages.map((p, i) => (take[i] === true ? (other.pages[i] ?? null) : p)),
          md: before.md?.map((p, i) => (take[i] === true ? (other.md?.[i] ?? null) : p)),
          snippets: before.snippets.map((s, j) => (take[5 + j] === true ? (other.snippets[j] as FileSpec) : s)),
        };
        const first = siteOf(before);
        const index = indexOf(first);
        // Every reader class searches once before the update, so its statistics exist and must follow it.
        for (const [, reader] of READERS) index.search({ query: "setup webhook", canRead: (a) => canRead(a, reader, "partial") });
        index.sync(inlineSite(files(after), docsJson(after), first));
        const own = new Map<string, SearchIndex>();
        for (const [, reader] of READERS) await expectSameAsOwnSite(index, after, reader, "partial", requests, own);
      }),
      propertyParams(60),
    );
  });
});
