import { createRequire } from "node:module";
import type matterType from "gray-matter";
import { LIMITS } from "../limits.js";
import { expandedSize } from "./expanded-size.js";
import { mayHoldRule } from "./front-matter-rule-words.js";
import { BOM_INSIDE, frontMatterLead, frontMatterLeadWarning } from "./frontmatter-lead.js";
import { wideEncoding } from "./text-encoding.js";
import { isStackOverflow } from "./stack-overflow.js";

/**
 * gray-matter, loaded when a page's front matter is first parsed: a start from the site cache
 * (`site-cache.ts`) parses none, and loading it with the js-yaml it carries was ~60 ms of CPU of
 * such a start of a 25,000-page site. In the bundle this `require` is esbuild's own, which
 * evaluates the bundled module where it is called (scripts/bundle-plugins.mjs, `BUNDLED_REQUIRES`).
 */
let loaded: typeof matterType | undefined;
function matter(...args: Parameters<typeof matterType>): ReturnType<typeof matterType> {
  loaded ??= createRequire(import.meta.url)("gray-matter") as typeof matterType;
  return loaded(...args);
}

/** Front matter of a page, as parsed (unknown keys are kept; the typed keys are read by `pageMeta`). */
export type FrontMatterData = Record<string, unknown>;

export type FrontMatterResult =
  | { ok: true; data: FrontMatterData; body: string; bodyLine: number }
  | { ok: false; message: string; line?: number };

function refuse(lang: string): never {
  throw new Error(`front matter language "${lang}" is not allowed (only YAML and JSON are parsed)`);
}

// gray-matter `eval`s `---js` front matter with its default engines: a page in a repository
// could run code on the docs server. Replace those engines with ones that refuse.
const SAFE_OPTIONS = {
  engines: {
    js: () => refuse("js"),
    javascript: () => refuse("javascript"),
    coffee: () => refuse("coffee"),
    coffeescript: () => refuse("coffeescript"),
  },
};

/** Why front matter opened by `---` with no closing `---` line is not read. */
export const UNCLOSED = "the --- that opens it has no closing --- line";

/** A line front matter holds: a YAML key (`title:`, `"og:image":`), a list item, a comment. */
const YAML_LINE = /^[ \t]*(?:#|-[ \t]|[\w"'$][^\n]*?:(?:[ \t]|$))/;

/**
 * Whether a text opened by `---` with no closing `---` line is a page that starts with a
 * thematic break rather than front matter cut short: the opening line is `---` alone, a blank
 * line follows, and the first line with text after it is no YAML (`<Card ...>`, prose). The
 * platform's MDX parser reads an unclosed fence as a rule (portkey's footer snippet, `---`, a
 * blank line and a `<Card>`, is shown under 791 pages); any other text stays a page cut short,
 * refused (adversary round 57 F2: its `groups` may be still to come; a write cut inside its first
 * key, `---\ntitl`, is no YAML line yet, hence the blank line asked for).
 */
function opensWithRule(text: string): boolean {
  const firstEnd = text.indexOf("\n");
  if (firstEnd === -1 || text.slice(0, firstEnd).replace(/[ \t\r]+$/, "") !== "---") return false;
  const lines = text.slice(firstEnd + 1).split("\n", 64);
  if ((lines[0] ?? "").trim() !== "") return false;
  for (const line of lines) {
    if (line.trim() === "") continue;
    return !YAML_LINE.test(line);
  }
  return false;
}

/** A CR not followed by LF: a line end in a file saved with classic Mac line ends, which
 *  CommonMark (and so MDX and the platform) reads as one. */
const LONE_CR = /\r(?!\n)/g;

/**
 * Where the closing `---` of front matter starts, less one (its line end): the first `\n---`,
 * or `\r---` in a file whose lines end in a lone CR (its page was read as all front matter and
 * no body before, and found by no search: adversary, 2026-12-04). -1 when there is none.
 */
function closingDelimiter(text: string): number {
  const lf = text.indexOf("\n---", 3);
  const cr = text.indexOf("\r---", 3);
  return cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
}

/**
 * gray-matter's split of a text, given only the text up to its closing delimiter when it has one:
 * it copies what it is given into a Buffer (`file.orig`) and looks it up as a property name,
 * which for a whole page was most of parsing the front matter of a large site (issue 22: ~9 s
 * of a 50,000-page load's CPU, and as many bytes again to collect). The body after the
 * delimiter is cut as gray-matter cuts it (one `\r`, then one `\n`). Where it would read the
 * text otherwise (`----` opening, no closing delimiter) it gets the whole text.
 */
function matterOf(text: string): { data: unknown; content: string } {
  // gray-matter's closing delimiter: the first `\n---` after the opening one (the language name
  // it may read after `---` holds no line break, so it is never inside it).
  const close = text.charAt(3) === "-" ? -1 : closingDelimiter(text);
  if (close === -1) {
    const file = matter(text, SAFE_OPTIONS);
    return { data: file.data, content: file.content };
  }
  const end = close + 4;
  // Lines ended by a lone CR read as lines by YAML too (gray-matter looks for `\n` alone); the
  // same length, so `end` is where it was.
  const cut = text.slice(0, end);
  // A U+FEFF inside front matter would make `\uFEFFgroups` a key of its own, and the page's
  // `groups` unread: it is dropped (`check` warns, `frontMatterLeadWarning`).
  const head = cut.includes("\uFEFF") ? cut.replace(BOM_INSIDE, "") : cut;
  const file = matter(head.includes("\r") ? head.replace(LONE_CR, "\n") : head, SAFE_OPTIONS);
  let at = end;
  if (text.charCodeAt(at) === 13) at++;
  if (text.charCodeAt(at) === 10) at++;
  return { data: file.data, content: text.slice(at) };
}

/** Split a page into front matter and body. A YAML error is a result, never an exception. */
export function parseFrontMatter(source: string): FrontMatterResult {
  // A file saved as UTF-16 or UTF-32 is no text here: whatever front matter it has is unread, and
  // could hold `groups` (adversary round 61 F2). Refused, so a reload keeps its last good version.
  const wide = wideEncoding(source);
  if (wide !== undefined) return { ok: false, message: `the file is saved as ${wide}; pages are read as UTF-8: save it as UTF-8`, line: 1 };
  // A byte order mark (left by some Windows editors) would hide the front matter; the platform
  // reads past it. More before the opening `---` (a second mark, blank lines, spaces or tabs)
  // makes the platform show the front matter as text; here it is still read as the page's, so
  // that its `groups` apply (`frontMatterLead`).
  const lead = frontMatterLead(source);
  if (lead.more === undefined) return parseAfterLead(lead.at === 0 ? source : source.slice(lead.at));
  const parsed = parseAfterLead(source.slice(lead.at));
  // Keys read: the page's. None (front matter empty or only comments): nothing there could
  // restrict the page, so it is read as the platform reads it, all body. YAML that is no mapping
  // (prose between two rules, a list) was read so too, and a list `- groups: [staff]` opened the
  // page; it is refused above, as without a lead (adversary round 65 F1).
  if (!parsed.ok) return parsed.line === undefined ? parsed : { ...parsed, line: parsed.line + countLines(source, lead.at) - 1 };
  if (Object.keys(parsed.data).length > 0) return { ...parsed, bodyLine: countLines(source, source.length - parsed.body.length) };
  return { ok: true, data: {}, body: source, bodyLine: 1 };
}

/**
 * What the opening `---` line holds after the `---` when it is neither white space nor a language
 * name (`---yaml`, `---js`: gray-matter's, read or refused as such): gray-matter takes the rest of
 * that line as a language and drops it, so `---\u2028groups: [staff]` (a line separator, which
 * editors show as a line break) read as front matter without its `groups`, and the page was every
 * reader's. The platform shows such a page as text; here it is refused, as front matter that does
 * not parse is (fail closed; adversary round 63, the opening-line shape of F2).
 */
function openingLineExtra(text: string): string | undefined {
  if (text.charAt(3) === "-") return undefined;
  // A line ends at `\n`, `\r\n` or a lone `\r` (old Mac files: their front matter is read as lines too, `matterOf`).
  const eol = text.slice(3).search(/[\r\n]/);
  const rest = (eol === -1 ? text.slice(3) : text.slice(3, 3 + eol)).replace(/[ \t]+$/, "");
  if (rest === "" || /^[ \t]*[A-Za-z][\w-]*$/.test(rest)) return undefined;
  return rest.length > 40 ? `${rest.slice(0, 40)}...` : rest;
}

/** `parseFrontMatter` of a text that starts with its opening `---`, if any. */
function parseAfterLead(text: string): FrontMatterResult {
  // Fast path: most pages start with `---`; pages without front matter skip the parser.
  if (!text.startsWith("---")) return { ok: true, data: {}, body: text, bodyLine: 1 };
  // Opened and never closed: gray-matter would read the whole file as front matter. That is a
  // page cut short, most often the first part of a write in progress (`cmd > page.mdx`), whose
  // keys that restrict it (`groups`) may not be written yet: broken, so a reload keeps the last
  // good version and a new file is not served (adversary round 57 F2).
  const opening = openingLineExtra(text);
  if (opening !== undefined) return { ok: false, message: `the line that opens it holds more than ---: ${JSON.stringify(opening)}; write --- alone on the first line`, line: 1 };
  if (text.charAt(3) !== "-" && closingDelimiter(text) === -1) {
    return opensWithRule(text) ? { ok: true, data: {}, body: text, bodyLine: 1 } : { ok: false, message: UNCLOSED, line: 1 };
  }
  try {
    // Passing options also turns off gray-matter's global content cache (an unbounded memory leak
    // for a long-running watcher).
    const { data: parsed, content } = matterOf(text);
    // Empty front matter, or only comments, is none.
    const data = (parsed ?? {}) as unknown;
    // YAML that is no mapping (a list `- groups: [staff]`, a quoted `'groups: [staff]'`, a string
    // such as `标题：《快速入门》` with a full-width colon, a number) sets no key, yet may be a
    // rule written wrongly: read as none, it served the page to every reader (adversary round 65
    // F1). A rule that cannot be read restricts to no reader, so such front matter that may hold
    // one is refused as YAML that does not parse is: a reload keeps the last good version, a new
    // file is not served. Without a rule word it is read as none (a page written with full-width
    // colons, one string to YAML, stays served, as on the platform).
    const shape = shapeOf(data);
    if (shape !== undefined && mayHoldRule(text.slice(0, text.length - content.length))) return { ok: false, message: notKeys(shape), line: 1 };
    // Only an anchor (`&name`) lets a value be used twice; without one the tree is no larger
    // than its text, and the walk is skipped.
    const tooLarge = shape !== undefined || text.lastIndexOf("&", text.length - content.length) === -1 ? undefined : overLimit(data as object);
    if (tooLarge !== undefined) return { ok: false, message: tooLarge };
    const bodyOffset = text.length - content.length;
    const bodyLine = countLines(text, bodyOffset);
    // No mapping and no rule in it: read as none, as the platform reads it (`check` says so: `frontMatterShape`).
    return { ok: true, data: (shape === undefined ? data : {}) as FrontMatterData, body: content, bodyLine };
  } catch (error) {
    // js-yaml reads nesting recursively: a value thousands deep overflows its stack.
    if (isStackOverflow(error)) return { ok: false, message: "arrays and objects nested too deeply to read" };
    const err = error as { message?: string; mark?: { line?: number }; reason?: string };
    // gray-matter hands js-yaml the text after the opening `---` (starting with its newline), so
    // a 0-based YAML line is the 1-based file line minus one.
    const line = typeof err.mark?.line === "number" ? err.mark.line + 1 : undefined;
    const reason = err.reason ?? firstLine(err.message ?? String(error));
    const hint = line !== undefined ? colonHint(text, line) : undefined;
    // The hint replaces js-yaml's reason, which names YAML internals ("explicit mapping pair").
    const message = hint ?? reason;
    return line === undefined ? { ok: false, message } : { ok: false, message, line };
  }
}

/** What parsed front matter is when it is no mapping of keys to values ("a list", "a string", "a number"...); undefined for a mapping. */
function shapeOf(read: unknown): string | undefined {
  if (Array.isArray(read)) return "a list";
  // A date (`2024-01-01`) or `!!binary` alone is an object with no keys: no mapping either.
  if (read instanceof Date) return "a date";
  if (ArrayBuffer.isView(read)) return "binary data";
  if (typeof read === "object" && read !== null) return undefined;
  return typeof read === "string" ? "a string" : `a ${typeof read}`;
}

/**
 * What a page's front matter is when it is no mapping of keys to values and holds no rule, and so
 * was read as none (`parseFrontMatter`): "a string", "a list", "a number"...; undefined for a
 * mapping, none, or front matter that cannot be read or is refused (with its own message).
 */
export function frontMatterShape(source: string): string | undefined {
  const text = source.slice(frontMatterLead(source).at);
  if (!text.startsWith("---")) return undefined;
  if (closingDelimiter(text) === -1 && opensWithRule(text)) return undefined;
  try {
    return shapeOf(matterOf(text).data ?? {});
  } catch {
    return undefined;
  }
}

/** Why front matter that is no mapping is refused, and what to write instead. */
function notKeys(shape: string): string {
  return `it is ${shape}, not keys with values, so a rule in it (\`groups\`) cannot be read and the page is served to no reader: write each key as \`key: value\` (\`title: Setup\`, \`groups: [staff]\`)`;
}

/**
 * `check`'s warning for a page whose front matter is read here but not by the platform: after
 * more than a byte order mark, or holding U+FEFF (`frontMatterLeadWarning`); undefined otherwise.
 */
export function frontMatterWarning(source: string): string | undefined {
  const lead = frontMatterLead(source);
  const text = lead.at === 0 ? source : source.slice(lead.at);
  if (!text.startsWith("---") || text.charAt(3) === "-") return undefined;
  const close = closingDelimiter(text);
  return close === -1 ? undefined : frontMatterLeadWarning(lead, text.slice(0, close + 4));
}

/** Why front matter is refused for its size read as a tree (aliases inside aliases), if it is. */
function overLimit(data: object): string | undefined {
  const max = LIMITS.load.maxFrontMatterValues;
  const size = expandedSize(data, max, LIMITS.load.frontMatterCharsPerValue);
  if (!size.over) return undefined;
  const key = size.at[0];
  const where = key === undefined ? "" : ` (at "${key}")`;
  return `it would hold more than ${max} values (a value per ${LIMITS.load.frontMatterCharsPerValue} characters of text) once its YAML aliases are copied out${where}; write the values without aliases`;
}

/** `title: Setup: the basics` is the most common YAML slip in front matter (YAML reads the
 *  second ": " as a nested key); js-yaml's message does not say so. */
function colonHint(text: string, line: number): string | undefined {
  const src = text.split("\n", line)[line - 1]?.replace(/\r$/, "");
  if (src === undefined) return undefined;
  const m = /^(\s*[A-Za-z_][\w-]*):[ \t]+([^'"\s[{|>&*!][^#]*?:[ \t].*)$/.exec(src);
  if (m === null) return undefined;
  return `a value holding ": " must be quoted: ${(m[1] as string).trim()}: ${JSON.stringify((m[2] as string).trim())}`;
}

function countLines(text: string, end: number): number {
  let lines = 1;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines;
}

function firstLine(s: string): string {
  const i = s.indexOf("\n");
  return i === -1 ? s : s.slice(0, i);
}
