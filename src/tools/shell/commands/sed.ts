import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, lookup } from "../lib/files.js";
import { type OptionSpec, parseOptions } from "../lib/options.js";
import {
  type Address,
  type ReplacementPart,
  type SedCommand,
  type SedProgram,
  SedScriptError,
  type Substitution,
  parseSedScript,
} from "../lib/sed-script.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "n", short: "n", long: ["quiet", "silent"] },
  { key: "e", short: "e", long: "expression", value: true },
  { key: "f", short: "f", long: "file", value: true },
  { key: "E", short: "E", long: "regexp-extended" },
  { key: "E", short: "r" },
  { key: "s", short: "s", long: "separate" },
  { key: "i", short: "i", long: "in-place" },
  { key: "l", short: "l", long: "line-length", value: true },
  { key: "z", short: "z", long: "null-data" },
  { key: "u", short: "u", long: "unbuffered" },
  { key: "posix", long: "posix" },
  { key: "debug", long: "debug" },
  { key: "sandbox", long: "sandbox" },
  { key: "follow-symlinks", long: "follow-symlinks" },
];

const HELP = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...
Stream editor (GNU sed 4.9 compatible, read-only docs shell).
Extract one section of a page: sed -n '/^## Setup/,/^## /p' /guides/install.mdx
(prints from the "## Setup" heading through the next "## " heading).

  -n, --quiet, --silent    suppress automatic printing of pattern space
  -e script                add the script to the commands to be executed
  -f script-file           add the contents of script-file to the commands
  -E, -r, --regexp-extended  use extended regular expressions in the script
  -s, --separate           consider files as separate rather than as a single stream
  -l N, --line-length=N    specify the desired line-wrap length for the 'l' command
  -i                       fails: the docs are read-only

Commands: {} = a b c d D F g G h H i l n N p P q Q r R s t T w W x y z : #
Addresses: N  $  /re/[IM]  \\cREc  first~step  addr1,addr2  addr1,+N  addr1,~N  0,/re/  addr!
The w command and flag accept only /dev/stdout and /dev/stderr; e is not available.
`;

interface Line {
  readonly text: string;
  readonly newline: boolean;
  readonly file: string;
}

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
  lastRegex: RegExp | null;
}

/** sed's output: a final line without newline stays without one, unless more output follows. */
class SedOut {
  private pendingNewline = false;
  constructor(private readonly io: CommandIo) {}

  write(text: string, newline: boolean): void {
    if (this.pendingNewline) this.io.out.write("\n");
    this.pendingNewline = false;
    this.io.out.write(text);
    if (newline) this.io.out.write("\n");
    else this.pendingNewline = true;
  }

  /** Text that always ends with its own newline (a, i, c, =, r). */
  raw(text: string): void {
    if (this.pendingNewline) this.io.out.write("\n");
    this.pendingNewline = false;
    this.io.out.write(text);
  }
}

function expandReplacement(parts: readonly ReplacementPart[], m: RegExpExecArray): string {
  let out = "";
  let mode: "" | "L" | "U" = "";
  let once: "" | "l" | "u" = "";
  const emit = (s: string) => {
    for (const ch of s) {
      let c = mode === "L" ? ch.toLowerCase() : mode === "U" ? ch.toUpperCase() : ch;
      if (once !== "") {
        c = once === "l" ? c.toLowerCase() : c.toUpperCase();
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
function substitute(ps: string, sub: Substitution, re: RegExp): string | undefined {
  const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  let out = "";
  let pos = 0;
  let count = 0;
  let replaced = false;
  let prevEnd = -1;
  g.lastIndex = 0;
  while (g.lastIndex <= ps.length) {
    const m = g.exec(ps);
    if (m === null) break;
    const start = m.index;
    const end = start + m[0].length;
    if (m[0] === "" && start === prevEnd) {
      g.lastIndex = start + ((ps.codePointAt(start) ?? 0) > 0xffff ? 2 : 1);
      continue;
    }
    count++;
    if (count >= sub.nth && (sub.global || count === sub.nth)) {
      out += ps.slice(pos, start) + expandReplacement(sub.replacement, m);
      pos = end;
      replaced = true;
      if (!sub.global) break;
    }
    prevEnd = end;
    g.lastIndex = m[0] === "" ? start + ((ps.codePointAt(start) ?? 0) > 0xffff ? 2 : 1) : end;
  }
  if (!replaced) return undefined;
  return out + ps.slice(pos);
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

async function runSed(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions(args, SPECS, { abbreviations: true });
  let quiet = false;
  let ere = false;
  let separate = false;
  let lineLength = 70;
  const scripts: string[] = [];
  for (const o of parsed.options) {
    switch (o.key) {
      case "n":
        quiet = true;
        break;
      case "e":
        scripts.push(o.value);
        break;
      case "f": {
        const entry = lookup(io.view, io.cwd, o.value, io.piped);
        if (entry.kind !== "file") {
          io.fail(`couldn't open file ${o.value}: ${entry.kind === "dir" ? ERRNO.EISDIR : ERRNO.ENOENT}`);
          return 1;
        }
        scripts.push(entry.text.replace(/\n$/, ""));
        break;
      }
      case "E":
        ere = true;
        break;
      case "s":
        separate = true;
        break;
      case "l":
        lineLength = Number(o.value);
        break;
      default:
        break;
    }
  }
  const operands = [...parsed.operands];
  if (scripts.length === 0) {
    const script = operands.shift();
    if (script === undefined) {
      io.out.error(
        "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\nTry 'sed --help' for more information.\n",
      );
      return 1;
    }
    scripts.push(script);
  }
  if (parsed.options.some((o) => o.key === "i")) {
    for (const f of operands) io.fail(`couldn't edit ${f}: ${ERRNO.EROFS}`);
    if (operands.length === 0) io.fail("no input files");
    return 4;
  }
  let program: SedProgram;
  try {
    program = parseSedScript(scripts.join("\n"), ere);
  } catch (error) {
    if (!(error instanceof SedScriptError)) throw error;
    io.fail(describeScriptError(error, scripts));
    return error.exitCode;
  }
  for (const c of program.commands) {
    const target = c.file ?? c.sub?.write;
    if ((c.name === "w" || c.name === "W" || c.sub?.write !== undefined) && target !== "/dev/stdout" && target !== "/dev/stderr") {
      io.fail(`couldn't open file ${target}: ${ERRNO.EROFS}`);
      return 4;
    }
  }
  if (program.quietFromScript) quiet = true;

  // Inputs: every operand's lines as one stream (or separate streams with -s).
  let status = 0;
  const streams: Line[][] = [];
  let current: Line[] = [];
  const names = operands.length === 0 ? ["-"] : operands;
  for (const name of names) {
    let text: string;
    if (name === "-") text = io.stdin();
    else {
      const entry = lookup(io.view, io.cwd, name, io.piped);
      if (entry.kind === "dir") {
        io.fail(`read error on ${name}: ${ERRNO.EISDIR}`);
        status = 2;
        continue;
      }
      if (entry.kind !== "file" && entry.kind !== "device") {
        io.fail(`can't read ${name}: ${entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT}`);
        status = 2;
        continue;
      }
      text = entry.kind === "file" ? entry.text : "";
    }
    const pieces = text.split("\n");
    const endsWithNewline = text.endsWith("\n");
    if (endsWithNewline) pieces.pop();
    pieces.forEach((t, k) => {
      if (text === "") return;
      current.push({ text: t, newline: k < pieces.length - 1 || endsWithNewline, file: name });
    });
    if (separate) {
      streams.push(current);
      current = [];
    }
  }
  if (!separate) streams.push(current);
  // Patterns that can backtrack badly are tried on the input lines in a worker first.
  const lineTexts = streams.flat().map((l) => l.text);
  for (const c of program.commands) {
    for (const re of [c.a1, c.a2].map((a) => (a?.kind === "regex" ? a.re : null)).concat(c.sub?.re ?? null)) {
      if (re !== null && !(await io.regexIsSafe(re, lineTexts))) return 1;
    }
  }
  const out = new SedOut(io);
  for (const lines of streams) {
    const code = execute(program, lines, quiet, lineLength, out, io);
    if (code !== undefined) return code === 0 ? status : code;
  }
  return status;
}

/** GNU's `-e expression #N, char M: message` for a position in the joined script. */
function describeScriptError(error: SedScriptError, scripts: readonly string[]): string {
  if (error.positionless) return error.message;
  let offset = error.offset;
  for (let k = 0; k < scripts.length; k++) {
    const len = (scripts[k] as string).length;
    if (offset <= len || k === scripts.length - 1) return `-e expression #${k + 1}, char ${Math.min(offset, len)}: ${error.message}`;
    offset -= len + 1;
  }
  return error.message;
}

/** Run the program over one input stream; returns an exit code when `q`/`Q` stopped it. */
function execute(program: SedProgram, lines: readonly Line[], quiet: boolean, lineLength: number, out: SedOut, io: CommandIo): number | undefined {
  const { commands, labels } = program;
  for (const c of commands) {
    c.active = false;
    c.rangeEnd = undefined;
  }
  let next = 0;
  const st: State = {
    ps: "",
    hs: "",
    lineNo: 0,
    missingNewline: false,
    file: "-",
    substituted: false,
    appendQueue: [],
    quit: undefined,
    lastRegex: null,
  };
  const isLast = () => next >= lines.length;
  const readLine = (): boolean => {
    const line = lines[next];
    if (line === undefined) return false;
    next++;
    st.lineNo++;
    st.ps = line.text;
    st.missingNewline = !line.newline;
    st.file = line.file;
    return true;
  };
  const regexOf = (re: RegExp | null): RegExp => {
    const r = re ?? st.lastRegex;
    if (r === null) throw new SedScriptError("no previous regular expression", 0, true);
    st.lastRegex = r;
    return r;
  };
  const test = (re: RegExp | null): boolean => {
    const r = regexOf(re);
    r.lastIndex = 0;
    return r.test(st.ps);
  };
  const matchOne = (a: Address): boolean => {
    switch (a.kind) {
      case "line":
        return st.lineNo === a.n;
      case "last":
        return isLast();
      case "zero":
        return false;
      case "regex":
        return test(a.re);
      case "step":
        return a.step <= 0 ? st.lineNo === a.first : st.lineNo >= a.first && (st.lineNo - a.first) % a.step === 0;
      default:
        return false;
    }
  };
  const selected = (c: SedCommand): boolean => {
    if (c.a1 === undefined) return true;
    if (c.a2 === undefined) return matchOne(c.a1);
    const a2 = c.a2;
    if (c.active) {
      let ends = false;
      if (a2.kind === "line") ends = st.lineNo >= a2.n;
      else if (a2.kind === "plus") ends = st.lineNo >= (c.rangeEnd ?? 0);
      else if (a2.kind === "multiple") ends = a2.n <= 0 || st.lineNo % a2.n === 0;
      else if (a2.kind === "last") ends = isLast();
      else ends = matchOne(a2);
      if (ends) c.active = false;
      return true;
    }
    const startsHere = c.a1.kind === "zero" ? st.lineNo === 1 : matchOne(c.a1);
    if (!startsHere) return false;
    switch (a2.kind) {
      case "line":
        c.active = a2.n > st.lineNo;
        break;
      case "plus":
        c.rangeEnd = st.lineNo + a2.n;
        c.active = a2.n > 0;
        break;
      case "multiple":
        c.active = a2.n > 0 && st.lineNo % a2.n !== 0;
        break;
      case "last":
        c.active = !isLast();
        break;
      default:
        // `0,/re/` may end on line 1; `N,/re/` looks for the end from the next line.
        c.active = c.a1.kind === "zero" ? !matchOne(a2) : true;
    }
    return true;
  };
  const autoprint = () => {
    if (!quiet) out.write(st.ps, !st.missingNewline || !isLast());
  };
  const flushAppends = () => {
    for (const a of st.appendQueue) out.raw(a);
    st.appendQueue = [];
  };

  let restartWithoutRead = false;
  for (;;) {
    io.checkTime();
    if (!restartWithoutRead) {
      if (!readLine()) break;
      st.substituted = false;
    }
    restartWithoutRead = false;
    let pc = 0;
    let endCycle: "print" | "noprint" | "quit" | "quit-silent" | "restart" = "print";
    let steps = 0;
    while (pc < commands.length) {
      if (++steps % 10000 === 0) io.checkTime();
      const c = commands[pc] as SedCommand;
      if (c.name === "}" || c.name === ":") {
        pc++;
        continue;
      }
      const hit = selected(c) !== c.negate;
      if (!hit) {
        pc = c.name === "{" ? (c.blockEnd as number) + 1 : pc + 1;
        continue;
      }
      pc++;
      switch (c.name) {
        case "{":
          break;
        case "=":
          out.raw(`${st.lineNo}\n`);
          break;
        case "a":
          st.appendQueue.push(`${c.text}\n`);
          break;
        case "i":
          out.raw(`${c.text}\n`);
          break;
        case "c":
          // In a range, the text is printed once, at its end.
          if (c.negate || c.a2 === undefined || !c.active) out.raw(`${c.text}\n`);
          endCycle = "noprint";
          pc = commands.length;
          break;
        case "b":
          pc = c.label === "" ? commands.length : (labels.get(c.label as string) as number);
          break;
        case "t":
        case "T": {
          const jump = c.name === "t" ? st.substituted : !st.substituted;
          st.substituted = false;
          if (jump) pc = c.label === "" ? commands.length : (labels.get(c.label as string) as number);
          break;
        }
        case "d":
          endCycle = "noprint";
          pc = commands.length;
          break;
        case "D": {
          const nl = st.ps.indexOf("\n");
          if (nl === -1) {
            endCycle = "noprint";
          } else {
            st.ps = st.ps.slice(nl + 1);
            endCycle = "restart";
          }
          pc = commands.length;
          break;
        }
        case "F":
          out.raw(`${st.file}\n`);
          break;
        case "g":
          st.ps = st.hs;
          break;
        case "G":
          st.ps += `\n${st.hs}`;
          break;
        case "h":
          st.hs = st.ps;
          break;
        case "H":
          st.hs += `\n${st.ps}`;
          break;
        case "l":
          out.raw(listLine(st.ps, c.width ?? lineLength));
          break;
        case "n":
          if (isLast()) {
            endCycle = "quit";
            pc = commands.length;
            break;
          }
          autoprint();
          flushAppends();
          readLine();
          break;
        case "N":
          if (isLast()) {
            endCycle = "quit";
            pc = commands.length;
            break;
          }
          flushAppends();
          {
            const prev = st.ps;
            readLine();
            st.ps = `${prev}\n${st.ps}`;
          }
          break;
        case "p":
          out.write(st.ps, true);
          break;
        case "P": {
          const nl = st.ps.indexOf("\n");
          out.write(nl === -1 ? st.ps : st.ps.slice(0, nl), true);
          break;
        }
        case "q":
          st.quit = c.exitCode ?? 0;
          endCycle = "quit";
          pc = commands.length;
          break;
        case "Q":
          st.quit = c.exitCode ?? 0;
          endCycle = "quit-silent";
          pc = commands.length;
          break;
        case "r": {
          const entry = lookup(io.view, io.cwd, c.file as string, io.piped);
          if (entry.kind === "file" && entry.text !== "") st.appendQueue.push(entry.text.endsWith("\n") ? entry.text : `${entry.text}\n`);
          else if (c.file === "/dev/stdin" || c.file === "-") st.appendQueue.push(io.stdin());
          break;
        }
        case "R":
          break; // reading one line per cycle from another file: rarely useful on docs; no-op
        case "s": {
          const sub = c.sub as Substitution;
          const re = regexOf(sub.re);
          const result = substitute(st.ps, sub, re);
          if (result !== undefined) {
            st.ps = result;
            st.substituted = true;
            for (let k = 0; k < sub.print; k++) out.write(st.ps, true);
            if (sub.write === "/dev/stdout") out.write(st.ps, true);
            else if (sub.write === "/dev/stderr") io.out.error(`${st.ps}\n`);
          }
          break;
        }
        case "w":
        case "W": {
          const text = c.name === "W" ? (st.ps.split("\n")[0] as string) : st.ps;
          if (c.file === "/dev/stdout") out.write(text, true);
          else io.out.error(`${text}\n`);
          break;
        }
        case "x": {
          const t = st.ps;
          st.ps = st.hs;
          st.hs = t;
          break;
        }
        case "y": {
          const map = c.translate as Map<string, string>;
          st.ps = [...st.ps].map((ch) => map.get(ch) ?? ch).join("");
          break;
        }
        case "z":
          st.ps = "";
          break;
        default:
          break;
      }
    }
    if (endCycle === "quit-silent") return st.quit ?? 0;
    if (endCycle === "print" || endCycle === "quit") autoprint();
    if (endCycle === "restart") {
      flushAppends();
      // GNU: D restarts the cycle without reading new input when the pattern space is not empty.
      restartWithoutRead = true;
      continue;
    }
    flushAppends();
    if (endCycle === "quit") return st.quit ?? 0;
  }
  return undefined;
}

export const sedCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "sed", help: HELP, run: runSed, usageExitCode: 1 });
