/**
 * Whether a JS regex can backtrack badly (see guard.ts), from its shape alone. Three
 * shapes make V8's backtracking engine slow on a line it does not match:
 * - a repeat of something that itself repeats: `(a+)+`, `(\w+\s?)*` (exponential);
 * - a repeat of an alternation whose alternatives can start alike: `(\w|\w)+`, `(a|ab)*`
 *   (exponential: each repetition may take either branch);
 * - two unbounded repeats of overlapping characters with nothing between them that only one
 *   of them can match: `\w*\w*!`, `.*a.*b` (cubic with the scan over start positions: 5 s on
 *   one 3,000-character line), or counted ones whose spans multiply past `MAX_SPLIT_WAYS`.
 * Characters are compared by coarse kinds (letters, digits, `_`, spaces, other) and exactly
 * for literals, so `(foo|bar)+` and `\w+\s+\w+` stay on the fast path.
 */

/** Character kinds, as bits: a set of what one atom may match. */
const LETTER = 1;
const DIGIT = 2;
const UNDERSCORE = 4;
const SPACE = 8;
const OTHER = 16;
/** Combining marks (`\p{M}`), connector punctuation other than `_` (`‿`), format characters
 *  (`\p{Cf}`: the joiners): ripgrep's `\w` holds all three, and `@` or `.` none. */
const MARK = 32;
const CONNECTOR = 64;
const FORMAT = 128;
const ANY = LETTER | DIGIT | UNDERSCORE | SPACE | OTHER | MARK | CONNECTOR | FORMAT;
const WORD = LETTER | DIGIT | UNDERSCORE;

/** What an atom or a sequence may start with: kinds, and the exact characters when all are literals. */
interface First {
  readonly kinds: number;
  readonly literals?: ReadonlySet<string>;
}

type Atom =
  | { readonly t: "chars"; readonly first: First }
  | { readonly t: "group"; readonly alt: Alt; readonly zeroWidth: boolean }
  /** `^`, `$`, `\b`, backreferences: match no character of their own (backreferences: any). */
  | { readonly t: "assert"; readonly any: boolean };

interface Item {
  readonly atom: Atom;
  readonly min: number;
  readonly max: number;
}

type Seq = readonly Item[];
type Alt = readonly Seq[];

function kindOf(c: string): number {
  if (/\p{L}/u.test(c)) return LETTER;
  if (/\p{N}/u.test(c)) return DIGIT;
  if (c === "_") return UNDERSCORE;
  if (/\s/u.test(c)) return SPACE;
  if (/\p{M}/u.test(c)) return MARK;
  if (/\p{Pc}/u.test(c)) return CONNECTOR;
  if (/\p{Cf}/u.test(c)) return FORMAT;
  return OTHER;
}

/** Kinds of a class escape (`\w`, `\d`...), or undefined for an escaped literal. */
function escapeKinds(e: string): number | undefined {
  switch (e) {
    case "w":
      return WORD;
    case "d":
      return DIGIT;
    case "s":
      return SPACE;
    case "W":
      // JS's \w is ASCII: \W holds every other letter and digit too.
      return ANY & ~UNDERSCORE;
    case "D":
      return ANY & ~DIGIT;
    case "S":
      return ANY & ~SPACE;
    default:
      return undefined;
  }
}

function literal(c: string): First {
  const folded = new Set([c, c.toLowerCase(), c.toUpperCase()].filter((v) => [...v].length === 1));
  let kinds = 0;
  for (const v of folded) kinds |= kindOf(v);
  return { kinds, literals: folded };
}

/** A small parser of the JS regex syntax our translators emit (and any other, approximately). */
class Parser {
  private i = 0;

  constructor(private readonly s: string) {}

  parse(): Alt {
    return this.alt();
  }

  private alt(): Alt {
    const seqs: Seq[] = [this.seq()];
    while (this.s[this.i] === "|") {
      this.i++;
      seqs.push(this.seq());
    }
    return seqs;
  }

  private seq(): Seq {
    const items: Item[] = [];
    while (this.i < this.s.length && this.s[this.i] !== "|" && this.s[this.i] !== ")") {
      const atom = this.atom();
      const [min, max] = this.quantifier();
      items.push({ atom, min, max });
    }
    return items;
  }

  private quantifier(): [number, number] {
    const m = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(this.s.slice(this.i));
    if (m === null) return [1, 1];
    this.i += m[0].length;
    if (m[1] === "*") return [0, Infinity];
    if (m[1] === "+") return [1, Infinity];
    if (m[1] === "?") return [0, 1];
    const min = Number(m[2]);
    if (m[3] === undefined) return [min, min];
    return [min, m[4] === "" ? Infinity : Number(m[4])];
  }

  private atom(): Atom {
    const c = this.s[this.i] as string;
    this.i++;
    switch (c) {
      case "(": {
        const prefix = /^\?(?:<[A-Za-z_]\w*>|<[=!]|[:=!])/.exec(this.s.slice(this.i));
        const zeroWidth = prefix !== null && /^\?(?:<[=!]|[=!])/.test(prefix[0]);
        if (prefix !== null) this.i += prefix[0].length;
        const alt = this.alt();
        if (this.s[this.i] === ")") this.i++;
        return { t: "group", alt, zeroWidth };
      }
      case "[":
        return { t: "chars", first: this.charClass() };
      case ".":
        return { t: "chars", first: { kinds: ANY } };
      case "^":
      case "$":
        return { t: "assert", any: false };
      case "\\":
        return this.escape();
      default:
        return { t: "chars", first: literal(c) };
    }
  }

  private escape(): Atom {
    const e = this.s[this.i] ?? "";
    this.i++;
    if (e === "b" || e === "B") return { t: "assert", any: false };
    if (/[1-9]/.test(e) || (e === "k" && this.s[this.i] === "<")) {
      while (/[\d]/.test(this.s[this.i] ?? "")) this.i++;
      if (e === "k") this.i = this.s.indexOf(">", this.i) + 1;
      return { t: "assert", any: true };
    }
    return { t: "chars", first: this.escapeFirst(e) };
  }

  /** What an escape after its backslash matches (the escape letter is already read). */
  private escapeFirst(e: string): First {
    const kinds = escapeKinds(e);
    if (kinds !== undefined) return { kinds };
    if ((e === "p" || e === "P") && this.s[this.i] === "{") {
      const end = this.s.indexOf("}", this.i);
      const name = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      if (e === "p" && /^(L|Lu|Ll|Lt|Lm|Lo)$/.test(name)) return { kinds: LETTER };
      // Alphabetic: letters, letter numbers (Nl) and the marks that are part of letters.
      if (e === "p" && name === "Alphabetic") return { kinds: LETTER | DIGIT | MARK };
      if (e === "p" && /^(N|Nd|Nl|No)$/.test(name)) return { kinds: DIGIT };
      if (e === "p" && /^(M|Mn|Mc|Me)$/.test(name)) return { kinds: MARK };
      if (e === "p" && name === "Pc") return { kinds: UNDERSCORE | CONNECTOR };
      if (e === "p" && (name === "Join_Control" || name === "Cf")) return { kinds: FORMAT };
      return { kinds: ANY };
    }
    const code = /^(?:u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2}))/.exec(this.s.slice(this.i - 1));
    if (code !== null) {
      this.i += code[0].length - 1;
      return literal(String.fromCodePoint(Number.parseInt(code[1] ?? code[2] ?? code[3] ?? "0", 16)));
    }
    const controls: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v", 0: "\0" };
    if (controls[e] !== undefined) return literal(controls[e]);
    return /[A-Za-z0-9]/.test(e) ? { kinds: ANY } : literal(e);
  }

  /** A `[...]` class: the kinds of what it lists (a negated class: anything). */
  private charClass(): First {
    const negated = this.s[this.i] === "^";
    if (negated) this.i++;
    let kinds = 0;
    const literals = new Set<string>();
    let onlyLiterals = true;
    while (this.i < this.s.length && this.s[this.i] !== "]") {
      let f = this.classAtom();
      if (this.s[this.i] === "-" && this.s[this.i + 1] !== "]" && this.i + 1 < this.s.length) {
        this.i++;
        const lo = f.literals === undefined ? undefined : [...f.literals][0];
        const hiAtom = this.classAtom();
        const hi = hiAtom.literals === undefined ? undefined : [...hiAtom.literals][0];
        f = { kinds: lo === undefined || hi === undefined ? ANY : rangeKinds(lo, hi) };
      }
      kinds |= f.kinds;
      if (f.literals === undefined) onlyLiterals = false;
      else for (const l of f.literals) literals.add(l);
    }
    this.i++;
    if (negated) return { kinds: ANY };
    return onlyLiterals ? { kinds, literals } : { kinds };
  }

  /** One member of a class: a character or an escape. */
  private classAtom(): First {
    const c = this.s[this.i] as string;
    this.i++;
    if (c !== "\\") return literal(c);
    const e = this.s[this.i] ?? "";
    this.i++;
    return this.escapeFirst(e);
  }
}

/** Kinds of a class range: letters of one case or digits when it stays within them, else anything. */
function rangeKinds(lo: string, hi: string): number {
  const within = (a: string, b: string): boolean => lo >= a && hi <= b && lo <= hi;
  if (within("a", "z") || within("A", "Z")) return LETTER;
  if (within("0", "9")) return DIGIT;
  return ANY;
}

function overlaps(a: First, b: First): boolean {
  if (a.literals !== undefined && b.literals !== undefined) {
    for (const c of a.literals) if (b.literals.has(c)) return true;
    return false;
  }
  return (a.kinds & b.kinds) !== 0;
}

const NOTHING: First = { kinds: 0, literals: new Set() };

function union(a: First, b: First): First {
  if (a.literals !== undefined && b.literals !== undefined) return { kinds: a.kinds | b.kinds, literals: new Set([...a.literals, ...b.literals]) };
  return { kinds: a.kinds | b.kinds };
}

function nullableSeq(seq: Seq): boolean {
  return seq.every((item) => item.min === 0 || nullableAtom(item.atom));
}

function nullableAtom(atom: Atom): boolean {
  if (atom.t === "chars") return false;
  if (atom.t === "assert") return true;
  return atom.zeroWidth || atom.alt.some(nullableSeq);
}

/** What a sequence may start with (a nullable start lets anything through). */
function firstOfSeq(seq: Seq): First {
  let first = NOTHING;
  for (const item of seq) {
    const f = firstOfAtom(item.atom);
    first = union(first, f);
    if (item.min > 0 && !nullableAtom(item.atom)) return first;
  }
  return { kinds: ANY };
}

function firstOfAtom(atom: Atom): First {
  if (atom.t === "chars") return atom.first;
  if (atom.t === "assert") return atom.any ? { kinds: ANY } : NOTHING;
  if (atom.zeroWidth) return NOTHING;
  return atom.alt.map(firstOfSeq).reduce(union, NOTHING);
}

/** Every character an atom may match (for groups: everything inside). */
function charsOf(atom: Atom): First {
  if (atom.t === "chars") return atom.first;
  if (atom.t === "assert") return atom.any ? { kinds: ANY } : NOTHING;
  if (atom.zeroWidth) return NOTHING;
  let all = NOTHING;
  for (const seq of atom.alt) for (const item of seq) all = union(all, charsOf(item.atom));
  return all;
}

/** Whether an alternation has two alternatives that may start alike. */
function ambiguous(alt: Alt): boolean {
  if (alt.length < 2) return false;
  const firsts = alt.map(firstOfSeq);
  return firsts.some((a, k) => firsts.slice(k + 1).some((b) => overlaps(a, b)));
}

/** Whether anything inside repeats without bound or branches ambiguously. */
function variable(alt: Alt): boolean {
  if (ambiguous(alt)) return true;
  // `(a{1,5})+` splits a run of a's as many ways as `(a+)+` does; `(ab?)+` is fine.
  return alt.some((seq) =>
    seq.some((item) => item.max === Infinity || (item.max > item.min && item.max > 1) || (item.atom.t === "group" && !item.atom.zeroWidth && variable(item.atom.alt))),
  );
}

/**
 * How many ways a repeat of variable length may split a run between itself and its neighbours:
 * one more than its span for a counted one (`a{0,190}`: 191), and `UNBOUNDED_WAYS` for `*`/`+`.
 */
function waysOf(item: Item): number {
  return item.max === Infinity ? UNBOUNDED_WAYS : item.max - item.min + 1;
}

/** What an unbounded repeat counts as among its neighbours: a long line's run. */
const UNBOUNDED_WAYS = 1_000;

/**
 * Repeats of overlapping characters side by side try every split of a run among them at each
 * place V8 starts a match: the product of their ways. Two unbounded ones are cubic over a line
 * (`.*a.*b`); counted ones are bounded, but `a{0,190}a{0,190}b` over 20,000 a's is 36,000 tries
 * a place, seconds of CPU nothing counts (adversary round 29 F1, where only unbounded ones were
 * weighed). At or past this product, the pattern leaves V8: `\w{0,30}\w{0,30}` (961) stays,
 * `\w{0,5}\w*` (6,000) and `a{0,99}a{0,99}` (10,000) leave.
 */
const MAX_SPLIT_WAYS = 1_000;

/** The three shapes, in one alternation and every group inside it. */
function risky(alt: Alt): boolean {
  for (const seq of alt) {
    // Repeats of variable length not yet cut off by an atom only they cannot match.
    let open: { readonly chars: First; readonly ways: number }[] = [];
    for (const item of seq) {
      const { atom } = item;
      if (atom.t === "group" && !atom.zeroWidth && item.max > 1 && variable(atom.alt)) return true;
      if (atom.t === "group" && risky(atom.alt)) return true;
      if (atom.t === "assert" || (atom.t === "group" && atom.zeroWidth)) continue;
      const chars = charsOf(atom);
      // Something that must match a character no open repeat can match ends their contest.
      if (item.min > 0 && atom.t === "chars") open = open.filter((o) => overlaps(o.chars, chars));
      const ways = waysOf(item);
      if (ways > 1) {
        const rivals = open.filter((o) => overlaps(o.chars, chars));
        if (rivals.length > 0 && rivals.reduce((product, o) => product * o.ways, ways) >= MAX_SPLIT_WAYS) return true;
        open.push({ chars, ways });
      }
    }
  }
  return false;
}

/**
 * How many atoms the pattern holds with its counted repeats written out (`a{1000}` is 1,000,
 * `(ab|cd){10}` 40): about the most V8 compares at each place it tries a match, so a search's
 * cost per character grows with it. re2js's cost grows with it too, but there it is counted
 * and can be ended (search-budget.ts); V8's cannot.
 */
function expandedSize(alt: Alt): number {
  let size = 0;
  for (const seq of alt) {
    for (const item of seq) {
      const atom = item.atom.t === "chars" ? 1 : item.atom.t === "group" ? expandedSize(item.atom.alt) : 0;
      size += atom * (item.max === Infinity ? Math.max(item.min, 1) : item.max);
    }
  }
  return size;
}

/** A pattern larger than this, written out, runs on the linear-time engine (`expandedSize`). */
export const MAX_V8_EXPANDED_SIZE = 1000;

/** Whether a repeat of a group whose body can match nothing is in the pattern: `(a?){1000}`. */
function repeatsNullable(alt: Alt): boolean {
  return alt.some((seq) =>
    seq.some(
      (item) =>
        item.atom.t === "group" &&
        !item.atom.zeroWidth &&
        ((item.max > 1 && item.atom.alt.some(nullableSeq) && charsOf(item.atom).kinds !== 0) || repeatsNullable(item.atom.alt)),
    ),
  );
}

/**
 * Whether a JS regex source can take more than about quadratic time on a line, or a time per
 * character that grows with the pattern (issue 25, adversary round 28 F2):
 * - a repeat of a group that can match nothing: `(a?){1000}a{1000}z` splits a run of a's between
 *   the group's copies in exponentially many ways (V8 ran it for over ten minutes in `svc-mcp
 *   fs`, where nothing can stop a running regex);
 * - a pattern of more than `MAX_V8_EXPANDED_SIZE` atoms written out (`a{1000}z`, a large
 *   alternation): each place V8 tries costs up to that many comparisons, uncounted.
 */
export function isRisky(source: string): boolean {
  const alt = new Parser(source).parse();
  return risky(alt) || repeatsNullable(alt) || expandedSize(alt) > MAX_V8_EXPANDED_SIZE;
}

/** Whether any repeat in the alternation, or in a group inside it, has no upper bound (`*`, `+`, `{2,}`, lazy ones too). */
function repeatsWithoutBound(alt: Alt): boolean {
  return alt.some((seq) => seq.some((item) => item.max === Infinity || (item.atom.t === "group" && repeatsWithoutBound(item.atom.alt))));
}

/**
 * Whether a JS regex source holds a repeat without an upper bound: on V8 each place a search
 * tries may run such a repeat to the end of its line and back, so one search costs up to the
 * line's length squared (`.*X` over a minified JSON line of 300,000 characters: 107 s). A
 * pattern without one costs at most its written-out size (`expandedSize`) a place.
 */
export function hasUnboundedRepeat(source: string): boolean {
  return repeatsWithoutBound(new Parser(source).parse());
}
