// Exact-text corrections to the npm re2js 2.10 (build/index.js) that LinearRegExp
// (src/engine/shell/regex/linear.ts) searches with: its engines count their work, and a search
// stops inside the engine once that work passes a limit the caller sets (issue 25, adversary
// round 28 F2). Applied with just-bash's (just-bash-patches.mjs, same rules: each `find` occurs
// exactly once, in that one file) by the CLI bundle, the test runner and the module hooks.

/**
 * RE2JS_WORK.n counts thread steps: the NFA (Pike VM), at each position, the threads it steps
 * and the threads it adds (each copying its captures, a unit per four), and the backtracker
 * (BitState) each (instruction, position) it visits. This is the work a search does: a plain
 * pattern steps a few threads a character, `(a?){1000}a{1000}z` ~2,000 (its cost per character
 * grows with the pattern). OnePass (anchored patterns only) steps one instruction a character,
 * and the DFA and the prefix scans are not used by `find` with a match span, so neither counts.
 * Once `n` passes `lim`, `on()` is called, which throws (the caller's budget is spent): the
 * machine or bit state that threw is never put back in re2js's pools, so no search reuses it.
 */
const RE2JS_WORK = String.raw`var Qrw = { n: 0, lim: Infinity, on: null };
function Qrwt(u) { if ((Qrw.n += u) > Qrw.lim) Qrw.on(); }
`;

/** One correction each: the exact text, what replaces it, and why. */
export const RE2JS_PATCHES = [
  {
    why: "re2js's engines count their work (RE2JS_WORK), so LinearRegExp charges a search by what it did and ends one that passes the budget inside the engine",
    find: "export { Matcher, MatcherInput, MatcherInputBase, RE2JS, RE2JSCompileException, RE2JSException, RE2JSFlagsException, RE2JSGroupException, RE2JSInternalException, RE2JSSyntaxException, RE2Set, re };",
    replace: `${RE2JS_WORK}export { Matcher, MatcherInput, MatcherInputBase, RE2JS, RE2JSCompileException, RE2JSException, RE2JSFlagsException, RE2JSGroupException, RE2JSInternalException, RE2JSSyntaxException, RE2Set, re, Qrw as RE2JS_WORK };`,
  },
  {
    why: "(the NFA: the threads at a position, before it steps them)",
    find: "step(runq, nextq, pos, nextPos, c, nextCond, anchor, atEnd) {\n\t\tconst longest = this.re2.longest;",
    replace: "step(runq, nextq, pos, nextPos, c, nextCond, anchor, atEnd) {\n\t\tconst longest = this.re2.longest, Qs = runq.size;",
  },
  {
    why: "(the NFA: counted once per position, the threads stepped and those added for the next)",
    find: "\t\trunq.clear();\n\t}\n\tspawnLookbehinds(",
    replace: "\t\tQrwt(Qs + nextq.size * (1 + (this.ncap >> 2)));\n\t\trunq.clear();\n\t}\n\tspawnLookbehinds(",
  },
  {
    why: "(the backtracker: each instruction and position it visits)",
    find: "if ((this.visited[idx] & mask) !== 0) return false;",
    replace: "if ((this.visited[idx] & mask) !== 0) return false;\n\t\tQrwt(1);",
  },
];

/** Whether a path is the npm re2js's ES module build (just-bash bundles its own copy in its chunks). */
export const RE2JS_FILE = /[\\/]node_modules[\\/]re2js[\\/]build[\\/]index\.js$/;
