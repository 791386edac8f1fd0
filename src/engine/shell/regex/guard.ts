import { hasBackreference } from "./backtrack-program.js";
import { countedRegExp } from "./counted.js";
import { FixedStringsRegExp } from "./fixed-strings.js";
import { linearRegExp } from "./linear.js";
import { LongLineRegExp, type LongLineScope } from "./long-line.js";
import { hasUnboundedRepeat, isRisky } from "./shape.js";

/**
 * JS regexes backtrack: `(\w+\s?)+$` takes exponential time on a line it does not match, so
 * does `(\w|\w)+!` (two alternatives that match the same text), and `.*a.*b.*c` polynomial
 * time on a long line; a running regex cannot be interrupted, so it would hold its shell worker
 * until the host stops it. ripgrep and GNU grep use automata and never do this.
 *
 * The guard decides by the pattern alone, so a busy machine never changes an answer: a pattern
 * whose shape can backtrack badly (`isRisky`, shape.ts) runs on RE2JS, a linear-time
 * engine (`LinearRegExp`), and gives the same answer as on V8, in time bounded by the pattern
 * times the text. Other patterns (nearly all) keep V8, several times faster on plain searches.
 * A pattern with a backreference (which no linear-time engine can run, and which makes even a
 * safe-looking shape super-linear on V8: `(.*)\1x`), and a risky one with a look-around (`-w`),
 * run on our counted backtracking machine (`CountedRegExp`): V8's answers, each step charged to
 * the work budget, so a runaway ends at the work limit. A pattern kept on V8 with a repeat
 * without an upper bound costs up to a line's length squared there (`.*X`), so it searches a long
 * line on the linear-time engine (`LongLineRegExp`): a decision by the pattern and the text.
 * Figures in docs/shell.md, "Regular expressions".
 */

/**
 * Groups nested deeper than this are refused. Every engine here reads a pattern by descending
 * its tree, so thousands of groups inside one another (a pattern from `-f`) overflowed the
 * stack: exit 1, "Maximum call stack size exceeded" (adversary round 30). PCRE2 and ripgrep
 * stop at 250; GNU grep -E has no such limit, but no real pattern comes near this one.
 */
export const MAX_GROUP_NESTING = 1000;

/**
 * The regex to search with, or why the pattern is refused (the words after `name: `). `scope`:
 * whether the caller's matches never run across a line end (`lines`: grep and rg), so that only
 * a text's long lines leave V8, or may (`text`: sed, find), so that a long text does.
 */
export function guardRegex(regex: RegExp, scope: LongLineScope = "text"): RegExp | { readonly refused: string } {
  // Fixed strings run on an automaton, linear in the text whatever they are.
  if (regex instanceof FixedStringsRegExp) return regex;
  if (groupNesting(regex.source) > MAX_GROUP_NESTING) {
    return { refused: `this pattern nests groups over ${MAX_GROUP_NESTING} deep, more than this shell's regex engines can read; simplify it` };
  }
  const backreference = hasBackreference(regex.source, regex.flags);
  if (!backreference && !isRisky(regex.source)) return hasUnboundedRepeat(regex.source) ? new LongLineRegExp(regex.source, regex.flags, scope) : regex;
  const linear = backreference ? undefined : linearRegExp(regex);
  if (linear instanceof RegExp) return linear;
  // Our callers are GNU grep, sed and find, and PCRE2 (grep -P, rg -P): a backreference to a group that took no part fails there.
  const counted = countedRegExp(regex, "fail");
  if (counted instanceof RegExp) return counted;
  return {
    refused: `this pattern needs a backtracking regex engine (it has a backreference, or a look-around where it can backtrack badly), and this shell's counted one cannot run ${counted.construct}; simplify it`,
  };
}

/** How deep a JS regex source's parentheses nest (escapes and classes skipped). */
function groupNesting(source: string): number {
  let depth = 0;
  let deepest = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (inClass) inClass = c !== 0x5d; /* ] */
    else if (c === 0x5b /* [ */) inClass = true;
    else if (c === 0x28 /* ( */) deepest = Math.max(deepest, ++depth);
    else if (c === 0x29 /* ) */) depth--;
  }
  return deepest;
}
