/**
 * A page importing files a reader may not read is, for that reader, byte for byte the page as it
 * would have been written without those imports (and without the tags using them), on the site
 * without those files: wherever the imports and tags stand (first, between others, last, one
 * after another, with blank lines or comments between), the bytes left tell nothing (finding
 * 27: a page whose restricted imports came after the last one a reader could read kept one
 * trailing blank line, 160 bytes against 159 on the site without them).
 *
 * Reference: the page rendered from the same blocks without the restricted ones. Checked: the
 * file's text and size (`cat`, `wc -c`, `ls -l`, `stat` read these), the page (title, body:
 * what the page views show) and search (hits, sections, snippets, scores).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMdx } from "../../src/engine/render/parse-mdx.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { type SearchHit, SearchIndex } from "../../src/engine/search/search-index.js";
import { ALL_ACCESS, ANONYMOUS, canRead, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import type { Site } from "../../src/vfs/site.js";
import { siteVariants } from "../../src/vfs/site-variants.js";
import { SiteView } from "../../src/vfs/view.js";
import { propertyParams } from "../helpers/property.js";
import { inlineSite } from "../tools/search/inline-site.js";

type Rule = "none" | "a" | "b" | "ab" | "public";
const WORDS = ["setup", "webhook", "payment", "refund", "vault", "token", "retry", "agent", "install", "quokka"];
const word = fc.constantFrom(...WORDS);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((ws) => ws.join(" "));

/** A use of snippet `n` in the body: alone on its line(s) (self-closing, with an attribute,
 *  children on one line or over several, in a JSX expression), or inline in a paragraph (start,
 *  middle, end), a list item or a table cell. */
type Use = { readonly n: number; readonly form: "bare" | "attr" | "children" | "lines" | "expr" };
type Block =
  | { readonly heading: string }
  | { readonly para: readonly (string | Use)[]; readonly stop: boolean }
  | { readonly list: readonly (readonly (string | Use)[])[]; readonly ordered: boolean }
  | { readonly table: readonly (readonly [string, string | Use])[] }
  | { readonly card: number }
  | { readonly codeSpan: number }
  | { readonly code: string }
  | { readonly use: Use }
  | { readonly comment: string };
/** An ESM block's line: an import of snippet `n` (default or named), or a comment. */
type EsmLine = { readonly n: number; readonly named: boolean; readonly trailing?: string } | { readonly comment: string; readonly block: boolean };

interface PageSpec {
  readonly rule: Rule;
  readonly frontMatter: boolean;
  /** A blank line between the front matter and the body. */
  readonly gap: boolean;
  readonly esm: readonly (readonly EsmLine[])[];
  readonly blocks: readonly Block[];
  /** The last line ends with a line break. */
  readonly eol: boolean;
}
interface SiteSpec {
  readonly snippets: readonly Rule[];
  readonly pages: readonly PageSpec[];
}

const rule = fc.constantFrom<Rule>("none", "a", "b", "ab", "public");
const use = fc.record({ n: fc.nat(3), form: fc.constantFrom<Use["form"]>("bare", "attr", "children", "lines", "expr") });
/** A use within a line of its own: a list item or a table cell (not over lines). */
const lineUse = fc.record({ n: fc.nat(3), form: fc.constantFrom<Use["form"]>("bare", "attr", "children", "expr") });
const item = fc
  .tuple(words(0, 2), fc.option(fc.tuple(lineUse, fc.nat(2)), { nil: undefined }))
  .filter(([text, u]) => text !== "" || u !== undefined)
  .map(([text, u]): readonly (string | Use)[] => {
    const tokens: (string | Use)[] = text === "" ? [] : text.split(" ");
    if (u !== undefined) tokens.splice(u[1] % (tokens.length + 1), 0, u[0]);
    return tokens;
  });
const paragraph = fc
  .tuple(words(1, 4), fc.array(fc.tuple(use, fc.nat(3)), { maxLength: 2 }))
  .map(([text, uses]): readonly (string | Use)[] => {
    const tokens: (string | Use)[] = text.split(" ");
    // A use at the start, the end or between words.
    for (const [u, at] of uses) tokens.splice(at % (tokens.length + 1), 0, u);
    return tokens;
  });
const block = fc.oneof(
  words(1, 3).map((heading): Block => ({ heading })),
  fc.tuple(paragraph, fc.boolean()).map(([para, stop]): Block => ({ para, stop })),
  fc.record({ list: fc.array(item, { minLength: 1, maxLength: 4 }), ordered: fc.boolean() }).map((b): Block => b),
  fc.array(fc.tuple(word, fc.oneof(word, lineUse)), { minLength: 1, maxLength: 3 }).map((table): Block => ({ table })),
  fc.nat(3).map((card): Block => ({ card })),
  fc.nat(3).map((codeSpan): Block => ({ codeSpan })),
  words(1, 3).map((code): Block => ({ code })),
  use.map((u): Block => ({ use: u })),
  use.map((u): Block => ({ use: u })),
  words(1, 2).map((comment): Block => ({ comment })),
);
const esmLine = fc.oneof(
  fc.record({ n: fc.nat(3), named: fc.boolean(), trailing: fc.constantFrom("// why", "/* why */") }, { requiredKeys: ["n", "named"] }).map((l): EsmLine => l),
  fc.record({ n: fc.nat(3), named: fc.boolean() }).map((l): EsmLine => l),
  fc.record({ comment: words(1, 2), block: fc.boolean() }).map((l): EsmLine => l),
);
const pageSpec = fc.record({
  rule: fc.constantFrom<Rule>("none", "none", "public", "a"),
  frontMatter: fc.boolean(),
  gap: fc.boolean(),
  // An ESM block starts with an import (MDX reads a paragraph as ESM by its first line).
  esm: fc.array(
    fc.tuple(fc.record({ n: fc.nat(3), named: fc.boolean() }), fc.array(esmLine, { maxLength: 3 })).map(([first, rest]): EsmLine[] => [first, ...rest]),
    { minLength: 0, maxLength: 3 },
  ),
  blocks: fc.array(block, { minLength: 0, maxLength: 6 }),
  eol: fc.boolean(),
});
const siteSpec = fc.record({ snippets: fc.array(rule, { minLength: 4, maxLength: 4 }), pages: fc.array(pageSpec, { minLength: 1, maxLength: 3 }) });

function frontMatter(r: Rule, title: string | undefined): string {
  const lines = [...(title !== undefined ? [`title: ${title}`] : []), ...(r === "public" ? ["public: true"] : r === "none" ? [] : [`groups: [${r === "ab" ? "a, b" : r}]`])];
  return lines.length === 0 ? "" : `---\n${lines.join("\n")}\n---\n`;
}

const tagName = (n: number, named: boolean): string => (named ? `N${n}` : `S${n}`);

/**
 * A page's text with only the snippets `keep` says: an ESM block with no import left goes with
 * its comments, a block that uses a snippet left out goes, an inline use goes from its paragraph.
 * A use names the first import of its snippet (or the default name when there is none: a tag
 * of a name nothing imports is kept by every reader).
 */
function renderPage(spec: PageSpec, keep: (n: number) => boolean): string {
  const names = new Map<number, string>();
  for (const line of spec.esm.flat()) if ("n" in line && !names.has(line.n)) names.set(line.n, tagName(line.n, line.named));
  const kept = (u: Use): boolean => !names.has(u.n) || keep(u.n);
  const tag = (u: Use): string => {
    const name = names.get(u.n) ?? tagName(u.n, false);
    switch (u.form) {
      case "bare":
        return `<${name} />`;
      case "attr":
        return `<${name} title="vault setup" />`;
      case "children":
        return `<${name}>refund token</${name}>`;
      case "lines":
        return `<${name}>\n  retry agent\n</${name}>`;
      case "expr":
        return `{true && <${name} title="agent" />}`;
    }
  };
  const nameOf = (n: number): string => names.get(n) ?? tagName(n, false);
  /** Tokens without the uses left out, joined; `undefined` when only such uses were there. */
  const line = (tokens: readonly (string | Use)[]): string | undefined => {
    const left = tokens.filter((t) => typeof t === "string" || kept(t));
    return left.length === 0 ? undefined : left.map((t) => (typeof t === "string" ? t : tag(t))).join(" ");
  };
  const esm = spec.esm
    .map((lines) => lines.filter((l) => !("n" in l) || keep(l.n)))
    .filter((lines) => lines.some((l) => "n" in l))
    .map((lines) =>
      lines
        .map((l) => {
          if ("comment" in l) return l.block ? `/* ${l.comment} */` : `// ${l.comment}`;
          const path = `/snippets/s${l.n}.mdx`;
          const statement = l.named ? `import { ${tagName(l.n, true)} } from '${path}'` : `import ${tagName(l.n, false)} from "${path}";`;
          return l.trailing !== undefined ? `${statement} ${l.trailing}` : statement;
        })
        .join("\n"),
    );
  const blocks = spec.blocks
    .map((b): string | undefined => {
      if ("heading" in b) return `## ${b.heading}`;
      if ("code" in b) return `\`\`\`\n${b.code}\n\`\`\``;
      if ("comment" in b) return `{/* ${b.comment} */}`;
      if ("use" in b) return kept(b.use) ? tag(b.use) : undefined;
      if ("card" in b) {
        const icon = kept({ n: b.card, form: "bare" }) ? ` icon={${nameOf(b.card)}}` : "";
        return `<Card title="vault"${icon}>\n  refund\n</Card>`;
      }
      if ("codeSpan" in b) return `Write \`<${nameOf(b.codeSpan)} />\` here.`;
      if ("list" in b) {
        // An item left empty goes, and a list numbered on stays so.
        const items = b.list.map(line).filter((l) => l !== undefined);
        return items.length === 0 ? undefined : items.map((l, i) => `${b.ordered ? `${i + 1}.` : "-"} ${l}`).join("\n");
      }
      if ("table" in b) {
        // A row with a cell left empty goes.
        const rows = b.table.map(([key, cell]) => [key, line([cell])] as const).filter(([, cell]) => cell !== undefined);
        return ["| Key | Value |", "| --- | --- |", ...rows.map(([key, cell]) => `| ${key} | ${cell as string} |`)].join("\n");
      }
      return `${line(b.para) as string}${b.stop ? "." : ""}`;
    })
    .filter((b) => b !== undefined);
  const body = [...esm, ...blocks].join("\n\n");
  const head = spec.frontMatter ? frontMatter(spec.rule, "Page") : frontMatter(spec.rule, undefined);
  return `${head}${head !== "" && spec.gap ? "\n" : ""}${body}${spec.eol && body !== "" ? "\n" : ""}`;
}

const ACCESS: Record<Rule, Record<string, unknown>> = { none: {}, public: { public: true }, a: { groups: ["a"] }, b: { groups: ["b"] }, ab: { groups: ["a", "b"] } };

/** The site: pages `/p<i>.mdx`, snippets `/snippets/s<n>.mdx` (each a line of text). */
function siteFiles(spec: SiteSpec, keep: (n: number) => boolean, pageReadable: (i: number) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  spec.pages.forEach((p, i) => {
    if (pageReadable(i)) out[`/p${i}.mdx`] = renderPage(p, keep);
  });
  spec.snippets.forEach((r, n) => {
    if (keep(n)) out[`/snippets/s${n}.mdx`] = `${frontMatter(r, undefined)}The quokka snippet ${n} about ${WORDS[n]}.\n`;
  });
  return out;
}

const READERS: readonly [string, Reader][] = [
  ["anonymous", ANONYMOUS],
  ["a", readerWithGroups(["a"])],
  ["b", readerWithGroups(["b"])],
  ["client credential", ALL_ACCESS],
];

/** What a reader reads of a site: each file's text and size, each page's title and body. */
async function readOf(site: Site, reader: Reader) {
  const view = new SiteView({ ...site, variants: await siteVariants(site, undefined, undefined) }, reader, "public");
  return {
    files: view.files.map((f) => [f.path, f.text, view.info(f.path)?.size]),
    pages: [...view.pages].map(([path, page]) => [path, page.title, page.body]),
  };
}

function shown(hits: readonly SearchHit[]) {
  return hits.map((h) => ({ path: h.page.path, section: h.section, score: h.score, snippet: h.snippet }));
}

describe("a page as a reader who may not read some of its imports reads it", () => {
  it("is the page written without them, on the site without their files: text, size, page, search", async () => {
    let differing = 0;
    await fc.assert(
      fc.asyncProperty(siteSpec, async (spec) => {
        const site = inlineSite(siteFiles(spec, () => true, () => true));
        const index = new SearchIndex();
        index.sync(site);
        const valid = new Set((await readOf(site, ALL_ACCESS)).pages.filter(([, , body]) => parseMdx(body as string).problem === undefined).map(([path]) => path as string));
        for (const [, reader] of READERS) {
          const may = (r: Rule): boolean => canRead(ACCESS[r], reader, "public");
          const keep = (n: number): boolean => may(spec.snippets[n] as Rule);
          const without = inlineSite(siteFiles(spec, keep, (i) => may((spec.pages[i] as PageSpec).rule)));
          const expected = await readOf(without, ALL_ACCESS);
          const got = await readOf(site, reader);
          expect(got).toEqual(expected);
          // A page that is MDX as written stays MDX: the HTML page renders it, not Markdown with a notice.
          for (const [path, , body] of got.pages) if (valid.has(path as string)) expect(parseMdx(body as string).problem, path as string).toBeUndefined();
          if (JSON.stringify(expected.files) !== JSON.stringify((await readOf(site, ALL_ACCESS)).files)) differing++;
          const own = new SearchIndex();
          own.sync(without);
          for (const query of ["quokka", "vault setup", "refund token", "retry agent", "webhook"]) {
            expect(shown(index.search({ query, pageSize: 10, canRead: (a) => canRead(a, reader, "public") }))).toEqual(shown(own.search({ query, pageSize: 10, canRead: () => true })));
          }
        }
      }),
      propertyParams(150),
    );
    // Most runs have a reader who reads the site otherwise than as written.
    expect(differing).toBeGreaterThan(150);
  });
});

describe("the adversary's page (finding 27), through the docs filesystem", () => {
  const WHEN = new Date("2026-11-28T10:00:00Z");
  const PAGE = (restricted: boolean): string =>
    [
      "---",
      "title: Setup",
      "---",
      'import Note from "/snippets/note.mdx"',
      ...(restricted ? ['import Secret from "/snippets/secret.mdx"', 'import Other from "/snippets/other.mdx"'] : []),
      "",
      "# Setup",
      "",
      "<Note />",
      ...(restricted ? ["", "<Secret />", "", "<Other>", "  More for staff.", "</Other>"] : []),
      "",
    ].join("\n");
  const SNIPPETS = {
    "snippets/note.mdx": "---\npublic: true\n---\nA note for everyone.\n",
    "snippets/secret.mdx": "---\ngroups: [staff]\n---\nThe staff secret.\n",
    "snippets/other.mdx": "---\ngroups: [staff]\n---\nMore.\n",
  };
  const dirs: string[] = [];
  const runtimes: DocsRuntime[] = [];
  async function load(files: Record<string, string>): Promise<DocsRuntime> {
    const dir = mkdtempSync(join(tmpdir(), "svc-mcp-import-layout-"));
    dirs.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
      utimesSync(join(dir, path), WHEN, WHEN);
    }
    const runtime = await DocsRuntime.load({ root: dir });
    runtimes.push(runtime);
    return runtime;
  }
  let withThem: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    withThem = await load({ "setup.mdx": PAGE(true), ...SNIPPETS });
    const { "snippets/secret.mdx": _s, "snippets/other.mdx": _o, ...rest } = SNIPPETS;
    without = await load({ "setup.mdx": PAGE(false), ...rest });
  });
  afterAll(async () => {
    await Promise.all(runtimes.map((r) => r.close()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("cat, wc -c, ls -l and stat answer an anonymous reader as on the site without the staff snippets", async () => {
    const command = "cat /setup.mdx; wc -c /setup.mdx; ls -l /setup.mdx; stat -c '%s %Y' /setup.mdx";
    const got = await withThem.readerState(localContext(ANONYMOUS)).shell.run(command);
    const size = PAGE(false).length;
    expect(got).toEqual({
      stdout: `${PAGE(false)}${size} /setup.mdx\n-r--r--r-- 1 root root ${size} Nov 28 10:00 /setup.mdx\n${size} ${WHEN.getTime() / 1000}\n`,
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
    expect(got).toEqual(await without.readerState(localContext(ANONYMOUS)).shell.run(command));
  });

  // An adversary's finding (2026-11-29): after a byte order mark, an import on the first line was
  // not read as one, so the restricted path and its tag stayed in the page.
  it("a page starting with a byte order mark and an import reads as the page without it", async () => {
    const page = (restricted: boolean): string => `\ufeff${restricted ? 'import Secret from "/snippets/secret.mdx"\n\n' : ""}Intro.\n${restricted ? "\n<Secret />\n" : ""}`;
    const bom = await load({ "bom.mdx": page(true), "snippets/secret.mdx": SNIPPETS["snippets/secret.mdx"] });
    const bomWithout = await load({ "bom.mdx": page(false) });
    const command = "cat /bom.mdx; wc -c /bom.mdx";
    const got = await bom.readerState(localContext(ANONYMOUS)).shell.run(command);
    expect(got).toEqual(await bomWithout.readerState(localContext(ANONYMOUS)).shell.run(command));
    expect(got.stdout).toBe(`${page(false).slice(1)}${Buffer.byteLength(page(false))} /bom.mdx\n`);
  });
});
