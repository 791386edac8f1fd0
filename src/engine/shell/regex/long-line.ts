import { countedRegExp } from "./counted.js";
import { linearRegExp } from "./linear.js";

/**
 * What a search's text is made of, for `LongLineRegExp`:
 * - `lines`: a match never runs across a line end (grep's and rg's translations, regex/classes.ts),
 *   so each long line can be searched apart and the short ones stay on V8;
 * - `text`: a match may run anywhere (sed's pattern space, find's path), so a long text is
 *   searched whole on the other engine.
 */
export type LongLineScope = "lines" | "text";

/**
 * A line (or, in the `text` scope, a text) longer than this many UTF-16 units is searched on the
 * linear-time engine. On V8 a pattern with an unbounded repeat costs up to a line's length
 * squared (each place tried may run the repeat to the line's end and back), so at most this
 * many units for each unit of the text; re2js costs 50-130 ns a unit whatever the line. CPU time,
 * one process, rg's translation, all lines counted, spree (7.7 MB; 26 files hold a line over
 * 1,000): figures in docs/shell.md, "Long lines".
 */
export const LONG_LINE = 1_000;

/** A long line: from its first unit to its end (the index of its `\n`, or the text's length). */
interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * The lines of `text` longer than `limit`, in order. Jumps `limit` units at a time and looks
 * back for a line end, so a text of short lines costs about its length over `limit` reads of
 * one line, not one call per line.
 */
export function longLines(text: string, limit: number): Span[] {
  const spans: Span[] = [];
  let p = 0;
  while (p + limit < text.length) {
    const nl = text.lastIndexOf("\n", p + limit);
    if (nl >= p) {
      // Every line starting in [p, nl] ends by nl: none is longer than the limit.
      p = nl + 1;
      continue;
    }
    let end = text.indexOf("\n", p + limit);
    if (end === -1) end = text.length;
    spans.push({ start: p, end });
    p = end + 1;
  }
  return spans;
}

/**
 * A RegExp (without backreferences, of a shape the guard keeps on V8, with a repeat without an
 * upper bound) that V8 searches while the lines are short, and the linear-time engine
 * (`LinearRegExp`, re2js) on a long line: `.*X` over a minified JSON line of 300,000 characters
 * took 107 s of V8 and ended at the CPU limit, by the clock; on re2js it answers. Which engine
 * searches a place depends on the pattern and the text alone, never on time, and both give the
 * same answers (leftmost-first, the same groups: test/shell/long-lines.test.ts compares them).
 * A pattern re2js cannot express (a look-around: `-w`) searches a long line on the counted
 * backtracking machine instead, whose every step is charged to the work budget. It is a real
 * RegExp (same source, flags and `lastIndex` rules), so `test`, `replace`, `matchAll` and every
 * command that takes a RegExp use it unchanged.
 */
export class LongLineRegExp extends RegExp {
  readonly scope: LongLineScope;
  /** The engine for long lines, built at the first one; null when none can run the pattern (then V8, as before). */
  private long: RegExp | null | undefined;
  /** V8's search from a place (`g`, or `y` when sticky), for the short lines between long ones. */
  private short: RegExp | undefined;
  /** The last text measured, its long lines, and each one's region as searched (the same string each time: re2js prepares a text once). */
  private measured: { readonly text: string; readonly spans: readonly Span[]; readonly regions: Map<number, string> } | undefined;

  constructor(pattern: string | RegExp, flags?: string, scope?: LongLineScope) {
    super(pattern, flags);
    // A species copy (`matchAll`, `split`) or sed's copy with `g` keeps the scope.
    this.scope = scope ?? (pattern instanceof LongLineRegExp ? pattern.scope : "text");
  }

  static override get [Symbol.species](): RegExpConstructor {
    return LongLineRegExp as unknown as RegExpConstructor;
  }

  override exec(text: string): RegExpExecArray | null {
    const input = String(text);
    const moving = this.global || this.sticky;
    // As the spec reads `lastIndex` (ToLength): a negative or fractional one is a place too.
    let from = moving ? Math.max(0, Math.trunc(Number(this.lastIndex)) || 0) : 0;
    if (input.length <= LONG_LINE || from > input.length) return super.exec(input);
    // In `u` mode V8 reads a place inside a surrogate pair as the pair's start; so must the cut searches.
    if (this.unicode && from > 0 && from < input.length && isLowSurrogate(input.charCodeAt(from)) && isHighSurrogate(input.charCodeAt(from - 1))) from--;
    const long = this.longEngine();
    if (long === null) return super.exec(input);
    if (this.scope === "text") return this.settle(this.search(long, input, from, 0, Infinity), input, moving);
    const measured = this.measure(input);
    if (measured.spans.length === 0) return super.exec(input);
    return this.settle(this.searchLines(long, input, from, measured), input, moving);
  }

  /** The first match at or after `from`: V8 over short lines, the long-line engine over each long one. */
  private searchLines(long: RegExp, input: string, from: number, measured: NonNullable<LongLineRegExp["measured"]>): Found | null {
    const { spans, regions } = measured;
    let k = firstSpanFrom(spans, from);
    let at = from;
    for (;;) {
      const span = spans[k];
      if (span === undefined) return this.search(this.shortEngine(), input, at, 0, Infinity);
      if (at < span.start) {
        // The short lines before it, cut before the long line: no match runs across a line end,
        // and a place at the cut (the long line's start) is the long line's to decide.
        const found = this.search(this.shortEngine(), input.slice(0, span.start), at, 0, span.start);
        if (found !== null) return found;
        if (this.sticky) return null;
        at = span.start;
      }
      // The long line with the `\n` either side, so that line anchors and look-arounds see what
      // they see in the whole text; a place on the `\n` after it is the next line's to decide.
      const base = span.start > 0 ? span.start - 1 : 0;
      const last = span.end < input.length ? span.end + 1 : input.length;
      let region = regions.get(span.start);
      if (region === undefined) {
        region = input.slice(base, last);
        regions.set(span.start, region);
      }
      const found = this.search(long, region, at - base, base, last === input.length ? Infinity : region.length);
      if (found !== null) return found;
      if (this.sticky || span.end >= input.length) return null;
      at = span.end + 1;
      k++;
    }
  }

  /**
   * `engine`'s match in `text` (which starts at `base` of the whole) from `at`, placed in the
   * whole text, or null; a match starting at `beyond` or later belongs to text not searched here.
   */
  private search(engine: RegExp, text: string, at: number, base: number, beyond: number): Found | null {
    engine.lastIndex = at;
    const match = engine.exec(text);
    if (match === null || match.index >= beyond) return null;
    match.index += base;
    return { match, end: base + engine.lastIndex };
  }

  /** A match found elsewhere as this regex's own: the whole text as its input, `lastIndex` moved (or reset) as `exec` does. */
  private settle(found: Found | null, input: string, moving: boolean): RegExpExecArray | null {
    if (found === null) {
      if (moving) this.lastIndex = 0;
      return null;
    }
    found.match.input = input;
    if (moving) this.lastIndex = found.end;
    return found.match;
  }

  private measure(input: string): NonNullable<LongLineRegExp["measured"]> {
    if (this.measured?.text !== input) this.measured = { text: input, spans: longLines(input, LONG_LINE), regions: new Map() };
    return this.measured;
  }

  /** Always moving (`g`, or `y` for a sticky one), so a search can start anywhere. */
  private movingFlags(): string {
    return this.global || this.sticky ? this.flags : `${this.flags}g`;
  }

  private shortEngine(): RegExp {
    this.short ??= new RegExp(this.source, this.movingFlags());
    return this.short;
  }

  private longEngine(): RegExp | null {
    if (this.long === undefined) {
      const plain = new RegExp(this.source, this.movingFlags());
      const linear = linearRegExp(plain);
      if (linear instanceof RegExp) this.long = linear;
      else {
        // A look-around re2js has not (`-w`): the counted machine, whose runaway ends at the work limit.
        const counted = countedRegExp(plain, "fail");
        this.long = counted instanceof RegExp ? counted : null;
      }
    }
    return this.long;
  }
}

/** A match and where the search goes on after it, in the whole text. */
interface Found {
  readonly match: RegExpExecArray;
  readonly end: number;
}

/** The first long line that ends at or after `from` (a place on its `\n` is its own), or `spans.length`. */
function firstSpanFrom(spans: readonly Span[], from: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as Span).end < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
