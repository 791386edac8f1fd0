/**
 * A JS regex source, as this shell's translators write it (`u` mode, see classes.ts), in
 * RE2's syntax, for the linear-time engine (linear.ts). Exact where the two differ: JS `.`
 * and `\s` become RE2 classes of the same characters, binary Unicode properties RE2 lacks
 * (`\p{Alphabetic}`, `\p{Join_Control}`) become the ranges V8 itself gives them, the line anchors
 * written as look-arounds become RE2's multi-line anchors. What RE2 cannot express (a
 * backreference, any other look-around, such as `-w`'s word assertions) is named instead.
 */

export type Re2Source = { readonly ok: true; readonly source: string } | { readonly ok: false; readonly construct: string };

/** Look-arounds our translators write whose meaning RE2 has as an anchor. */
const ANCHORS: ReadonlyArray<readonly [string, string]> = [
  ["(?:^|(?<=\\n))", "(?m:^)"],
  ["(?:$|(?=\\n))", "(?m:$)"],
  ["(?<![\\s\\S])", "\\A"],
  ["(?![\\s\\S])", "\\z"],
  // Matches nothing (no pattern at all).
  ["(?!)", "[^\\x00-\\x{10FFFF}]"],
];

/** JS's `\s` (WhiteSpace and LineTerminator), as a class body in RE2 syntax. */
const JS_SPACE = "\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
/** Everything `JS_SPACE` is not, as ranges: JS's `\S`, which inside a class RE2 cannot write as a negation. */
const JS_NOT_SPACE =
  "\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}";
/** JS's `.` without the `s` flag: anything but a line terminator. */
const JS_DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

/** Unicode general categories and their groups, which RE2 knows by name (`\p{Lu}`). */
const RE2_CATEGORIES = new Set([
  ..."C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs".split(" "),
]);

const propertyRanges = new Map<string, string>();

/** A Unicode property RE2 does not know, as class ranges: the code points V8's `\p{name}` matches. */
function rangesOf(name: string): string {
  let ranges = propertyRanges.get(name);
  if (ranges !== undefined) return ranges;
  const re = new RegExp(`^\\p{${name}}$`, "u");
  const parts: string[] = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const inside = cp < 0x110000 && re.test(String.fromCodePoint(cp));
    if (inside && start === -1) start = cp;
    if (!inside && start !== -1) {
      parts.push(start === cp - 1 ? hex(start) : `${hex(start)}-${hex(cp - 1)}`);
      start = -1;
    }
  }
  ranges = parts.join("");
  propertyRanges.set(name, ranges);
  return ranges;
}

const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;

/** Translate `source`; `flags` are the JS flags (`i` becomes RE2's `(?i)`; `g`, `u`, `y` are the matcher's business). */
export function re2Source(source: string, flags: string): Re2Source {
  let out = "";
  let i = 0;
  let inClass = false;
  const unsupported = (construct: string): Re2Source => ({ ok: false, construct });
  while (i < source.length) {
    const c = source[i] as string;
    if (!inClass) {
      const anchor = ANCHORS.find(([js]) => source.startsWith(js, i));
      if (anchor !== undefined) {
        out += anchor[1];
        i += anchor[0].length;
        continue;
      }
    }
    if (c === "\\") {
      const e = escape(source, i + 1, inClass);
      if ("construct" in e) return unsupported(e.construct);
      out += e.text;
      i = e.next;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      // RE2 reads `[:` inside a class as a POSIX class: a literal `[` is escaped.
      out += c === "[" ? "\\[" : c;
      i++;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      i++;
      if (source[i] === "^") {
        out += "^";
        i++;
      }
      // A `]` first in a class is a literal in RE2 but closes an empty class in JS: none of our translators write one.
      continue;
    }
    if (c === "(" && source[i + 1] === "?") {
      if (/^\(\?<?[=!]/.test(source.slice(i))) return unsupported("a look-around (as -w, \\b on non-ASCII words, or class set operations write)");
      const named = /^\(\?<([A-Za-z_]\w*)>/.exec(source.slice(i));
      if (named !== null) {
        out += `(?P<${named[1] as string}>`;
        i += named[0].length;
        continue;
      }
      if (source.startsWith("(?:", i)) {
        out += "(?:";
        i += 3;
        continue;
      }
      return unsupported(`the group ${source.slice(i, i + 4)}`);
    }
    out += c === "." ? JS_DOT : c;
    i++;
  }
  return { ok: true, source: flags.includes("i") ? `(?i)${out}` : out };
}

/** One escape at `at` (just after its backslash): its RE2 text and where the source goes on. */
function escape(s: string, at: number, inClass: boolean): { text: string; next: number } | { construct: string } {
  const e = s[at] ?? "";
  const next = at + 1;
  if (/[1-9]/.test(e) || (e === "k" && s[next] === "<")) return { construct: "a backreference" };
  switch (e) {
    case "d":
    case "D":
    case "w":
    case "W":
      return { text: `\\${e}`, next };
    case "b":
    case "B":
      // Inside a class JS reads \b as a backspace.
      return inClass ? { text: "\\x{8}", next } : { text: `\\${e}`, next };
    case "s":
      return { text: inClass ? JS_SPACE : `[${JS_SPACE}]`, next };
    case "S":
      return inClass ? { text: JS_NOT_SPACE, next } : { text: `[^${JS_SPACE}]`, next };
    case "n":
    case "t":
    case "r":
    case "f":
    case "v":
      return { text: `\\${e}`, next };
    case "0":
      return { text: "\\x{0}", next };
    case "x": {
      const m = /^[0-9A-Fa-f]{2}/.exec(s.slice(next));
      return m === null ? { construct: "\\x without two hex digits" } : { text: `\\x{${m[0]}}`, next: next + 2 };
    }
    case "u": {
      const braced = /^\{([0-9A-Fa-f]+)\}/.exec(s.slice(next));
      if (braced !== null) return { text: `\\x{${braced[1] as string}}`, next: next + braced[0].length };
      const four = /^[0-9A-Fa-f]{4}/.exec(s.slice(next));
      if (four === null) return { construct: "\\u without four hex digits" };
      const cp = Number.parseInt(four[0], 16);
      // A surrogate half is not a character RE2 can match alone.
      if (cp >= 0xd800 && cp <= 0xdfff) return { construct: "a lone surrogate" };
      return { text: `\\x{${four[0]}}`, next: next + 4 };
    }
    case "p":
    case "P": {
      const m = /^\{([A-Za-z_=]+)\}/.exec(s.slice(next));
      if (m === null) return { construct: `\\${e} without a property name` };
      const name = m[1] as string;
      const after = next + m[0].length;
      const script = /^(?:Script|sc)=(\w+)$/.exec(name);
      if (RE2_CATEGORIES.has(name)) return { text: `\\${e}{${name}}`, next: after };
      if (script !== null) return { text: `\\${e}{${script[1] as string}}`, next: after };
      const ranges = rangesOf(name);
      if (inClass) return e === "p" ? { text: ranges, next: after } : { construct: `\\P{${name}} inside a class` };
      return { text: e === "p" ? `[${ranges}]` : `[^${ranges}]`, next: after };
    }
    case "c": {
      const letter = s[next] ?? "";
      if (!/[A-Za-z]/.test(letter)) return { construct: "\\c without a letter" };
      return { text: hex(letter.charCodeAt(0) % 32), next: next + 1 };
    }
    default:
      // Escaped punctuation is itself in both; RE2 has no `\/` and reads a bare `-` in a class as a range.
      if (/[A-Za-z]/.test(e) || e === "") return { construct: `\\${e}` };
      return { text: e === "/" ? "/" : `\\${e}`, next };
  }
}
