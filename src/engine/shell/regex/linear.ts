import { RE2JS } from "re2js";
import { re2Source } from "./re2-source.js";
import { chargedSearch } from "./search-budget.js";

type Matcher = ReturnType<RE2JS["matcher"]>;

/**
 * A RegExp whose matching is done by RE2JS, a linear-time engine (no backtracking: the time is
 * bounded by the pattern's size times the text's, whatever the pattern). It is a real RegExp
 * (same source, flags and `lastIndex` rules), so `test`, `replace`, `matchAll` and every
 * command that takes a RegExp use it unchanged: the spec's RegExp methods all go through
 * `exec`, which is RE2's here. Spans are UTF-16 offsets, as V8's; RE2's leftmost-first
 * semantics pick the same match as a backtracking engine for the patterns it accepts.
 */
export class LinearRegExp extends RegExp {
  private readonly linear: RE2JS;
  /** The matcher of the last text searched: RE2JS prepares a text once, and `exec` is called again and again on one. */
  private last: { readonly text: string; readonly matcher: Matcher } | undefined;
  private readonly names: readonly string[];

  /**
   * `pattern`'s source must translate (`linearRegExp` checks): `RegExp` species copies pass here
   * too. `program`: RE2's compiled form of the same source and case flag, shared by copies.
   */
  constructor(pattern: string | RegExp, flags?: string, program?: RE2JS) {
    super(pattern, flags);
    // A species copy (`matchAll`, `split`) of one of ours: the same program, when the case flag is.
    if (program === undefined && pattern instanceof LinearRegExp && pattern.ignoreCase === this.ignoreCase) program = pattern.linear;
    if (program === undefined) {
      const translated = re2Source(this.source, this.flags);
      if (!translated.ok) throw new Error(`not a linear-time pattern: ${translated.construct}`);
      program = RE2JS.compile(translated.source);
    }
    this.linear = program;
    this.names = Object.keys(this.linear.namedGroups());
  }

  /** The same pattern with other flags; RE2's program is shared when the case flag is the same. */
  withFlags(flags: string): LinearRegExp {
    return new LinearRegExp(this, flags, flags.includes("i") === this.ignoreCase ? this.linear : undefined);
  }

  static override get [Symbol.species](): RegExpConstructor {
    return LinearRegExp as unknown as RegExpConstructor;
  }

  override exec(text: string): RegExpExecArray | null {
    const input = String(text);
    const moving = this.global || this.sticky;
    const start = moving ? this.lastIndex : 0;
    const fail = (): null => {
      if (moving) this.lastIndex = 0;
      return null;
    };
    if (start > input.length) return fail();
    if (this.last?.text !== input) this.last = { text: input, matcher: this.linear.matcher(input) };
    const m = this.last.matcher;
    let groups: (string | undefined)[] | undefined;
    try {
      // Charged to the running command's budget, and stopped inside re2js when it passes it.
      groups = chargedSearch(() => {
        // A sticky match must start where it is asked to; the leftmost match from there does if any does.
        if (!m.find(start) || (this.sticky && m.start() !== start)) return undefined;
        const found: (string | undefined)[] = [];
        // A capture's span is found by a second, anchored search (re2js's), charged with the first.
        for (let g = 0; g <= m.groupCount(); g++) found.push(m.start(g) < 0 ? undefined : input.slice(m.start(g), m.end(g)));
        return found;
      });
    } catch (error) {
      // A search stopped inside the engine: its matcher is never asked again.
      this.last = undefined;
      throw error;
    }
    if (groups === undefined) return fail();
    const result = Object.assign(groups, { index: m.start(), input, groups: undefined as Record<string, string | undefined> | undefined }) as unknown as RegExpExecArray;
    if (this.names.length > 0) {
      const named: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
      const numbers = this.linear.namedGroups();
      for (const name of this.names) named[name] = groups[numbers[name] as number];
      result.groups = named as Record<string, string>;
    }
    if (moving) this.lastIndex = m.end();
    return result;
  }
}

/** `regex` as a `LinearRegExp`, or what RE2 cannot express in it (a backreference, a look-around, a repeat over 1,000). */
export function linearRegExp(regex: RegExp): LinearRegExp | { readonly construct: string } {
  const translated = re2Source(regex.source, regex.flags);
  if (!translated.ok) return { construct: translated.construct };
  try {
    return new LinearRegExp(regex.source, regex.flags);
  } catch (error) {
    // RE2's own limits, such as a repeat count over 1,000.
    return { construct: (error as Error).message.replace(/^error parsing regexp: /, "") };
  }
}

/** `re` with other flags, on the same engine: never `new RegExp(re.source, ...)`, which would leave the linear-time one. */
export function copyRegExp(re: RegExp, flags: string): RegExp {
  if (re instanceof LinearRegExp) return re.withFlags(flags);
  // Another engine of ours (`CountedRegExp`): its own constructor copies it.
  return new (re.constructor as RegExpConstructor)(re, flags);
}
