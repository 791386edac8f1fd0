import { maxOf } from "../../../arrays.js";
/**
 * Glob matching, two flavours: fnmatch(3) for `find -name` and `grep --include`, and the
 * gitignore-style globs ripgrep uses for `-g`.
 */

/** Translate the body of a `[...]` set starting after `[`; returns [class source, index after `]`] or null. */
function bracketSet(glob: string, i: number): [string, number] | null {
  let k = i;
  let negate = false;
  if (glob[k] === "!" || glob[k] === "^") {
    negate = true;
    k++;
  }
  let body = "";
  let first = true;
  while (k < glob.length) {
    const c = glob[k] as string;
    if (c === "]" && !first) {
      return [`[${negate ? "^" : ""}${body}]`, k + 1];
    }
    first = false;
    if (c === "[" && glob[k + 1] === ":") {
      const end = glob.indexOf(":]", k + 2);
      if (end !== -1) {
        const name = glob.slice(k + 2, end);
        const cls: Record<string, string> = {
          alpha: "\\p{L}",
          digit: "0-9",
          alnum: "\\p{L}\\p{Nd}",
          upper: "\\p{Lu}",
          lower: "\\p{Ll}",
          space: "\\s",
          punct: "!-\\/:-@\\[-`{-~",
        };
        if (cls[name] !== undefined) {
          body += cls[name];
          k = end + 2;
          continue;
        }
      }
    }
    if (c === "\\" && k + 1 < glob.length) {
      body += escapeClass(glob[k + 1] as string);
      k += 2;
      continue;
    }
    if (c === "-" && body !== "" && glob[k + 1] !== "]" && k + 1 < glob.length) {
      body += "-";
      k++;
      continue;
    }
    body += escapeClass(c);
    k++;
  }
  return null;
}

function escapeClass(c: string): string {
  return "\\]^-[".includes(c) ? `\\${c}` : c;
}

function escapeChar(c: string): string {
  return "^$\\.*+?()[]{}|/".includes(c) ? `\\${c}` : c;
}

/**
 * A glob as the pieces it matches: one character of a class, a run of them (`*`), or one of
 * several alternatives (`{a,b}`). Both the regex and the linear matcher are built from it.
 */
type Piece =
  | { readonly t: "one"; readonly src: string }
  | { readonly t: "star"; readonly src: string }
  | { readonly t: "alt"; readonly options: readonly (readonly Piece[])[] };

function toSource(pieces: readonly Piece[]): string {
  let src = "";
  for (const p of pieces) {
    if (p.t === "one") src += p.src;
    else if (p.t === "star") src += `${p.src}*`;
    else src += `(?:${p.options.map(toSource).join("|")})`;
  }
  return src;
}

function countStars(pieces: readonly Piece[]): number {
  let n = 0;
  for (const p of pieces) n += p.t === "star" ? 1 : p.t === "alt" ? maxOf(p.options.map(countStars), 0) : 0;
  return n;
}

/** What a glob is matched with: a regex, or a `LinearGlob` for globs with many stars. */
export interface GlobMatcher {
  test(s: string): boolean;
}

/**
 * Globs with more stars than this are matched by `LinearGlob`: as a regex, each star may take
 * any length, so `*?*?*?*?*?*?z` tries exponentially many splits of a name it does not match
 * (measured: seconds per file on a real site). Up to two stars a regex is at worst quadratic
 * on a path, and faster.
 */
const MAX_REGEX_STARS = 2;

/**
 * A glob matched in time linear in the text (times the glob's length): the regex's pieces run
 * as a Thompson NFA, every live position advanced together one character at a time, so no
 * split is ever tried twice. Each piece's character test is the regex's own class, compiled
 * alone: the same answer as the regex, character for character.
 */
class LinearGlob implements GlobMatcher {
  /** The program: a character test then the next instruction, a fork, or the end. */
  private readonly code: ({ op: "char"; test: RegExp; next: number } | { op: "fork"; a: number; b: number } | { op: "match" })[] = [];
  /** Per instruction, the answers of its character test so far. */
  private readonly memo: Map<string, boolean>[] = [];
  private readonly start: number;

  constructor(
    pieces: readonly Piece[],
    private readonly flags: string,
  ) {
    this.start = this.compile(pieces, -1);
  }

  /** Compile `pieces` so that they continue at `next` (-1: the end); returns the entry. */
  private compile(pieces: readonly Piece[], next: number): number {
    let entry = next === -1 ? this.emit({ op: "match" }) : next;
    for (let k = pieces.length - 1; k >= 0; k--) {
      const p = pieces[k] as Piece;
      if (p.t === "one") entry = this.emit({ op: "char", test: this.charTest(p.src), next: entry });
      else if (p.t === "star") {
        const fork = this.emit({ op: "fork", a: -1, b: entry });
        const step = this.emit({ op: "char", test: this.charTest(p.src), next: fork });
        (this.code[fork] as { a: number }).a = step;
        entry = fork;
      } else {
        const after = entry;
        const entries = p.options.map((o) => this.compile(o, after));
        entry = entries.reduceRight((b, a) => this.emit({ op: "fork", a, b }));
      }
    }
    return entry;
  }

  private emit(instruction: LinearGlob["code"][number]): number {
    this.code.push(instruction);
    this.memo.push(new Map());
    return this.code.length - 1;
  }

  private charTest(src: string): RegExp {
    return new RegExp(`^(?:${src})$`, this.flags);
  }

  /** Add `pc` and what it reaches without reading a character. */
  private add(set: Set<number>, pc: number): void {
    if (set.has(pc)) return;
    set.add(pc);
    const ins = this.code[pc];
    if (ins?.op === "fork") {
      this.add(set, ins.a);
      this.add(set, ins.b);
    }
  }

  test(s: string): boolean {
    let live = new Set<number>();
    this.add(live, this.start);
    for (const ch of s) {
      const next = new Set<number>();
      for (const pc of live) {
        const ins = this.code[pc];
        if (ins?.op !== "char") continue;
        const memo = this.memo[pc] as Map<string, boolean>;
        let ok = memo.get(ch);
        if (ok === undefined) {
          ok = ins.test.test(ch);
          memo.set(ch, ok);
        }
        if (ok) this.add(next, ins.next);
      }
      if (next.size === 0) return false;
      live = next;
    }
    for (const pc of live) if (this.code[pc]?.op === "match") return true;
    return false;
  }
}

/** Which matcher a glob gets: by its stars (`auto`), or one of them (tests compare the two). */
export type GlobEngine = "auto" | "regex" | "linear";

/** The matcher of a whole-string glob: its regex, or a `LinearGlob` when it has many stars. */
function matcher(engine: GlobEngine, pieces: readonly Piece[], regexSource: string, flags: string, full: readonly Piece[] = pieces): GlobMatcher {
  const linear = engine === "auto" ? countStars(pieces) > MAX_REGEX_STARS : engine === "linear";
  return linear ? new LinearGlob(full, flags) : new RegExp(regexSource, flags);
}

/**
 * The piece at `i` that is no wildcard, and where the next one starts: a `[...]` set (a `[`
 * that opens none is itself), an escaped character, or the character as it is.
 */
function setOrLiteral(glob: string, i: number): [Piece, number] {
  if (glob[i] === "[") {
    const set = bracketSet(glob, i + 1);
    return set === null ? [{ t: "one", src: "\\[" }, i + 1] : [{ t: "one", src: set[0] }, set[1]];
  }
  if (glob[i] === "\\" && i + 1 < glob.length) return [{ t: "one", src: escapeChar(glob[i + 1] as string) }, i + 2];
  return [{ t: "one", src: escapeChar(glob[i] as string) }, i + 1];
}

/**
 * fnmatch(3) without flags: `*` and `?` match any character including `/`, `[...]` sets with
 * `!` or `^` negation, `\` escapes. A leading `.` needs no special care (no FNM_PERIOD).
 */
export function fnmatchRegex(glob: string, ignoreCase = false, engine: GlobEngine = "auto"): GlobMatcher {
  const pieces: Piece[] = [];
  for (let i = 0; i < glob.length; ) {
    const c = glob[i] as string;
    if (c === "*") {
      pieces.push({ t: "star", src: "[\\s\\S]" });
      i++;
    } else if (c === "?") {
      pieces.push({ t: "one", src: "[\\s\\S]" });
      i++;
    } else {
      const [piece, next] = setOrLiteral(glob, i);
      pieces.push(piece);
      i = next;
    }
  }
  return matcher(engine, pieces, `^${toSource(pieces)}$`, ignoreCase ? "iu" : "u");
}

/** A ripgrep `-g` glob: gitignore semantics (`!` negates, `/` anchors, `**` spans folders). */
export interface IgnoreGlob {
  readonly negated: boolean;
  readonly dirOnly: boolean;
  /** Matched against the basename when the glob has no `/`, else against the relative path. */
  readonly basenameOnly: boolean;
  readonly regex: GlobMatcher;
}

const ANY_RUN: Piece = { t: "star", src: "." };
const SLASH: Piece = { t: "one", src: "/" };

/** The pieces of a glob body (what follows `!`, a leading slash and a leading globstar). */
function gitignoreBody(g: string): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i < g.length; ) {
    if (g[i] === "{") {
      // `{a,b}` alternates, as ripgrep's globset (not nested).
      const close = g.indexOf("}", i + 1);
      if (close !== -1 && !g.slice(i + 1, close).includes("{")) {
        pieces.push({ t: "alt", options: g.slice(i + 1, close).split(",").map(gitignoreBody) });
        i = close + 1;
        continue;
      }
    }
    if (g.startsWith("/**/", i)) {
      pieces.push({ t: "alt", options: [[SLASH], [SLASH, ANY_RUN, SLASH]] });
      i += 4;
    } else if (g.startsWith("/**", i) && i + 3 === g.length) {
      pieces.push(SLASH, ANY_RUN);
      i += 3;
    } else if (g.startsWith("**", i)) {
      pieces.push(ANY_RUN);
      i += 2;
    } else if (g[i] === "*") {
      pieces.push({ t: "star", src: "[^/]" });
      i++;
    } else if (g[i] === "?") {
      pieces.push({ t: "one", src: "[^/]" });
      i++;
    } else {
      const [piece, next] = setOrLiteral(g, i);
      pieces.push(piece);
      i = next;
    }
  }
  return pieces;
}

/** Parse a ripgrep/gitignore glob. */
export function gitignoreGlob(glob: string, ignoreCase = false, engine: GlobEngine = "auto"): IgnoreGlob {
  let g = glob;
  let negated = false;
  if (g.startsWith("!")) {
    negated = true;
    g = g.slice(1);
  }
  let dirOnly = false;
  if (g.endsWith("/") && g.length > 1) {
    dirOnly = true;
    g = g.slice(0, -1);
  }
  const basenameOnly = !g.includes("/");
  if (g.startsWith("/")) g = g.slice(1);
  if (g.startsWith("**/")) g = g.slice(3);
  const body = gitignoreBody(g);
  // A glob without a slash may match at any depth; one with a slash is anchored at the root.
  const anyDepth = basenameOnly || glob.replace(/^!/, "").startsWith("**/");
  const prefix = anyDepth ? "(?:^|.*/)" : "^";
  // The linear matcher matches the whole path: "at any depth" is an optional `.*/` before the body.
  const full: Piece[] = anyDepth ? [{ t: "alt", options: [[], [ANY_RUN, SLASH]] }, ...body] : body;
  return { negated, dirOnly, basenameOnly, regex: matcher(engine, body, `${prefix}${toSource(body)}$`, ignoreCase ? "isu" : "su", full) };
}

/**
 * ripgrep's override rules: the last glob that matches decides; a file matching no glob is
 * excluded when any non-negated glob exists. Folders are only ever excluded by negated globs.
 */
export function globsAllow(globs: readonly IgnoreGlob[], relPath: string, isDir: boolean): boolean {
  for (let i = globs.length - 1; i >= 0; i--) {
    const g = globs[i] as IgnoreGlob;
    if (g.dirOnly && !isDir) continue;
    if (g.regex.test(relPath)) return !g.negated;
  }
  return isDir || !globs.some((g) => !g.negated);
}
