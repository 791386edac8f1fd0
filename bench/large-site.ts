/**
 * Generate a large site shaped like real versioned documentation, for the size bench and the
 * ready bench (`bench/size.bench.ts`, `bench/ready.ts`). Text comes from a shared corpus; nothing
 * is fetched.
 *
 *   npx tsx bench/large-site.ts versioned OUT [--pages N] [--versions V] [--corpus DIR]
 *   npx tsx bench/large-site.ts distinct OUT [--pages N] [--corpus DIR] [--reword P] [--footer]
 *
 * `versioned`: languages × versions (default 4 × 35), each version the previous one with a few
 * edited lines, like a real site whose every release copies the docs (checked against a real one:
 * crewAI's docs, 24,803 pages in 4 languages × 35 versions, ~1,700 distinct files). Languages
 * other than the first get their own text (words rewritten), as translations do.
 * `distinct`: N pages, every one a different text (copies of the corpus with sentences mixed
 * between pages and a few words of their own), under plain groups. Their sections are the
 * corpus's, copied: with `--reword P` every copy after the first also has each prose word of four
 * or more letters replaced, with probability P, by a word drawn from the corpus's words (as often
 * as the corpus uses it), so that copies differ in every section and no longer tie in ranking, as
 * the pages of a real large site do not, while the vocabulary stays the corpus's. With `--footer`
 * every page imports and inlines one footer snippet, as most of a real 988-page site's do.
 */
import { mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import fg from "fast-glob";

const LANGUAGES = ["en", "pt-BR", "ko", "ar"];

interface SourcePage {
  readonly path: string;
  readonly text: string;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sourcePages(corpus: string): SourcePage[] {
  return fg
    .sync("**/*.mdx", { cwd: corpus, ignore: ["**/node_modules/**", "**/snippets/**"] })
    .sort()
    .map((path) => ({ path: path.replace(/\.mdx$/, ""), text: readFileSync(join(corpus, path), "utf8").replace(/^import .*$/gm, "") }));
}

/** A translation stand-in: every word of the body rewritten the same way for one language, so a
 *  language's pages share nothing with another's but keep their shape. */
function translate(text: string, language: number): string {
  if (language === 0) return text;
  const [front, body] = splitFrontMatter(text);
  const suffix = ["", "ão", "요", "ية"][language] ?? "x";
  return front + body.replace(/(?<![<{/\w.-])([A-Za-z]{4,})(?![\w(=])/g, (w) => w + suffix);
}

function splitFrontMatter(text: string): [string, string] {
  const m = /^---\n[\s\S]*?\n---\n/.exec(text);
  return m === null ? ["", text] : [m[0], text.slice(m[0].length)];
}

function write(out: string, path: string, text: string): void {
  const file = join(out, `${path}.mdx`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function versioned(out: string, pages: SourcePage[], versions: number): number {
  const rand = random(42);
  const languages = LANGUAGES.map((language, li) => {
    let texts = pages.map((p) => translate(p.text, li));
    const list = [];
    for (let v = versions; v >= 1; v--) {
      const version = `v1.${v}.0`;
      // Each release edits a few pages: a line added at the end.
      texts = texts.map((t) => (rand() < 0.03 ? `${t}\n\nChanged in ${version}: the ${pages[Math.floor(rand() * pages.length)]!.path.split("/").pop()} options moved.\n` : t));
      texts.forEach((t, i) => write(out, `${language}/${version}/${pages[i]!.path}`, t));
      list.push({ version, ...(v === versions ? { default: true } : {}), groups: groupsOf(pages.map((p) => `${language}/${version}/${p.path}`)) });
    }
    return { language, versions: list };
  });
  writeFileSync(join(out, "docs.json"), JSON.stringify({ $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Large versioned site", colors: { primary: "#0D9373" }, navigation: { languages } }, null, 2));
  return pages.length * versions * LANGUAGES.length;
}

/** `text`'s prose words (outside front matter and code fences) replaced with probability `p` by words of `words`. */
function reword(text: string, p: number, words: readonly string[], rand: () => number): string {
  const [front, body] = splitFrontMatter(text);
  let fenced = false;
  const lines = body.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return line;
    return line.replace(/(?<![<{/\w.-])([A-Za-z]{4,})(?![\w(=])/g, (w) => (rand() < p ? (words[Math.floor(rand() * words.length)] as string) : w));
  });
  return front + lines.join("\n");
}

/** The footer snippet's text (a real site's: a help line with links). */
const FOOTER = "Need help? Reach the team on [Discord](https://example.com/discord) or write to support, and read the [changelog](/changelog) for what changed in this release.\n";

/** `text` importing the footer snippet after its front matter and inlining it at its end. */
function withFooter(text: string): string {
  const [front, body] = splitFrontMatter(text);
  return `${front}import Footer from "/snippets/footer.mdx";\n\n${body}\n\n<Footer />\n`;
}

function distinct(out: string, pages: SourcePage[], count: number, rewordShare: number, footer = false): number {
  const rand = random(7);
  const words = rewordShare > 0 ? pages.flatMap((p) => splitFrontMatter(p.text)[1].match(/(?<![<{/\w.-])[a-z]{4,}(?![\w(=])/g) ?? []) : [];
  const sentences = pages.flatMap((p) => splitFrontMatter(p.text)[1].split(/(?<=\.)\s+(?=[A-Z])/).filter((s) => s.length > 40 && !/[<{}`|]/.test(s)));
  const paths: string[] = [];
  for (let n = 0; n < count; n++) {
    const copy = Math.floor(n / pages.length);
    const page = pages[n % pages.length]!;
    const path = copy === 0 ? page.path : `copy-${copy}/${page.path}`;
    const mixed = Array.from({ length: 3 }, () => sentences[Math.floor(rand() * sentences.length)]).join(" ");
    const text = copy > 0 && rewordShare > 0 ? reword(page.text, rewordShare, words, rand) : page.text;
    const whole = `${text}\n\n## Notes for release ${copy}\n\n${mixed}\n`;
    write(out, path, footer ? withFooter(whole) : whole);
    paths.push(path);
  }
  if (footer) write(out, "snippets/footer", FOOTER);
  const groups = [];
  for (let i = 0; i < paths.length; i += 200) groups.push({ group: `Part ${i / 200 + 1}`, pages: paths.slice(i, i + 200) });
  writeFileSync(join(out, "docs.json"), JSON.stringify({ $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Large distinct site", colors: { primary: "#0D9373" }, navigation: { groups } }, null, 2));
  return count;
}

/** Groups by the first folder of each path, in order. */
function groupsOf(paths: string[]): { group: string; pages: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const p of paths) {
    const parts = p.split("/");
    const key = parts[2] ?? "pages";
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups].map(([group, pages]) => ({ group, pages }));
}

function main(): void {
  const [mode, out, ...rest] = process.argv.slice(2);
  const flag = (name: string): string | undefined => {
    const i = rest.indexOf(`--${name}`);
    return i === -1 ? undefined : rest[i + 1];
  };
  if ((mode !== "versioned" && mode !== "distinct") || out === undefined) {
    console.error("usage: large-site.ts versioned|distinct OUT [--pages N] [--versions V] [--corpus DIR] [--reword P] [--footer]");
    process.exit(2);
  }
  const corpus = flag("corpus") ?? join(import.meta.dirname, "../../shared/corpora/spree");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const all = sourcePages(corpus);
  const made =
    mode === "versioned"
      ? versioned(out, all.slice(0, Number(flag("pages") ?? 178)), Number(flag("versions") ?? 35))
      : distinct(out, all, Number(flag("pages") ?? 50_000), Number(flag("reword") ?? 0), rest.includes("--footer"));
  console.error(`${made} pages in ${relative(process.cwd(), out) || out}`);
}

main();
