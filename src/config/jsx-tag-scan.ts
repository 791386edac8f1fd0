/**
 * Where a JSX tag written in MDX ends, read as JSX reads it: quoted and braced attribute values
 * over lines, braces nested to any depth, strings, template literals and comments inside them,
 * and elements inside them (`icon={<Icon name="x" />}`, over lines too). A regular expression
 * knew braces two deep and took a line of an attribute starting with `<` for a tag's start
 * (adversary round 50 F4). What it cannot read ends nothing: its caller keeps the page as it is.
 */

/** How deep elements and braces may nest inside one tag before it is taken as unread: a page is
 *  an author's input, and each level is a frame of the thread answering every reader. */
const MAX_NESTING = 64;

/** A tag read from `<`: the index after its `>`, and whether it closes itself (`/>`). */
export interface ScannedTag {
  readonly end: number;
  readonly selfClosing: boolean;
}

const NAME_START_RE = /[A-Za-z_$]/;
const NAME_RE = /[\w:.$-]*/y;
const ATTRIBUTE_NAME_RE = /[\w:.$-]+/y;
const SPACE_RE = /\s*/y;

/** The opening or self-closing tag (or fragment `<>`) starting at `s[at] === "<"`, or undefined when it is none or not closed. */
export function scanTag(s: string, at: number): ScannedTag | undefined {
  return tagAt(s, at, 0);
}

function tagAt(s: string, at: number, nesting: number): ScannedTag | undefined {
  if (nesting > MAX_NESTING || s[at] !== "<") return undefined;
  let i = at + 1;
  if (s[i] !== ">") {
    if (!NAME_START_RE.test(s[i] ?? "")) return undefined;
    i = stickyEnd(NAME_RE, s, i);
  }
  for (;;) {
    i = stickyEnd(SPACE_RE, s, i);
    const c = s[i];
    if (c === ">") return { end: i + 1, selfClosing: false };
    if (c === "/" && s[i + 1] === ">") return { end: i + 2, selfClosing: true };
    if (c === "{") {
      // A spread or a comment: `{...props}`, `{/* why */}`.
      const next = bracesEnd(s, i, nesting + 1);
      if (next === undefined) return undefined;
      i = next;
      continue;
    }
    ATTRIBUTE_NAME_RE.lastIndex = i;
    if (!ATTRIBUTE_NAME_RE.test(s)) return undefined;
    i = stickyEnd(SPACE_RE, s, ATTRIBUTE_NAME_RE.lastIndex);
    if (s[i] !== "=") continue;
    i = stickyEnd(SPACE_RE, s, i + 1);
    const v = s[i];
    let next: number | undefined;
    // JSX attribute strings have no escapes and may hold line breaks.
    if (v === '"' || v === "'") next = s.indexOf(v, i + 1) + 1 || undefined;
    else if (v === "{") next = bracesEnd(s, i, nesting + 1);
    else if (v === "<") next = elementEnd(s, i, nesting + 1);
    if (next === undefined) return undefined;
    i = next;
  }
}

/** The index after the `}` matching `s[at] === "{"`, reading JavaScript (and JSX) between. */
function bracesEnd(s: string, at: number, nesting: number): number | undefined {
  if (nesting > MAX_NESTING) return undefined;
  let i = at + 1;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === "}") return i + 1;
    if (c === "{") {
      const next = bracesEnd(s, i, nesting + 1);
      if (next === undefined) return undefined;
      i = next;
    } else if (c === '"' || c === "'") {
      const next = stringEnd(s, i);
      if (next === undefined) return undefined;
      i = next;
    } else if (c === "`") {
      const next = templateEnd(s, i, nesting + 1);
      if (next === undefined) return undefined;
      i = next;
    } else if (c === "/" && s[i + 1] === "/") {
      const nl = s.indexOf("\n", i);
      i = nl === -1 ? s.length : nl;
    } else if (c === "/" && s[i + 1] === "*") {
      const close = s.indexOf("*/", i + 2);
      if (close === -1) return undefined;
      i = close + 2;
    } else if (c === "<" && (NAME_START_RE.test(s[i + 1] ?? "") || s[i + 1] === ">")) {
      // An element where an expression may stand; `a < b` has a space and is no tag. What reads
      // as neither ends nothing, so no scan is repeated from inside a failed one.
      const next = elementEnd(s, i, nesting + 1);
      if (next === undefined) return undefined;
      i = next;
    } else i++;
  }
  return undefined;
}

/** The index after the quote closing the JavaScript string opened at `at` (escapes read). */
function stringEnd(s: string, at: number): number | undefined {
  const quote = s[at];
  for (let i = at + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === quote) return i + 1;
    else if (s[i] === "\n") return undefined;
  }
  return undefined;
}

/** The index after the backtick closing the template literal opened at `at`, `${...}` read as braces. */
function templateEnd(s: string, at: number, nesting: number): number | undefined {
  let i = at + 1;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") i += 2;
    else if (c === "`") return i + 1;
    else if (c === "$" && s[i + 1] === "{") {
      const next = bracesEnd(s, i + 1, nesting + 1);
      if (next === undefined) return undefined;
      i = next;
    } else i++;
  }
  return undefined;
}

/** The index after the element starting at `s[at] === "<"`: its tag, and for an opening tag its children and closing tag. */
function elementEnd(s: string, at: number, nesting: number): number | undefined {
  const tag = tagAt(s, at, nesting);
  if (tag === undefined) return undefined;
  if (tag.selfClosing) return tag.end;
  let i = tag.end;
  while (i < s.length) {
    const c = s[i];
    if (c === "<" && s[i + 1] === "/") {
      const close = s.indexOf(">", i);
      return close === -1 ? undefined : close + 1;
    }
    let next: number | undefined = i + 1;
    if (c === "{") next = bracesEnd(s, i, nesting + 1);
    else if (c === "<") next = elementEnd(s, i, nesting + 1);
    if (next === undefined) return undefined;
    i = next;
  }
  return undefined;
}

function stickyEnd(re: RegExp, s: string, at: number): number {
  re.lastIndex = at;
  return re.test(s) ? re.lastIndex : at;
}
