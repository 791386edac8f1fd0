import { OP, type Program, atomTest } from "./backtrack-program.js";

/**
 * Runs a `Program` (backtrack-program.ts) the way a backtracking engine does, with an explicit
 * stack of choices instead of recursion (a `.*` over a line of 20,000 characters is 20,000
 * choices, too deep for the call stack), and counts every instruction it executes and every
 * entry it takes back: the work a runaway pattern does (`(.*)\1x`, `(a*)*\1b`) is in that
 * count, and `spend` (search-budget.ts) ends it at the shell's work limit, whatever the machine's
 * speed.
 */

/** Units of work counted before `spend` is told of them: rarely enough not to slow the loop. */
const CHUNK = 4096;

/** Stack entry tags (positions, instruction numbers and slots are never negative). */
const CHOICE = -1;
const UNDO = -2;

/**
 * Whose rules for groups: JS's (`empty`: a backreference to a group that took no part matches
 * empty, a repeated group's captures are unset again at each repetition, and a repetition that
 * matched nothing fails) or GNU grep's and sed's and PCRE2's (`fail`: such a backreference
 * fails, a capture from an earlier repetition stays: `echo aba | grep -oE '((a)|b)+\2'` is
 * `aba`, `echo ab | sed -E 's/((a)|b)+/[\2]/'` `[a]`, and a repetition that matched nothing is
 * kept and ends the repeat: `echo xyb | grep -oE '(x?)*y\1'` is `xy`).
 */
export type UnsetBackreference = "empty" | "fail";

export class BacktrackMachine {
  /** Capture slots (2 per group: start, end; -1 unset), then the registers of optional repetitions. */
  private readonly slots: Int32Array;
  /** Entries of three numbers, up to `top`: kept allocated between searches (emptying an array gives its memory back, and the next search grows it again). */
  private readonly stack: number[] = [];
  private top = 0;
  private text = "";
  private work = 0;
  private spend: ((units: number) => void) | undefined;
  private readonly caseTests = new Map<number, (cp: number) => boolean>();
  private readonly extraWordChars: boolean;

  constructor(
    private readonly program: Program,
    private readonly unset: UnsetBackreference,
  ) {
    this.slots = new Int32Array(2 * program.groups + program.registers);
    // The spec's WordCharacters: under `iu`, ſ (U+017F) and the Kelvin sign fold into [A-Za-z0-9_].
    this.extraWordChars = program.ignoreCase && program.unicode;
  }

  /**
   * The leftmost match at or after `start` (only at `start` when `sticky`): the capture slots
   * (a copy), or null. `spend` is told of the work done, in units, and may throw to end it.
   */
  search(text: string, start: number, sticky: boolean, spend: ((units: number) => void) | undefined): Int32Array | null {
    this.text = text;
    this.spend = spend;
    // Setting every slot is work too: a pattern of thousands of groups run on many short lines
    // spent its time here, uncounted (adversary round 30 F4).
    this.work = this.slots.length;
    const slots = this.slots;
    let found: Int32Array | null = null;
    slots.fill(-1);
    this.top = 0;
    try {
      const first = this.program.first;
      for (let at = start; at <= text.length; at += this.width(at)) {
        this.work++;
        if (first !== null) {
          // A place whose character cannot start a match is passed without trying one.
          if (at >= text.length) break;
          const c = text.charCodeAt(at);
          if (!first(c >= 0xd800 && c <= 0xdbff ? (text.codePointAt(at) as number) : c)) {
            if (sticky) break;
            continue;
          }
        }
        // (A failed try undoes all it set: the slots are unset again for the next.)
        if (this.run(0, at) >= 0) {
          found = slots.slice(0, 2 * this.program.groups);
          break;
        }
        if (sticky) break;
      }
    } finally {
      this.top = 0;
      this.text = "";
      this.spend = undefined;
    }
    // The rest of the work, once the search is over (a search ended by `spend` has charged its own).
    const rest = this.work;
    this.work = 0;
    spend?.(rest);
    return found;
  }

  /** 2 at the start of a surrogate pair, else 1 (in `u` mode a pair is one character). */
  private width(at: number): number {
    const c = this.text.charCodeAt(at);
    if (c < 0xd800 || c > 0xdbff || at + 1 >= this.text.length) return 1;
    const d = this.text.charCodeAt(at + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }

  /** The character before `at` (a pair read whole), or -1 at the start. */
  private before(at: number): number {
    if (at <= 0) return -1;
    const d = this.text.charCodeAt(at - 1);
    if (d >= 0xdc00 && d <= 0xdfff && at >= 2) {
      const c = this.text.charCodeAt(at - 2);
      if (c >= 0xd800 && c <= 0xdbff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    }
    return d;
  }

  private isWord(at: number): boolean {
    if (at < 0 || at >= this.text.length) return false;
    const c = this.text.charCodeAt(at);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f) return true;
    return this.extraWordChars && (c === 0x17f || c === 0x212a);
  }

  /** Whether two characters are the same under the pattern's case folding (V8's, for literal `a`). */
  private sameCase(a: number, b: number): boolean {
    if (a === b) return true;
    if (!this.program.ignoreCase) return false;
    let test = this.caseTests.get(a);
    if (test === undefined) {
      test = atomTest(`\\u{${a.toString(16)}}`, "iu");
      this.caseTests.set(a, test);
    }
    return test(b);
  }

  /** Adds `units` of work; past a `CHUNK` of it, tells `spend`, which may throw to end the search. */
  private count(units: number): void {
    this.work += units;
    if (this.work >= CHUNK && this.spend !== undefined) {
      const done = this.work;
      this.work = 0;
      this.spend(done);
    }
  }

  /**
   * Runs from instruction `pc` at `at` until `match` or `subMatch`: the position there, or -1
   * when every choice failed (the slots are then as they were).
   */
  // long: one loop over the instructions, each a case of one switch: split into functions, the
  // position, instruction and stack top would go through fields on every step of the hot loop
  private run(startPc: number, startAt: number): number {
    const code = this.program.code;
    const text = this.text;
    const slots = this.slots;
    const stack = this.stack;
    const base = this.top;
    let top = base;
    let pc = startPc;
    let at = startAt;
    // Counted here and handed to `count` now and then: a call per instruction was most of the time.
    let work = 0;
    for (;;) {
      if (++work >= 256) {
        this.count(work);
        work = 0;
      }
      const ins = code[pc]!;
      let ok = true;
      switch (ins.op) {
        case OP.char:
        case OP.set: {
          let cp: number;
          let next: number;
          if (ins.back) {
            cp = this.before(at);
            next = at - (cp > 0xffff ? 2 : 1);
          } else if (at < text.length) {
            cp = text.codePointAt(at) as number;
            // A lone lead surrogate is a character of its own.
            if (cp > 0xffff && this.width(at) === 1) cp = text.charCodeAt(at);
            next = at + (cp > 0xffff ? 2 : 1);
          } else cp = -1;
          if (cp < 0 || (ins.op === OP.char ? cp !== ins.a : !ins.test!(cp))) ok = false;
          else {
            at = next!;
            pc++;
          }
          break;
        }
        case OP.split:
          stack[top] = ins.b;
          stack[top + 1] = at;
          stack[top + 2] = CHOICE;
          top += 3;
          pc = ins.a;
          break;
        case OP.jump:
          pc = ins.a;
          break;
        case OP.save:
        case OP.mark: {
          const k = ins.op === OP.save ? ins.a : 2 * this.program.groups + ins.a;
          stack[top] = k;
          stack[top + 1] = slots[k] as number;
          stack[top + 2] = UNDO;
          top += 3;
          slots[k] = at;
          pc++;
          break;
        }
        case OP.reset:
          // Each slot looked at is work (a repeat of many groups resets them all on every pass).
          work += ins.b - ins.a;
          for (let k = ins.a; k < ins.b && this.unset === "empty"; k++) {
            if (slots[k] === -1) continue;
            stack[top] = k;
            stack[top + 1] = slots[k] as number;
            stack[top + 2] = UNDO;
            top += 3;
            slots[k] = -1;
          }
          pc++;
          break;
        case OP.emptyCheck:
          // A pass that matched nothing: JS fails it; GNU and PCRE2 keep it (its captures set,
          // empty ones included: `echo xyb | grep -oE '(x?)*y\1'` is `xy`) and repeat no more.
          if (slots[2 * this.program.groups + ins.a] !== at) pc++;
          else if (this.unset === "fail") pc = ins.b;
          else ok = false;
          break;
        case OP.lineStart:
          ok = at === 0 || (ins.a === 1 && isLineTerminator(text.charCodeAt(at - 1)));
          pc++;
          break;
        case OP.lineEnd:
          ok = at === text.length || (ins.a === 1 && isLineTerminator(text.charCodeAt(at)));
          pc++;
          break;
        case OP.word:
          ok = (this.isWord(at - 1) !== this.isWord(at)) === (ins.a === 0);
          pc++;
          break;
        case OP.peek: {
          let cp: number;
          if (ins.back) cp = this.before(at);
          else if (at < text.length) cp = this.width(at) === 2 ? (text.codePointAt(at) as number) : text.charCodeAt(at);
          else cp = -1;
          ok = (cp >= 0 && ins.test!(cp)) !== (ins.a === 1);
          pc++;
          break;
        }
        case OP.backref: {
          const end = this.backref(ins.a, at, ins.back);
          if (end < 0) ok = false;
          else {
            at = end;
            pc++;
          }
          break;
        }
        case OP.look: {
          this.count(work);
          work = 0;
          const before = slots.slice();
          this.top = top;
          const found = this.run(pc + 1, at) >= 0;
          if (found === (ins.a === 1)) {
            // A negative look-around that matched, or a positive one that did not: its captures are gone.
            slots.set(before);
            ok = false;
          } else {
            // A look-around is not backtracked into: what it captured stays, undone with what follows.
            for (let k = 0; k < before.length; k++) {
              if (slots[k] === before[k]) continue;
              stack[top] = k;
              stack[top + 1] = before[k] as number;
              stack[top + 2] = UNDO;
              top += 3;
            }
            pc = ins.b;
          }
          break;
        }
        case OP.subMatch:
        case OP.match:
          this.top = base;
          this.count(work);
          return at;
        default:
          throw new Error(`unknown instruction ${ins.op}`);
      }
      if (ok) continue;
      // Back to the last choice, undoing what was set since.
      for (;;) {
        if (top === base) {
          this.top = base;
          this.count(work);
          return -1;
        }
        top -= 3;
        const tag = stack[top + 2] as number;
        const b = stack[top + 1] as number;
        const a = stack[top] as number;
        work++;
        if (tag === CHOICE) {
          pc = a;
          at = b;
          break;
        }
        slots[a] = b;
      }
    }
  }

  /** Where the text group `k` captured ends when it follows `at` (precedes it, backwards), or -1. */
  private backref(k: number, at: number, back: boolean): number {
    const start = this.slots[2 * k] as number;
    const end = this.slots[2 * k + 1] as number;
    if (start < 0 || end < 0) return this.unset === "empty" ? at : -1;
    const length = end - start;
    // A character compared under case folding asks V8's folding (remembered): as costly as a few instructions.
    this.count(this.program.ignoreCase ? 4 * length : length);
    const text = this.text;
    if (!this.program.ignoreCase) {
      const from = back ? at - length : at;
      if (from < 0 || from + length > text.length) return -1;
      for (let i = 0; i < length; i++) if (text.charCodeAt(start + i) !== text.charCodeAt(from + i)) return -1;
      return back ? from : at + length;
    }
    // Under case folding, character by character (code points), each folded as V8 folds it.
    let pos = at;
    if (back) {
      for (let i = end; i > start; ) {
        const c = this.before(i);
        i -= c > 0xffff ? 2 : 1;
        const cp = this.before(pos);
        if (cp < 0 || !this.sameCase(c, cp)) return -1;
        pos -= cp > 0xffff ? 2 : 1;
      }
      return pos;
    }
    for (let i = start; i < end; ) {
      const cw = this.width(i);
      const c = cw === 2 ? (text.codePointAt(i) as number) : text.charCodeAt(i);
      i += cw;
      if (pos >= text.length) return -1;
      const w = this.width(pos);
      const cp = w === 2 ? (text.codePointAt(pos) as number) : text.charCodeAt(pos);
      if (!this.sameCase(c, cp)) return -1;
      pos += w;
    }
    return pos;
  }
}

/** The spec's LineTerminator: what `^` and `$` stand after and before under the `m` flag. */
function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}
