import { RegExpParser, type AST } from "@eslint-community/regexpp";

/**
 * A JS regex (`u` mode) compiled for the counted backtracking machine (backtrack-machine.ts):
 * the program a backtracking engine runs, written out as instructions so that every step it takes
 * can be counted, and a runaway ended at the shell's work limit (guard.ts). The syntax is read by
 * regexpp (the parser eslint uses), so what is accepted is exactly ECMAScript's; the meaning of
 * each construct follows the spec's matcher semantics (ECMA-262 22.2.2), which V8 implements.
 */

/** Instruction kinds. */
export const OP = {
  /** One character equal to `a` (a code point). */
  char: 0,
  /** One character for which `test` holds (a class, an escape, `.`, a literal under `i`). */
  set: 1,
  /** Try `a` first and, if what follows fails, `b`. */
  split: 2,
  jump: 3,
  /** Capture slot `a` := the position. */
  save: 4,
  /** Capture slots `a` to `b` (exclusive) := unset: the captures of a repeated group, at each repetition. */
  reset: 5,
  /** `^`, `$` (`a`: 1 with the `m` flag). */
  lineStart: 6,
  lineEnd: 7,
  /** `\b` (`a`: 0), `\B` (`a`: 1). */
  word: 8,
  /** The text group `a` captured, again. */
  backref: 9,
  /** A look-around: its program starts at the next instruction and ends at `subMatch`; `a`: 1 when negated; `b`: where to go on. */
  look: 10,
  subMatch: 11,
  /** Register `a` := the position (where an optional repetition started). */
  mark: 12,
  /**
   * A repetition past the minimum that matched nothing (the position is still register `a`'s):
   * JS fails it (the spec's RepeatMatcher); GNU and PCRE2 keep it, captures and all, and repeat
   * no more, so the machine then goes to `b`, after the repeat.
   */
  emptyCheck: 13,
  match: 14,
  /** A look-around of one character (`(?<=[W])`, `(?![W])`, as GNU's `\b` and `-w` are translated): `test` on the character after (before, `back`); `a`: 1 when negated. */
  peek: 15,
} as const;

export interface Instruction {
  readonly op: number;
  /** Reads backwards (inside a look-behind). */
  readonly back: boolean;
  a: number;
  b: number;
  readonly test: ((cp: number) => boolean) | null;
}

export interface Program {
  readonly code: readonly Instruction[];
  /** Capture groups, the whole match (0) included. */
  readonly groups: number;
  /** Names of named groups, by group number. */
  readonly names: ReadonlyMap<string, number>;
  /** Registers for `mark`, after the capture slots. */
  readonly registers: number;
  readonly ignoreCase: boolean;
  readonly unicode: boolean;
  /** What the first character of any match must pass, when every match has one (`firstTest`). */
  readonly first: ((cp: number) => boolean) | null;
}

/** A pattern this machine does not run (no `u` flag, or a program too large), with the reason. */
export class UnsupportedPattern extends Error {}

/**
 * Instructions a program may hold: counted repeats are written out (`(a)\1{1000}` is 1,000
 * backreferences), so `(x{1000}){1000}\1` would be a million; past this it is refused.
 */
export const MAX_INSTRUCTIONS = 100_000;

/** Whether a JS regex source holds a backreference (`\1`, `\k<name>`), read by the spec's grammar. */
export function hasBackreference(source: string, flags: string): boolean {
  // Most sources have no `\` followed by a digit or `k`: no need to parse them.
  if (!/\\[1-9k]/.test(source)) return false;
  let found = false;
  const visit = (node: AST.Node): void => {
    if (found) return;
    if (node.type === "Backreference") found = true;
    else if ("alternatives" in node) for (const a of node.alternatives) visit(a);
    else if (node.type === "Alternative") for (const e of node.elements) visit(e);
    else if (node.type === "Quantifier") visit(node.element);
  };
  visit(parse(source, flags));
  return found;
}

function parse(source: string, flags: string): AST.Pattern {
  const parser = new RegExpParser({ ecmaVersion: 2024 });
  return parser.parsePattern(source, 0, source.length, { unicode: flags.includes("u"), unicodeSets: flags.includes("v") });
}

/**
 * One character class, escape or literal as a test of a code point: V8's own answer for that
 * atom on that one character (so case folding, `\w` under `iu`, `\p{...}` and `.` are V8's
 * exactly), remembered per code point.
 */
export function atomTest(raw: string, flags: string): (cp: number) => boolean {
  const re = new RegExp(`^(?:${raw})$`, flags);
  let bmp: Uint8Array | undefined;
  const astral = new Map<number, boolean>();
  return (cp) => {
    if (cp < 0x10000) {
      bmp ??= new Uint8Array(0x10000);
      let known = bmp[cp] as number;
      if (known === 0) {
        known = re.test(String.fromCharCode(cp)) ? 1 : 2;
        bmp[cp] = known;
      }
      return known === 1;
    }
    let known = astral.get(cp);
    if (known === undefined) {
      known = re.test(String.fromCodePoint(cp));
      astral.set(cp, known);
    }
    return known;
  };
}

/** Compile `source` with `flags` (those of a RegExp that accepted it). Throws `UnsupportedPattern`. */
export function compileProgram(source: string, flags: string): Program {
  if (!flags.includes("u") || flags.includes("v")) throw new UnsupportedPattern("a pattern without the u flag");
  return new Compiler(flags).compile(parse(source, flags));
}

class Compiler {
  private readonly code: Instruction[] = [];
  private readonly groupOf = new Map<AST.CapturingGroup, number>();
  private readonly names = new Map<string, number>();
  private registers = 0;
  private readonly ignoreCase: boolean;
  /** `m`: `^` and `$` also at line ends. */
  private readonly multiline: boolean;
  /** The flags an atom's V8 test is compiled with: case and dot-all matter, `g`, `y`, `m` do not. */
  private readonly atomFlags: string;
  private readonly tests = new Map<string, (cp: number) => boolean>();

  constructor(flags: string) {
    this.ignoreCase = flags.includes("i");
    this.multiline = flags.includes("m");
    this.atomFlags = `u${this.ignoreCase ? "i" : ""}${flags.includes("s") ? "s" : ""}`;
  }

  compile(pattern: AST.Pattern): Program {
    // Groups are numbered by their opening parenthesis, left to right.
    const groups: AST.CapturingGroup[] = [];
    const collect = (node: AST.Node): void => {
      if (node.type === "CapturingGroup") groups.push(node);
      if ("alternatives" in node) for (const a of node.alternatives) collect(a);
      else if (node.type === "Alternative") for (const e of node.elements) collect(e);
      else if (node.type === "Quantifier") collect(node.element);
    };
    collect(pattern);
    groups.sort((x, y) => x.start - y.start);
    groups.forEach((g, k) => {
      this.groupOf.set(g, k + 1);
      if (g.name !== null) this.names.set(g.name, k + 1);
    });
    this.emit(OP.save, false, 0);
    this.disjunction(pattern.alternatives, false);
    this.emit(OP.save, false, 1);
    this.emit(OP.match, false);
    const first = firstTest(this.code, 0, 0);
    return { code: this.code, groups: groups.length + 1, names: this.names, registers: this.registers, ignoreCase: this.ignoreCase, unicode: true, first };
  }

  private emit(op: number, back: boolean, a = 0, b = 0, test: ((cp: number) => boolean) | null = null): Instruction {
    if (this.code.length >= MAX_INSTRUCTIONS) throw new UnsupportedPattern(`a pattern of over ${MAX_INSTRUCTIONS} instructions with its repeats written out`);
    const instruction: Instruction = { op, back, a, b, test };
    this.code.push(instruction);
    return instruction;
  }

  /** `a|b|c`: each alternative tried in order. */
  private disjunction(alternatives: readonly AST.Alternative[], back: boolean): void {
    const ends: Instruction[] = [];
    alternatives.forEach((alternative, k) => {
      const last = k === alternatives.length - 1;
      const split = last ? undefined : this.emit(OP.split, back);
      if (split !== undefined) split.a = this.code.length;
      this.sequence(alternative.elements, back);
      if (split !== undefined) {
        ends.push(this.emit(OP.jump, back));
        split.b = this.code.length;
      }
    });
    for (const end of ends) end.a = this.code.length;
  }

  /** A sequence, read right to left inside a look-behind (the spec's backward direction). */
  private sequence(elements: readonly AST.Element[], back: boolean): void {
    const ordered = back ? [...elements].reverse() : elements;
    for (const element of ordered) this.element(element, back);
  }

  private element(node: AST.Element, back: boolean): void {
    switch (node.type) {
      case "Character":
        if (this.ignoreCase) this.emit(OP.set, back, 0, 0, this.test(node.raw));
        else this.emit(OP.char, back, node.value);
        return;
      case "CharacterSet":
      case "CharacterClass":
      case "ExpressionCharacterClass":
        this.emit(OP.set, back, 0, 0, this.test(node.raw));
        return;
      case "Group":
        this.disjunction(node.alternatives, back);
        return;
      case "CapturingGroup": {
        const k = this.groupOf.get(node) as number;
        // Backwards, a group's end is reached first (the spec's BackreferenceMatcher and groups in direction -1).
        this.emit(OP.save, back, back ? 2 * k + 1 : 2 * k);
        this.disjunction(node.alternatives, back);
        this.emit(OP.save, back, back ? 2 * k : 2 * k + 1);
        return;
      }
      case "Backreference": {
        const target = Array.isArray(node.resolved) ? undefined : (node.resolved as AST.CapturingGroup);
        if (target === undefined) throw new UnsupportedPattern("a backreference to one of several groups of one name");
        this.emit(OP.backref, back, this.groupOf.get(target) as number);
        return;
      }
      case "Assertion":
        this.assertion(node, back);
        return;
      case "Quantifier":
        this.quantifier(node, back);
        return;
      default:
        throw new UnsupportedPattern(`the construct ${(node as AST.Node).raw}`);
    }
  }

  private assertion(node: AST.Assertion, back: boolean): void {
    switch (node.kind) {
      case "start":
        this.emit(OP.lineStart, back, this.multiline ? 1 : 0);
        return;
      case "end":
        this.emit(OP.lineEnd, back, this.multiline ? 1 : 0);
        return;
      case "word":
        this.emit(OP.word, back, node.negate ? 1 : 0);
        return;
      case "lookahead":
      case "lookbehind": {
        const only = node.alternatives.length === 1 && node.alternatives[0]?.elements.length === 1 ? node.alternatives[0].elements[0] : undefined;
        if (only !== undefined && (only.type === "CharacterClass" || only.type === "CharacterSet" || only.type === "Character")) {
          // One character looked at: no program of its own to run (most look-arounds our translators write).
          this.emit(OP.peek, node.kind === "lookbehind", node.negate ? 1 : 0, 0, this.test(only.raw));
          return;
        }
        const look = this.emit(OP.look, back, node.negate ? 1 : 0);
        this.disjunction(node.alternatives, node.kind === "lookbehind");
        this.emit(OP.subMatch, back);
        look.b = this.code.length;
        return;
      }
    }
  }

  /**
   * `x{min,max}`: `min` copies, then (greedy) each further one tried before going on, or (lazy)
   * after. A repetition past the minimum starts by marking where it started and fails if it ends
   * there; each repetition unsets the captures inside first (the spec's RepeatMatcher).
   */
  private quantifier(node: AST.Quantifier, back: boolean): void {
    const max = node.max;
    if (max === 0) return;
    const [from, to] = this.captureRange(node.element);
    const body = (): void => {
      if (to > from) this.emit(OP.reset, back, 2 * from, 2 * to);
      this.element(node.element, back);
    };
    for (let k = 0; k < node.min; k++) body();
    if (max === node.min) return;
    const register = this.registers++;
    const exits: Instruction[] = [];
    const checks: Instruction[] = [];
    const optional = (): number => {
      const at = this.code.length;
      const split = this.emit(OP.split, back);
      const start = this.code.length;
      this.emit(OP.mark, back, register);
      body();
      checks.push(this.emit(OP.emptyCheck, back, register));
      if (node.greedy) split.a = start;
      else split.b = start;
      exits.push(split);
      return at;
    };
    if (max === Infinity) this.emit(OP.jump, back, optional()); else for (let k = node.min; k < max; k++) optional();
    for (const split of exits) {
      if (node.greedy) split.b = this.code.length;
      else split.a = this.code.length;
    }
    for (const check of checks) check.b = this.code.length;
  }

  /** The group numbers inside `node`, as [first, last + 1): numbered in order, they are consecutive. */
  private captureRange(node: AST.Node): [number, number] {
    let lo = Infinity;
    let hi = -Infinity;
    const visit = (n: AST.Node): void => {
      if (n.type === "CapturingGroup") {
        const k = this.groupOf.get(n) as number;
        lo = Math.min(lo, k);
        hi = Math.max(hi, k);
      }
      if ("alternatives" in n) for (const a of n.alternatives) visit(a);
      else if (n.type === "Alternative") for (const e of n.elements) visit(e);
      else if (n.type === "Quantifier") visit(n.element);
    };
    visit(node);
    return lo === Infinity ? [0, 0] : [lo, hi + 1];
  }

  private test(raw: string): (cp: number) => boolean {
    let test = this.tests.get(raw);
    if (test === undefined) {
      test = atomTest(raw, this.atomFlags);
      this.tests.set(raw, test);
    }
    return test;
  }
}

/**
 * What the character at a match's start must pass, read from the program: the test of the first
 * instruction that takes a character on every path from `pc` (both sides of a choice), or null
 * when some path may match without one (an empty match, a backreference). The machine skips the
 * places where it fails without starting a match there: `(\w)\1` over a page tries a match only
 * at word characters (V8 scans so too).
 */
function firstTest(code: readonly Instruction[], pc: number, depth: number): ((cp: number) => boolean) | null {
  for (let steps = 0; depth < 16 && steps < 64; steps++) {
    const ins = code[pc];
    if (ins === undefined || (ins.back && ins.op !== OP.peek)) return null;
    switch (ins.op) {
      case OP.char: {
        const want = ins.a;
        return (cp) => cp === want;
      }
      case OP.set:
        return ins.test;
      case OP.save:
      case OP.reset:
      case OP.mark:
      case OP.emptyCheck:
      case OP.lineStart:
      case OP.lineEnd:
      case OP.word:
        pc++;
        break;
      case OP.peek:
        pc++;
        break;
      case OP.look:
        // A look-around takes nothing: what follows it starts at the same place.
        pc = ins.b;
        break;
      case OP.jump:
        pc = ins.a;
        break;
      case OP.split: {
        const a = firstTest(code, ins.a, depth + 1);
        const b = a === null ? null : firstTest(code, ins.b, depth + 1);
        return a === null || b === null ? null : (cp) => a(cp) || b(cp);
      }
      default:
        return null;
    }
  }
  return null;
}
