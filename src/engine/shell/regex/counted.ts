import { BacktrackMachine, type UnsetBackreference } from "./backtrack-machine.js";
import { type Program, UnsupportedPattern, compileProgram } from "./backtrack-program.js";
import { chargeUnits } from "./search-budget.js";

/**
 * Units of the backtracking machine's work (an instruction executed, a choice taken back, a
 * character a backreference compares, four under case folding) in one step of the work budget,
 * a step being about a jq node (~0.7 µs). CPU time, one process, load average 5, 2026-12-01:
 * `(a*)*\1b` over 40 a's, 64 million units in 0.68 s (~11 ns a unit, ~64 a jq node's time);
 * `grep -rhoiE '\b(\w+) \1\b' /` over spree (7.7 MB) 141 million units in 2.8 s with its file
 * reading (~20 ns). At 48, the adversary's runaways (round 30 F4: `(a*)*\1x` over 20,000 a's,
 * `(x?)` 2,000 times then `\1z` over short lines) took 3.5-6.3 s of CPU for the whole budget on a
 * loaded machine (load 5), so they ended at the 5 s CPU limit or the work limit by the run: the
 * answer depended on the load; a pattern of 2,000 groups costs ~29 ns a unit (quiet, 2026-12-01),
 * `(a*)*\1x` ~5.5 ns. 16 keeps the whole budget (64 million units) under ~2 s of CPU for the
 * costliest kind measured, a margin of two or more to that limit. The price:
 * `grep -rhoiE '\b(\w+) \1\b' /` over spree (3.8-4.3 s of CPU at load 12, 3.3 s on V8) ends at
 * the work limit, every time (docs/shell.md, "Patterns that backtrack").
 */
export const BACKTRACK_UNITS_PER_STEP = 16;

/**
 * A RegExp whose matching is done by our counted backtracking machine (backtrack-machine.ts): for
 * the patterns the linear-time engine cannot run (a backreference, a look-around), which V8
 * would run uncounted. It backtracks as V8 does and gives V8's answers (offsets, groups, named
 * groups, `lastIndex`), but every step is charged to the call's work budget, so a runaway ends at
 * the work limit. It is a real RegExp (same source and flags), so `test`, `replace`, `matchAll`
 * and every command that takes a RegExp use it unchanged: the spec's RegExp methods all go
 * through `exec`. One difference from V8, by choice: with `unset: "fail"` (what guard.ts asks
 * for: GNU grep and sed, and PCRE2), a backreference to a group that took no part fails to
 * match, where JS matches it empty (`(x)?b\1` matches `ab` in JS, nothing in GNU grep).
 */
export class CountedRegExp extends RegExp {
  private readonly machine: BacktrackMachine;
  private readonly program: Program;
  readonly unset: UnsetBackreference;

  constructor(pattern: string | RegExp, flags?: string, unset?: UnsetBackreference) {
    super(pattern, flags);
    // A species copy (`matchAll`, `split`) of one of ours keeps its choice.
    this.unset = unset ?? (pattern instanceof CountedRegExp ? pattern.unset : "empty");
    // A copy with other flags (sed's `g`, `matchAll`'s) shares the program when the flags that shape it are the same.
    const shaping = (f: string): string => f.replace(/[^imsuv]/g, "");
    this.program = pattern instanceof CountedRegExp && shaping(pattern.flags) === shaping(this.flags) ? pattern.program : compileProgram(this.source, this.flags);
    this.machine = new BacktrackMachine(this.program, this.unset);
  }

  static override get [Symbol.species](): RegExpConstructor {
    return CountedRegExp as unknown as RegExpConstructor;
  }

  override exec(text: string): RegExpExecArray | null {
    const input = String(text);
    const moving = this.global || this.sticky;
    let start = moving ? this.lastIndex : 0;
    if (start > input.length) {
      if (moving) this.lastIndex = 0;
      return null;
    }
    // In `u` mode a position inside a surrogate pair stands for the pair's start (as V8 reads it).
    if (start > 0 && start < input.length) {
      const c = input.charCodeAt(start - 1);
      const d = input.charCodeAt(start);
      if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) start--;
    }
    const slots = this.machine.search(input, start, this.sticky, chargeUnits(BACKTRACK_UNITS_PER_STEP));
    if (slots === null) {
      if (moving) this.lastIndex = 0;
      return null;
    }
    const groups: (string | undefined)[] = [];
    for (let g = 0; g < this.program.groups; g++) {
      const s = slots[2 * g] as number;
      const e = slots[2 * g + 1] as number;
      groups.push(s < 0 || e < 0 ? undefined : input.slice(s, e));
    }
    const result = Object.assign(groups, { index: slots[0] as number, input, groups: undefined as Record<string, string | undefined> | undefined });
    if (this.program.names.size > 0) {
      const named: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
      for (const [name, k] of this.program.names) named[name] = groups[k];
      result.groups = named;
    }
    if (moving) this.lastIndex = slots[1] as number;
    return result as unknown as RegExpExecArray;
  }
}

/** `regex` on the counted backtracking machine, or why it cannot run there (no `u` flag, too large). */
export function countedRegExp(regex: RegExp, unset: UnsetBackreference): CountedRegExp | { readonly construct: string } {
  try {
    return new CountedRegExp(regex.source, regex.flags, unset);
  } catch (error) {
    if (error instanceof UnsupportedPattern) return { construct: error.message };
    throw error;
  }
}
