import { type CommandIo, docsCommand } from "../../lib/command.js";
import { ERRNO, lookup } from "../../lib/files.js";
import { type OptionRow, applyOptions, parseOptions } from "../../lib/options.js";
import type { ShellCommandFactory } from "../command.js";
import { type Line, SedLoopExceeded, SedOut, SedSpaceExceeded, execute } from "./machine.js";
import { type SedProgram, SedScriptError, parseSedScript } from "./script.js";

/** `sed --help`. */
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

/** What one sed call does, read from its command line. */
interface SedSettings {
  quiet: boolean;
  ere: boolean;
  /** -s: each file is its own stream (line numbers and `$` per file). */
  separate: boolean;
  lineLength: number;
  /** -i: refused (the docs are read-only), after the script is known. */
  inPlace: boolean;
  /** The -e scripts and -f files' text, in order. */
  scripts: string[];
  /** -e scripts so far (GNU numbers them apart from -f files). */
  expressions: number;
  /**
   * Where GNU sed's reading of the script ended, which its errors at run time name: the last
   * `-e expression #N, char 0`, or `file F line L` (L is one past F's newlines).
   */
  end: string;
}

/** An -e script (or the operand script): counted, and the place the script ends so far. */
function addExpression(s: SedSettings, script: string): void {
  s.scripts.push(script);
  s.expressions++;
  s.end = `-e expression #${s.expressions}, char 0`;
}

/** `-f FILE`: the script in FILE. */
function scriptFromFile(s: SedSettings, value: string, io: CommandIo): number | undefined {
  const entry = lookup(io.view, io.cwd, value, io.piped);
  // A device (`/dev/null`) is an empty script, as GNU sed reads it.
  if (entry.kind !== "file" && entry.kind !== "device") {
    io.fail(`couldn't open file ${value}: ${entry.kind === "dir" ? ERRNO.EISDIR : ERRNO.ENOENT}`);
    return 1;
  }
  const text = entry.kind === "file" ? entry.text : "";
  s.scripts.push(text.replace(/\n$/, ""));
  s.end = `file ${value} line ${text.split("\n").length}`;
  return undefined;
}

/** Every option sed accepts, as GNU sed spells it, with what it does to the settings. */
const SED_OPTIONS: readonly OptionRow<SedSettings, CommandIo>[] = [
  { key: "n", short: "n", long: ["quiet", "silent"], apply: (s) => void (s.quiet = true) },
  { key: "e", short: "e", long: "expression", value: true, apply: (s, v) => addExpression(s, v) },
  { key: "f", short: "f", long: "file", value: true, apply: scriptFromFile },
  { key: "E", short: "E", long: "regexp-extended", apply: (s) => void (s.ere = true) },
  { key: "E", short: "r" },
  { key: "s", short: "s", long: "separate", apply: (s) => void (s.separate = true) },
  { key: "i", short: "i", long: "in-place", apply: (s) => void (s.inPlace = true) },
  { key: "l", short: "l", long: "line-length", value: true, apply: (s, v) => void (s.lineLength = Number(v)) },
  // No effect on reading text: NUL-separated data, buffering, and the options about writing files.
  { key: "z", short: "z", long: "null-data" },
  { key: "u", short: "u", long: "unbuffered" },
  { key: "posix", long: "posix" },
  { key: "debug", long: "debug" },
  { key: "sandbox", long: "sandbox" },
  { key: "follow-symlinks", long: "follow-symlinks" },
];

/** GNU's `-e expression #N, char M: message` for a position in the joined script (GNU's "char" counts bytes: `α` is 2). */
function describeScriptError(error: SedScriptError, scripts: readonly string[]): string {
  if (error.positionless) return error.message;
  let offset = error.offset;
  for (let k = 0; k < scripts.length; k++) {
    const script = scripts[k] as string;
    const len = script.length;
    if (offset <= len || k === scripts.length - 1) return `-e expression #${k + 1}, char ${Buffer.byteLength(script.slice(0, Math.min(offset, len)), "utf8")}: ${error.message}`;
    offset -= len + 1;
  }
  return error.message;
}

/** The script as a program, or the exit status after GNU's message (a script error, a file to write). */
function compile(s: SedSettings, io: CommandIo): SedProgram | number {
  let program: SedProgram;
  try {
    program = parseSedScript(s.scripts.join("\n"), s.ere);
  } catch (error) {
    if (!(error instanceof SedScriptError)) throw error;
    io.fail(describeScriptError(error, s.scripts));
    return error.exitCode;
  }
  for (const c of program.commands) {
    const target = c.file ?? c.sub?.write;
    if ((c.name === "w" || c.name === "W" || c.sub?.write !== undefined) && target !== "/dev/stdout" && target !== "/dev/stderr") {
      io.fail(`couldn't open file ${target}: ${ERRNO.EROFS}`);
      return 4;
    }
  }
  return program;
}

/** Inputs: every operand's lines as one stream (or separate streams with -s); status 2 if one is unreadable. */
function readStreams(operands: readonly string[], separate: boolean, io: CommandIo): { streams: Line[][]; status: number } {
  let status = 0;
  const streams: Line[][] = [];
  let current: Line[] = [];
  for (const name of operands.length === 0 ? ["-"] : operands) {
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
  return { streams, status };
}

async function runSed(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions(args, SED_OPTIONS, { abbreviations: true });
  const s: SedSettings = { quiet: false, ere: false, separate: false, lineLength: 70, inPlace: false, scripts: [], expressions: 0, end: "" };
  const stopped = applyOptions(parsed, SED_OPTIONS, s, io);
  if (stopped !== undefined) return stopped;
  const operands = [...parsed.operands];
  if (s.scripts.length === 0) {
    const script = operands.shift();
    if (script === undefined) {
      io.out.error(
        "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\nTry 'sed --help' for more information.\n",
      );
      return 1;
    }
    addExpression(s, script);
  }
  if (s.inPlace) {
    for (const f of operands) io.fail(`couldn't edit ${f}: ${ERRNO.EROFS}`);
    if (operands.length === 0) io.fail("no input files");
    return 4;
  }
  const program = compile(s, io);
  if (typeof program === "number") return program;
  const { streams, status } = readStreams(operands, s.separate, io);
  const out = new SedOut(io);
  for (const lines of streams) {
    let code: number | undefined;
    try {
      code = execute(program, lines, s.quiet || program.quietFromScript, s.lineLength, out, io);
    } catch (error) {
      // `s//X/` with no regex used before it: found at run time, after what the script printed,
      // and named by where the script ended, as GNU sed does (`-e expression #1, char 0: no
      // previous regular expression`).
      if (error instanceof SedScriptError) {
        io.fail(`${s.end}: ${error.message}`);
        return 1;
      }
      if (!(error instanceof SedSpaceExceeded) && !(error instanceof SedLoopExceeded)) throw error;
      // GNU sed's status for a problem at run time (its "couldn't re-allocate memory").
      io.fail(error.message);
      return 4;
    }
    if (code !== undefined) return code === 0 ? status : code;
  }
  return status;
}

export const sedCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "sed", help: HELP, run: runSed, usageExitCode: 1 });
