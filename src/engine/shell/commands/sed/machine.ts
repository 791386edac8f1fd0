import { LIMITS } from "../../../../limits.js";
import { copyRegExp } from "../../regex/linear.js";
import type { CommandIo } from "../../lib/command.js";
import { lowerChar, upperChar } from "../../lib/case-map.js";
import { lookup } from "../../lib/files.js";
import { type Address, type ReplacementPart, type SedCommand, type SedProgram, SedScriptError, type Substitution } from "./script.js";
import { joinBytes, textFor } from "./byte-escapes.js";
import { STEP_COST } from "../../work-budget.js";

/**
 * The most characters sed's pattern space or hold space may hold: as much as one command may
 * print (`maxInternalOutputBytes`). Why: a script can double its pattern space in one step
 * (`:a;s/x/xx/g;ta`), so thirty steps make a gigabyte; no step count nor clock check stops that
 * in time, in the process's own thread (issue 25: 22 s and 1.8 GB before). Counted in UTF-16
 * characters, so the answer is the same on any machine.
 */
export const MAX_SED_SPACE = LIMITS.shell.maxInternalOutputBytes;

/** Thrown when a sed command would make its pattern or hold space larger than `MAX_SED_SPACE`. */
export class SedSpaceExceeded extends Error {
  constructor(readonly space: "pattern" | "hold") {
    super(`${space} space would pass ${MAX_SED_SPACE} characters (a limit of the docs shell: sed holds at most that much; work on less text at once)`);
  }
}

/**
 * Thrown when sed runs more commands without reading a line than `maxSedIterations` (the figure
 * the shell gives just-bash's own sed, whose bound this is: ours replaced it and had none). Why:
 * a loop that reads no input (`:a;s/x/x/;ta`) never ends by itself, and each of its steps is so
 * cheap that the call's work budget, set far above what the time limit allows, was never
 * reached: it ended by the clock (exit 124 after 5 s, or sooner on an idle machine), an answer
 * that depended on the machine. Counted, so the answer is the same on any machine; a loop that
 * reads (`:a;N;$!ba`) starts the count again at each line, so it is bounded by its input.
 */
export class SedLoopExceeded extends Error {
  constructor(readonly max: number) {
    super(`ran ${max} commands without reading a line, a loop that does not end (a limit of the docs shell: a loop in the script must read input or stop sooner)`);
  }
}

/** One input line, with the file it came from (`F`). */
export interface Line {
  readonly text: string;
  readonly newline: boolean;
  readonly file: string;
}

/** The machine's registers and what the current cycle has done. */
interface State {
  ps: string;
  hs: string;
  lineNo: number;
  /** Pattern space came from a line without a trailing newline. */
  missingNewline: boolean;
  file: string;
  substituted: boolean;
  appendQueue: string[];
  quit: number | undefined;
  /** `q` ended the run: GNU ends its output with a newline even when the input had none. */
  quitWithNewline: boolean;
  /** `R`: the next line to read of each file. */
  readPositions: Map<string, number>;
  lastRegex: RegExp | null;
}

/** sed's output: a final line without newline stays without one, unless more output follows. */
export class SedOut {
  private pendingNewline = false;
  constructor(private readonly io: CommandIo) {}

  write(text: string, newline: boolean): void {
    if (this.pendingNewline) this.io.out.write("\n");
    this.pendingNewline = false;
    this.io.out.write(text);
    if (newline) this.io.out.write("\n");
    else this.pendingNewline = true;
  }

  /** The newline a line printed without one still owes (GNU's `q` pays it). */
  endLine(): void {
    if (this.pendingNewline) this.io.out.write("\n");
    this.pendingNewline = false;
  }

  /** Text written as it is (a, i, c, =, and r/R files, which may lack a final newline: GNU adds none). */
  raw(text: string): void {
    if (this.pendingNewline) this.io.out.write("\n");
    this.pendingNewline = false;
    this.io.out.write(text);
  }
}

/** A replacement's parts for one match, with GNU's case conversions (`\\U`, `\\l`, `\\E`). */
function expandReplacement(parts: readonly ReplacementPart[], m: RegExpExecArray): string {
  let out = "";
  let mode: "" | "L" | "U" = "";
  let once: "" | "l" | "u" = "";
  // Without a case conversion the text goes as it is: character by character, a doubling
  // `s/x*/&&/` spent seconds and a gigabyte of string pieces on 16 million characters.
  if (!parts.some((p) => p.kind === "case")) {
    for (const p of parts) out += p.kind === "text" ? p.text : p.kind === "group" ? (m[p.n] ?? "") : "";
    return out;
  }
  const emit = (s: string) => {
    for (const ch of s) {
      let c = mode === "L" ? lowerChar(ch) : mode === "U" ? upperChar(ch) : ch;
      if (once !== "") {
        c = once === "l" ? lowerChar(c) : upperChar(c);
        once = "";
      }
      out += c;
    }
  };
  for (const p of parts) {
    if (p.kind === "text") emit(p.text);
    else if (p.kind === "group") emit(m[p.n] ?? "");
    else if (p.op === "E") {
      mode = "";
      once = "";
    } else if (p.op === "L" || p.op === "U") {
      mode = p.op;
      once = "";
    } else once = p.op;
  }
  return out;
}

/** `s`: GNU semantics for the Nth match, `g`, and empty matches (never right after a match). */
function substitute(text: string, sub: Substitution, re: RegExp, io: CommandIo): string | undefined {
  // A regex that meets part of a character runs on its bytes; joinBytes makes characters again.
  const ps = textFor(re, text);
  // A copy of the same kind: a pattern the guard put on the linear-time engine stays there.
  const g = copyRegExp(re, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  let out = "";
  let pos = 0;
  let count = 0;
  let replaced = false;
  let prevEnd = -1;
  g.lastIndex = 0;
  while (g.lastIndex <= ps.length) {
    const m = g.exec(ps);
    if (m === null) break;
    // Each match is a step, the empty one right after a match too (GNU skips it, but finding it
    // cost as much): `s/./&/g` and `s/x*/-/g` over a large pattern space are loops of their own.
    io.step(STEP_COST.sedMatch);
    const start = m.index;
    const end = start + m[0].length;
    if (m[0] === "" && start === prevEnd) {
      g.lastIndex = start + ((ps.codePointAt(start) ?? 0) > 0xffff ? 2 : 1);
      continue;
    }
    count++;
    if (count >= sub.nth && (sub.global || count === sub.nth)) {
      out += ps.slice(pos, start) + expandReplacement(sub.replacement, m);
      // Checked as it grows: one `s/x/&&&&&&&&/g` multiplies the text before any later check.
      if (out.length > MAX_SED_SPACE) throw new SedSpaceExceeded("pattern");
      pos = end;
      replaced = true;
      if (!sub.global) break;
    }
    prevEnd = end;
    g.lastIndex = m[0] === "" ? start + ((ps.codePointAt(start) ?? 0) > 0xffff ? 2 : 1) : end;
  }
  if (!replaced) return undefined;
  out += ps.slice(pos);
  if (out.length > MAX_SED_SPACE) throw new SedSpaceExceeded("pattern");
  // Bytes the replacement wrote next to bytes of the text may spell a character now (`s/x/\xc3/`
  // then `s/$/\xa9/` makes é, which GNU's `s/é/E/` then matches).
  return joinBytes(out);
}

/** `l`: C escapes, octal for other non-printable bytes, wrapped with `\` at the width. */
function listLine(ps: string, width: number): string {
  const escapes: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 92: "\\\\" };
  const pieces: string[] = [];
  for (const b of Buffer.from(ps, "utf8")) {
    if (escapes[b] !== undefined) pieces.push(escapes[b] as string);
    else if (b < 32 || b >= 127) pieces.push(`\\${b.toString(8).padStart(3, "0")}`);
    else pieces.push(String.fromCharCode(b));
  }
  let out = "";
  let col = 0;
  for (const p of pieces) {
    if (width > 1 && col + p.length > width - 1) {
      out += "\\\n";
      col = 0;
    }
    out += p;
    col += p.length;
  }
  return `${out}$\n`;
}

/** How a cycle ends: print the pattern space or not, quit (printing or not), or restart (`D`). */
type EndCycle = "print" | "noprint" | "quit" | "quit-silent" | "restart";

/** What a command does to the flow: nothing (next command), end the cycle, or jump. */
type Flow = void | { readonly end: EndCycle } | { readonly goto: number };

/** sed's machine over one input stream: registers, addresses, and the cycle. */
class SedMachine {
  private next = 0;
  /** Commands run since the last line was read (`SedLoopExceeded`). */
  private sinceRead = 0;
  private readonly maxSinceRead: number;
  readonly st: State = {
    ps: "",
    hs: "",
    lineNo: 0,
    missingNewline: false,
    file: "-",
    substituted: false,
    appendQueue: [],
    quit: undefined,
    quitWithNewline: false,
    readPositions: new Map(),
    lastRegex: null,
  };

  constructor(
    readonly program: SedProgram,
    private readonly lines: readonly Line[],
    private readonly quiet: boolean,
    readonly lineLength: number,
    readonly out: SedOut,
    readonly io: CommandIo,
  ) {
    for (const c of program.commands) {
      c.active = false;
      c.rangeEnd = undefined;
    }
    this.maxSinceRead = io.ctx.limits.maxSedIterations;
  }

  isLast(): boolean {
    return this.next >= this.lines.length;
  }

  readLine(): boolean {
    const line = this.lines[this.next];
    if (line === undefined) return false;
    this.next++;
    this.sinceRead = 0;
    this.st.lineNo++;
    this.st.ps = line.text;
    this.st.missingNewline = !line.newline;
    this.st.file = line.file;
    return true;
  }

  /** A command's regex, or the last one used (an empty regex `//`). */
  regexOf(re: RegExp | null): RegExp {
    const r = re ?? this.st.lastRegex;
    if (r === null) throw new SedScriptError("no previous regular expression", 0, true);
    this.st.lastRegex = r;
    return r;
  }

  autoprint(): void {
    if (!this.quiet) this.out.write(this.st.ps, !this.st.missingNewline);
  }

  flushAppends(): void {
    for (const a of this.st.appendQueue) this.out.raw(a);
    this.st.appendQueue = [];
  }

  /** The cycles until the input ends (undefined) or `q`/`Q` gives an exit status. */
  run(): number | undefined {
    let restartWithoutRead = false;
    for (;;) {
      this.io.checkTime();
      if (!restartWithoutRead) {
        if (!this.readLine()) break;
        this.st.substituted = false;
      }
      restartWithoutRead = false;
      const end = this.cycle();
      if (end === "quit-silent") return this.st.quit ?? 0;
      if (end === "print" || end === "quit") this.autoprint();
      if (end === "quit" && this.st.quitWithNewline) this.out.endLine();
      if (end === "restart") {
        this.flushAppends();
        // GNU: D restarts the cycle without reading new input when the pattern space is not empty.
        restartWithoutRead = true;
        continue;
      }
      this.flushAppends();
      if (end === "quit") return this.st.quit ?? 0;
    }
    return undefined;
  }

  /** One pass of the script over the pattern space. */
  private cycle(): EndCycle {
    const { commands } = this.program;
    let pc = 0;
    let steps = 0;
    while (pc < commands.length) {
      // Each command is a step of the call's work budget (which also checks the clock and the
      // caller's cancellation); without a budget, the clock is checked here.
      this.io.step(STEP_COST.sed);
      if (++steps % 10000 === 0) this.io.checkTime();
      if (++this.sinceRead > this.maxSinceRead) throw new SedLoopExceeded(this.maxSinceRead);
      const c = commands[pc] as SedCommand;
      if (c.name === "}" || c.name === ":") {
        pc++;
        continue;
      }
      if (this.selected(c) === c.negate) {
        pc = c.name === "{" ? (c.blockEnd as number) + 1 : pc + 1;
        continue;
      }
      pc++;
      const flow = COMMANDS[c.name]?.(this, c);
      // After the command, before the next can grow it further (`G`, `H`, `N`, `s`, `x`...).
      if (this.st.ps.length > MAX_SED_SPACE) throw new SedSpaceExceeded("pattern");
      if (this.st.hs.length > MAX_SED_SPACE) throw new SedSpaceExceeded("hold");
      if (flow === undefined) continue;
      if ("end" in flow) return flow.end;
      pc = flow.goto;
    }
    return "print";
  }

  private test(re: RegExp | null): boolean {
    const r = this.regexOf(re);
    r.lastIndex = 0;
    return r.test(textFor(r, this.st.ps));
  }

  private matchOne(a: Address): boolean {
    const lineNo = this.st.lineNo;
    switch (a.kind) {
      case "line":
        return lineNo === a.n;
      case "last":
        return this.isLast();
      case "zero":
        return false;
      case "regex":
        return this.test(a.re);
      case "step":
        return a.step <= 0 ? lineNo === a.first : lineNo >= a.first && (lineNo - a.first) % a.step === 0;
      default:
        return false;
    }
  }

  /** Whether the command's address (or range) selects the current line; ranges keep their state. */
  private selected(c: SedCommand): boolean {
    if (c.a1 === undefined) return true;
    if (c.a2 === undefined) return this.matchOne(c.a1);
    const a2 = c.a2;
    const lineNo = this.st.lineNo;
    if (c.active) {
      let ends = false;
      if (a2.kind === "line") ends = lineNo >= a2.n;
      else if (a2.kind === "plus") ends = lineNo >= (c.rangeEnd ?? 0);
      else if (a2.kind === "multiple") ends = a2.n <= 0 || lineNo % a2.n === 0;
      else if (a2.kind === "last") ends = this.isLast();
      else ends = this.matchOne(a2);
      if (ends) c.active = false;
      return true;
    }
    const startsHere = c.a1.kind === "zero" ? lineNo === 1 : this.matchOne(c.a1);
    if (!startsHere) return false;
    switch (a2.kind) {
      case "line":
        c.active = a2.n > lineNo;
        break;
      case "plus":
        c.rangeEnd = lineNo + a2.n;
        c.active = a2.n > 0;
        break;
      case "multiple":
        c.active = a2.n > 0 && lineNo % a2.n !== 0;
        break;
      case "last":
        c.active = !this.isLast();
        break;
      default:
        // `0,/re/` may end on line 1; `N,/re/` looks for the end from the next line.
        c.active = c.a1.kind === "zero" ? !this.matchOne(a2) : true;
    }
    return true;
  }
}

/** `b`, `t`, `T`: to the label, or with none to the end of the script. */
function jump(m: SedMachine, c: SedCommand): Flow {
  return { goto: c.label === "" ? m.program.commands.length : (m.program.labels.get(c.label as string) as number) };
}

/** What each command does when its address selects the line (`{`, `}` and `:` do nothing). */
const COMMANDS: Readonly<Record<string, (m: SedMachine, c: SedCommand) => Flow>> = {
  "=": (m) => m.out.raw(`${m.st.lineNo}\n`),
  a: (m, c) => void m.st.appendQueue.push(c.text as string),
  i: (m, c) => m.out.raw(c.text as string),
  c: (m, c) => {
    // In a range, the text is printed once, at its end.
    if (c.negate || c.a2 === undefined || !c.active) m.out.raw(c.text as string);
    return { end: "noprint" };
  },
  b: jump,
  t: (m, c) => {
    const substituted = m.st.substituted;
    m.st.substituted = false;
    return substituted ? jump(m, c) : undefined;
  },
  T: (m, c) => {
    const substituted = m.st.substituted;
    m.st.substituted = false;
    return substituted ? undefined : jump(m, c);
  },
  d: () => ({ end: "noprint" }),
  D: (m) => {
    const nl = m.st.ps.indexOf("\n");
    if (nl === -1) return { end: "noprint" };
    m.st.ps = m.st.ps.slice(nl + 1);
    return { end: "restart" };
  },
  F: (m) => m.out.raw(`${m.st.file}\n`),
  g: (m) => void (m.st.ps = m.st.hs),
  G: (m) => void (m.st.ps += `\n${m.st.hs}`),
  h: (m) => void (m.st.hs = m.st.ps),
  H: (m) => void (m.st.hs += `\n${m.st.ps}`),
  l: (m, c) => m.out.raw(listLine(m.st.ps, c.width ?? m.lineLength)),
  n: (m) => {
    if (m.isLast()) return { end: "quit" };
    m.autoprint();
    m.flushAppends();
    m.readLine();
    return undefined;
  },
  N: (m) => {
    if (m.isLast()) return { end: "quit" };
    m.flushAppends();
    const prev = m.st.ps;
    m.readLine();
    m.st.ps = `${prev}\n${m.st.ps}`;
    return undefined;
  },
  // GNU's p (and s///p, w /dev/stdout) keeps a missing final newline missing, as autoprint does.
  p: (m) => m.out.write(m.st.ps, !m.st.missingNewline),
  P: (m) => {
    const nl = m.st.ps.indexOf("\n");
    m.out.write(nl === -1 ? m.st.ps : m.st.ps.slice(0, nl), true);
  },
  q: (m, c) => {
    m.st.quit = c.exitCode ?? 0;
    m.st.quitWithNewline = true;
    return { end: "quit" };
  },
  Q: (m, c) => {
    m.st.quit = c.exitCode ?? 0;
    return { end: "quit-silent" };
  },
  r: (m, c) => {
    const entry = lookup(m.io.view, m.io.cwd, c.file as string, m.io.piped);
    if (entry.kind === "file" && entry.text !== "") m.st.appendQueue.push(entry.text);
    else if (c.file === "/dev/stdin" || c.file === "-") m.st.appendQueue.push(m.io.stdin());
  },
  R: (m, c) => {
    // One line per run of the command, from where the last one stopped (across input files).
    const name = c.file as string;
    const entry = lookup(m.io.view, m.io.cwd, name, m.io.piped);
    const text = entry.kind === "file" ? entry.text : name === "/dev/stdin" || name === "-" ? m.io.stdin() : "";
    const at = m.st.readPositions.get(name) ?? 0;
    if (at >= text.length) return;
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl + 1;
    m.st.readPositions.set(name, end);
    m.st.appendQueue.push(text.slice(at, end));
  },
  s: (m, c) => {
    const sub = c.sub as Substitution;
    const result = substitute(m.st.ps, sub, m.regexOf(sub.re), m.io);
    if (result === undefined) return;
    m.st.ps = result;
    m.st.substituted = true;
    for (let k = 0; k < sub.print; k++) m.out.write(m.st.ps, !m.st.missingNewline);
    if (sub.write === "/dev/stdout") m.out.write(m.st.ps, !m.st.missingNewline);
    else if (sub.write === "/dev/stderr") m.io.out.error(`${m.st.ps}\n`);
  },
  w: (m, c) => writeTo(m, c, m.st.ps),
  W: (m, c) => writeTo(m, c, m.st.ps.split("\n")[0] as string),
  x: (m) => {
    const t = m.st.ps;
    m.st.ps = m.st.hs;
    m.st.hs = t;
  },
  y: (m, c) => {
    const map = c.translate as Map<string, string>;
    m.st.ps = joinBytes([...m.st.ps].map((ch) => map.get(ch) ?? ch).join(""));
  },
  z: (m) => void (m.st.ps = ""),
};

/** `w`/`W`: only /dev/stdout and /dev/stderr can be written (checked before the run). */
function writeTo(m: SedMachine, c: SedCommand, text: string): void {
  if (c.file === "/dev/stdout") m.out.write(text, !m.st.missingNewline);
  else m.io.out.error(`${text}\n`);
}

/** Run the program over one input stream; returns an exit code when `q`/`Q` stopped it. */
export function execute(program: SedProgram, lines: readonly Line[], quiet: boolean, lineLength: number, out: SedOut, io: CommandIo): number | undefined {
  return new SedMachine(program, lines, quiet, lineLength, out, io).run();
}
