import { type EntryInfo, OWNER } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, baseName, joinDisplay, joinPath, lookup } from "../lib/files.js";
import { inodeOf, lsDate, modeString } from "../lib/format.js";
import { fnmatchRegex } from "../lib/glob.js";
import { PosixRegexError } from "../lib/patterns.js";
import { translatePosix } from "../lib/regex-posix.js";
import { commandNotFound, runSubcommand } from "../lib/subcommand.js";
import type { ShellCommandFactory } from "./command.js";

const HELP = `Usage: find [-H] [-L] [-P] [path...] [expression]
Search the docs for files and folders (GNU findutils 4.9 compatible, read-only docs shell).
Entries are visited depth-first with each folder's entries in name (byte) order.

Options:     -maxdepth N  -mindepth N  -depth  (-follow -xdev -noleaf: accepted)
Tests:       -name GLOB  -iname GLOB  -path GLOB  -ipath GLOB  -wholename GLOB
             -regex RE  -iregex RE (the whole path; emacs syntax as GNU find:
             \\(a\\|b\\), +, ?)  -regextype posix-extended|posix-basic|emacs|...
             -type f|d  -xtype f|d  -size [+-]N[ckMG]  -empty  -newer FILE
             -newermt DATE  -newerXY REF  -mtime/-atime/-ctime [+-]N  -mmin/-amin/-cmin [+-]N
             -perm [-/]MODE  -user NAME  -group NAME  -uid N  -gid N  -links N  -inum N
             -samefile FILE  -nouser  -nogroup  -lname GLOB  -true  -false  -readable
Actions:     -print  -print0  -printf FORMAT  -ls  -prune  -quit
             -exec COMMAND {} ;  -exec COMMAND {} +  (-delete fails: read-only)
Operators:   ( EXPR )  ! EXPR  -not EXPR  EXPR -a EXPR  EXPR -o EXPR  EXPR , EXPR

-printf directives: %p %P %f %h %s %k %d %y %m %M %n %u %g %i %t %a %c %TY %Tm %Td %TH %TM %TS %%
and escapes \\n \\t \\0. Times are UTC; access and change times equal the modification time.
`;

/** An entry being tested. */
interface Ctx {
  readonly path: string;
  /** The path as find prints it (start operand joined with names). */
  readonly display: string;
  /** The starting point it was found under, for %P. */
  readonly start: string;
  readonly depth: number;
  readonly info: EntryInfo;
}

interface Env {
  readonly io: CommandIo;
  prune: boolean;
  quit: boolean;
  /**
   * Paths collected by `-exec ... {} +` per exec node, with the folder they run in. GNU runs an
   * `-execdir ... +` batch as soon as the walk moves to another folder.
   */
  readonly batches: Map<ExecNode, { dir: string; names: string[] }>;
  status: number;
}

type Node =
  | { readonly op: "and" | "or" | "comma"; readonly left: Node; readonly right: Node }
  | { readonly op: "not"; readonly expr: Node }
  | { readonly op: "test"; readonly name: string; readonly test: (c: Ctx, env: Env) => boolean | Promise<boolean>; readonly action: boolean }
  | ExecNode;

interface ExecNode {
  readonly op: "exec";
  readonly command: readonly string[];
  readonly batch: boolean;
  /** `-execdir`: run in the entry's folder, naming it `./NAME`. */
  readonly inDir: boolean;
}

class FindError extends Error {}

/**
 * `-regextype` names and their syntax: emacs (findutils' default: `\(a\|b\)`, `+`, `?`, no
 * intervals), POSIX extended, or POSIX basic. The awk dialects are extended syntax.
 */
const REGEX_TYPES: ReadonlyMap<string, "emacs" | "ere" | "bre"> = new Map([
  ["findutils-default", "emacs"],
  ["ed", "bre"],
  ["emacs", "emacs"],
  ["gnu-awk", "ere"],
  ["grep", "bre"],
  ["posix-awk", "ere"],
  ["awk", "ere"],
  ["posix-basic", "bre"],
  ["posix-egrep", "ere"],
  ["egrep", "ere"],
  ["posix-extended", "ere"],
  ["posix-minimal-basic", "bre"],
  ["sed", "bre"],
]);

/** `-perm`'s mode: octal (`644`) or symbolic (`u+r,g=rx`), as bits. Undefined when invalid. */
function parseMode(text: string): number | undefined {
  if (/^[0-7]+$/.test(text)) return Number.parseInt(text, 8) & 0o7777;
  let mode = 0;
  for (const clause of text.split(",")) {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (m === null) return undefined;
    const who = m[1] === "" || (m[1] as string).includes("a") ? "ugo" : (m[1] as string);
    let bits = 0;
    for (const w of who) {
      const shift = w === "u" ? 6 : w === "g" ? 3 : 0;
      for (const p of m[3] as string) {
        if (p === "r") bits |= 4 << shift;
        else if (p === "w") bits |= 2 << shift;
        else if (p === "x" || p === "X") bits |= 1 << shift;
        else if (p === "s") bits |= w === "u" ? 0o4000 : w === "g" ? 0o2000 : 0;
        else if (p === "t") bits |= 0o1000;
      }
    }
    if (m[2] === "-") mode &= ~bits;
    else mode |= bits;
  }
  return mode;
}

/** A date for `-newermt` (ISO forms; a time without a zone is UTC, the docs shell's zone). */
function parseDate(text: string): number | undefined {
  const iso = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(text) ? `${text.replace(" ", "T")}${text.length > 10 ? "Z" : ""}` : text;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `-regex`: the pattern must match the whole path (GNU find checks the match length). */
function compileFindRegex(source: string, syntax: "emacs" | "ere" | "bre", ignoreCase: boolean): RegExp {
  try {
    const t = translatePosix(source, syntax === "ere", 0, { sed: false, emacs: syntax === "emacs", glibc: true });
    return new RegExp(`^(?:${t.source})$`, ignoreCase ? "iu" : "u");
  } catch (error) {
    const message = error instanceof PosixRegexError ? error.message : `unsupported regular expression in this docs shell (${String(error)})`;
    throw new FindError(`failed to compile regular expression '${source}': ${message}`);
  }
}

/** A numeric argument with GNU's `+N` (more than), `-N` (less than), `N` (exactly). */
function compareNumber(arg: string, option: string): (v: number) => boolean {
  const m = /^([+-]?)(\d+)$/.exec(arg);
  if (m === null) throw new FindError(`invalid argument \`${arg}' to \`${option}'`);
  const n = Number(m[2]);
  if (m[1] === "+") return (v) => v > n;
  if (m[1] === "-") return (v) => v < n;
  return (v) => v === n;
}

const UTC_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const UTC_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** find's `%t`: ctime(3) layout with the fractional seconds GNU find adds. */
function ctimeText(d: Date): string {
  const frac = `${pad(d.getUTCMilliseconds(), 3)}0000000`;
  return `${UTC_DAYS[d.getUTCDay()]} ${UTC_MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${frac} ${d.getUTCFullYear()}`;
}

function timeField(d: Date, k: string): string {
  switch (k) {
    case "Y":
      return String(d.getUTCFullYear());
    case "m":
      return pad(d.getUTCMonth() + 1);
    case "d":
      return pad(d.getUTCDate());
    case "H":
      return pad(d.getUTCHours());
    case "M":
      return pad(d.getUTCMinutes());
    case "S":
      return `${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}0000000`;
    case "T":
      return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}0000000`;
    case "F":
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    case "s":
      return String(Math.floor(d.getTime() / 1000));
    case "+":
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}+${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}0000000`;
    default:
      return `%T${k}`;
  }
}

function printfText(format: string, c: Ctx): string {
  const dir = (p: string) => {
    const i = p.lastIndexOf("/");
    return i === -1 ? "." : i === 0 ? "/" : p.slice(0, i);
  };
  let out = "";
  for (let i = 0; i < format.length; i++) {
    const ch = format[i] as string;
    if (ch === "\\") {
      const e = format[++i];
      out += e === "n" ? "\n" : e === "t" ? "\t" : e === "0" ? "\0" : e === "\\" ? "\\" : `\\${e ?? ""}`;
      continue;
    }
    if (ch !== "%") {
      out += ch;
      continue;
    }
    let width = "";
    while (/[-\d]/.test(format[i + 1] ?? "")) width += format[++i];
    const d = format[++i];
    let v: string;
    switch (d) {
      case "p":
        v = c.display;
        break;
      case "P":
        v = c.display === c.start ? "" : c.display.slice(c.start.endsWith("/") ? c.start.length : c.start.length + 1);
        break;
      case "f":
        v = c.display === "/" ? "/" : baseName(c.display.replace(/\/+$/, "")) || c.display;
        break;
      case "h":
        v = dir(c.display);
        break;
      case "s":
        v = String(c.info.size);
        break;
      case "k":
        v = String(c.info.blocks / 2);
        break;
      case "b":
        v = String(c.info.blocks);
        break;
      case "d":
        v = String(c.depth);
        break;
      case "y":
        v = c.info.kind === "dir" ? "d" : "f";
        break;
      case "m":
        v = (c.info.mode & 0o7777).toString(8);
        break;
      case "M":
        v = modeString(c.info.mode);
        break;
      case "n":
        v = String(c.info.nlink);
        break;
      case "u":
        v = OWNER.user;
        break;
      case "g":
        v = OWNER.group;
        break;
      case "U":
        v = String(OWNER.uid);
        break;
      case "G":
        v = String(OWNER.gid);
        break;
      case "t":
      case "a":
      case "c":
        v = ctimeText(c.info.mtime);
        break;
      case "i":
        v = String(inodeOf(c.path));
        break;
      case "T":
      case "A":
      case "C":
        v = timeField(c.info.mtime, format[++i] ?? "");
        break;
      case "%":
        v = "%";
        break;
      default:
        v = `%${d ?? ""}`;
    }
    const w = Number(width.replace("-", "") || "0");
    out += width.startsWith("-") ? v.padEnd(w) : v.padStart(w);
  }
  return out;
}

/** Recursive-descent parser for find's expression language. */
class Parser {
  private i = 0;
  maxDepth = Number.POSITIVE_INFINITY;
  minDepth = 0;
  depthFirst = false;
  hasAction = false;
  /** Set by `-regextype`, for the `-regex` tests after it. */
  private regexType: "emacs" | "ere" | "bre" = "emacs";
  /** The `-regex` and `-iregex` patterns, for the backtracking guard before the walk. */
  readonly regexes: RegExp[] = [];

  constructor(
    private readonly args: readonly string[],
    private readonly io: CommandIo,
  ) {}

  parse(): Node | undefined {
    if (this.args.length === 0) return undefined;
    const node = this.comma();
    if (this.i < this.args.length) {
      const t = this.args[this.i] as string;
      if (t === ")") throw new FindError("invalid expression; you have too many ')'");
      throw new FindError(`paths must precede expression: \`${t}'`);
    }
    return node;
  }

  private comma(): Node {
    let left = this.or();
    while (this.args[this.i] === ",") {
      this.i++;
      left = { op: "comma", left, right: this.or() };
    }
    return left;
  }

  private or(): Node {
    let left = this.and();
    while (this.args[this.i] === "-o" || this.args[this.i] === "-or") {
      this.i++;
      left = { op: "or", left, right: this.and() };
    }
    return left;
  }

  private and(): Node {
    let left = this.unary();
    for (;;) {
      const t = this.args[this.i];
      if (t === undefined || t === ")" || t === "-o" || t === "-or" || t === ",") return left;
      if (t === "-a" || t === "-and") this.i++;
      left = { op: "and", left, right: this.unary() };
    }
  }

  private unary(): Node {
    const t = this.args[this.i];
    if (t === "!" || t === "-not") {
      this.i++;
      return { op: "not", expr: this.unary() };
    }
    if (t === "(") {
      this.i++;
      if (this.args[this.i] === ")") throw new FindError("invalid expression; empty parentheses are not allowed.");
      const inner = this.comma();
      if (this.args[this.i] !== ")") throw new FindError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
      this.i++;
      return inner;
    }
    return this.primary();
  }

  private value(option: string): string {
    const v = this.args[++this.i];
    if (v === undefined) throw new FindError(`missing argument to \`${option}'`);
    this.i++;
    return v;
  }

  private test(name: string, test: (c: Ctx, env: Env) => boolean | Promise<boolean>, action = false): Node {
    if (action) this.hasAction = true;
    return { op: "test", name, test, action };
  }

  /** `-newerXY REF`: every time of an entry is its modification time; Y = t takes a date. */
  private newerXY(t: string): Node {
    const ref = this.value(t);
    let time: number;
    if (t.endsWith("t")) {
      const parsed = parseDate(ref);
      if (parsed === undefined) throw new FindError(`I cannot figure out how to interpret \u2018${ref}\u2019 as a date or time`);
      time = parsed;
    } else {
      const entry = lookup(this.io.view, this.io.cwd, ref, this.io.piped);
      const info = entry.kind === "file" || entry.kind === "dir" ? this.io.view.info(entry.path) : undefined;
      if (info === undefined) throw new FindError(`\u2018${ref}\u2019: ${ERRNO.ENOENT}`);
      time = info.mtime.getTime();
    }
    return this.test(t, (c) => c.info.mtime.getTime() > time);
  }

  private primary(): Node {
    const t = this.args[this.i] as string;
    switch (t) {
      case "-name":
      case "-iname": {
        const re = fnmatchRegex(this.value(t), t === "-iname");
        return this.test(t, (c) => re.test(c.display === "/" ? "/" : baseName(c.display.replace(/\/+$/, "")) || c.display));
      }
      case "-path":
      case "-ipath":
      case "-wholename":
      case "-iwholename": {
        const re = fnmatchRegex(this.value(t), t.startsWith("-i"));
        return this.test(t, (c) => re.test(c.display));
      }
      case "-regex":
      case "-iregex": {
        const compiled = compileFindRegex(this.value(t), this.regexType, t === "-iregex");
        this.regexes.push(compiled);
        return this.test(t, (c) => compiled.test(c.display));
      }
      case "-regextype": {
        const name = this.value(t);
        const syntax = REGEX_TYPES.get(name);
        if (syntax === undefined) {
          const valid = [...REGEX_TYPES.keys()].map((k) => `\u2018${k}\u2019`).join(", ");
          throw new FindError(`Unknown regular expression type \u2018${name}\u2019; valid types are ${valid}.`);
        }
        this.regexType = syntax;
        return this.test(t, () => true);
      }
      case "-xtype":
      case "-type": {
        const v = this.value(t);
        const kinds = v.split(",");
        for (const k of kinds) {
          if (!"bcdpflsD".includes(k) || k.length !== 1) throw new FindError(`Unknown argument to -type: ${k}`);
        }
        return this.test(t, (c) => kinds.includes(c.info.kind === "dir" ? "d" : "f"));
      }
      case "-maxdepth":
      case "-mindepth": {
        const v = this.value(t);
        if (!/^\d+$/.test(v)) throw new FindError(`Expected a positive decimal integer argument to ${t}, but got \u2018${v}\u2019`);
        if (t === "-maxdepth") this.maxDepth = Number(v);
        else this.minDepth = Number(v);
        return this.test(t, () => true);
      }
      case "-depth":
      case "-d":
        this.i++;
        this.depthFirst = true;
        return this.test(t, () => true);
      case "-follow":
      case "-xdev":
      case "-mount":
      case "-noleaf":
      case "-ignore_readdir_race":
      case "-nowarn":
      case "-warn":
        this.i++;
        return this.test(t, () => true);
      case "-size": {
        const v = this.value(t);
        const m = /^([+-]?)(\d+)([bcwkMG]?)$/.exec(v);
        if (m === null) throw new FindError(`invalid -size type \`${v.replace(/^[+-]?\d+/, "")}'`);
        const unit = { "": 512, b: 512, c: 1, w: 2, k: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[3] as string] as number;
        const cmp = compareNumber(`${m[1]}${m[2]}`, t);
        // GNU rounds the size up to whole units before comparing.
        return this.test(t, (c) => cmp(Math.ceil(c.info.size / unit)));
      }
      case "-empty":
        this.i++;
        return this.test(t, (c) => (c.info.kind === "dir" ? (this.io.view.childrenOf(c.path)?.length ?? 0) === 0 : c.info.size === 0));
      case "-anewer":
      case "-cnewer":
      case "-newer": {
        const ref = this.value(t);
        const entry = lookup(this.io.view, this.io.cwd, ref, this.io.piped);
        const info = entry.kind === "file" || entry.kind === "dir" ? this.io.view.info(entry.path) : undefined;
        if (info === undefined) throw new FindError(`\u2018${ref}\u2019: ${ERRNO.ENOENT}`);
        return this.test(t, (c) => c.info.mtime.getTime() > info.mtime.getTime());
      }
      case "-mtime":
      case "-atime":
      case "-ctime":
      case "-mmin":
      case "-amin":
      case "-cmin": {
        // Access and change times equal the modification time in the docs shell.
        const cmp = compareNumber(this.value(t), t);
        const unit = t.endsWith("time") ? 86_400_000 : 60_000;
        const now = Date.now();
        return this.test(t, (c) => cmp(Math.floor((now - c.info.mtime.getTime()) / unit)));
      }
      case "-true":
      case "-readable":
        this.i++;
        return this.test(t, () => true);
      case "-nouser":
      case "-nogroup":
        this.i++;
        return this.test(t, () => false);
      case "-user":
      case "-group": {
        const v = this.value(t);
        const known = t === "-user" ? [OWNER.user, String(OWNER.uid)] : [OWNER.group, String(OWNER.gid)];
        if (!known.includes(v) && !/^\d+$/.test(v)) {
          throw new FindError(t === "-user" ? `\u2018${v}\u2019 is not the name of a known user` : `\u2018${v}\u2019 is not the name of an existing group`);
        }
        return this.test(t, () => known.includes(v));
      }
      case "-uid":
      case "-gid": {
        const cmp = compareNumber(this.value(t), t);
        return this.test(t, () => cmp(t === "-uid" ? OWNER.uid : OWNER.gid));
      }
      case "-links": {
        const cmp = compareNumber(this.value(t), t);
        return this.test(t, (c) => cmp(c.info.nlink));
      }
      case "-inum": {
        const cmp = compareNumber(this.value(t), t);
        return this.test(t, (c) => cmp(inodeOf(c.path)));
      }
      case "-perm": {
        const v = this.value(t);
        const kind = v.startsWith("-") ? "all" : v.startsWith("/") ? "any" : "exact";
        const mode = parseMode(kind === "exact" ? v : v.slice(1));
        if (mode === undefined) throw new FindError(`invalid mode \u2018${v}\u2019`);
        return this.test(t, (c) => {
          const bits = c.info.mode & 0o7777;
          if (kind === "exact") return bits === mode;
          if (kind === "all") return (bits & mode) === mode;
          return mode === 0 || (bits & mode) !== 0;
        });
      }
      case "-samefile": {
        const ref = this.value(t);
        const entry = lookup(this.io.view, this.io.cwd, ref, this.io.piped);
        if (entry.kind !== "file" && entry.kind !== "dir") throw new FindError(`\u2018${ref}\u2019: ${ERRNO.ENOENT}`);
        return this.test(t, (c) => c.path === entry.path);
      }
      case "-lname":
      case "-ilname": {
        this.value(t);
        return this.test(t, () => false); // the docs hold no symbolic links
      }
      case "-false":
      case "-writable":
      case "-executable":
        this.i++;
        return this.test(t, () => false);
      case "-print":
        this.i++;
        return this.test(t, (c, env) => env.io.out.write(`${c.display}\n`) || true, true);
      case "-print0":
        this.i++;
        return this.test(t, (c, env) => env.io.out.write(`${c.display}\0`) || true, true);
      case "-printf": {
        const format = this.value(t);
        return this.test(t, (c, env) => env.io.out.write(printfText(format, c)) || true, true);
      }
      case "-fprint":
      case "-fprintf":
      case "-fls":
        throw new FindError(`${t}: writing files is not possible: ${ERRNO.EROFS}`);
      case "-ls":
        this.i++;
        return this.test(
          t,
          (c, env) =>
            env.io.out.write(
              `${String(inodeOf(c.path)).padStart(9)} ${String(c.info.blocks / 2).padStart(6)} ${modeString(c.info.mode)} ${String(c.info.nlink).padStart(3)} ${OWNER.user.padEnd(8)} ${OWNER.group.padEnd(8)} ${String(c.info.size).padStart(8)} ${lsDate(c.info.mtime, new Date())} ${c.display}\n`,
            ) || true,
          true,
        );
      case "-prune":
        this.i++;
        return this.test(t, (c, env) => {
          if (c.info.kind === "dir") env.prune = true;
          return true;
        });
      case "-quit":
        this.i++;
        return this.test(t, (_c, env) => {
          env.quit = true;
          return true;
        });
      case "-delete":
        this.i++;
        this.hasAction = true;
        return this.test(
          t,
          (c, env) => {
            env.io.fail(`cannot delete \u2018${c.display}\u2019: ${ERRNO.EROFS}`);
            env.status = 1;
            return false;
          },
          true,
        );
      case "-exec":
      case "-execdir":
      case "-ok":
      case "-okdir": {
        this.i++;
        const command: string[] = [];
        let batch = false;
        for (;;) {
          const w = this.args[this.i];
          if (w === undefined) throw new FindError(`missing argument to \`${t}'`);
          this.i++;
          if (w === ";") break;
          if (w === "+" && command[command.length - 1] === "{}") {
            batch = true;
            break;
          }
          command.push(w);
        }
        if (command.length === 0) throw new FindError(`missing argument to \`${t}'`);
        this.hasAction = true;
        return { op: "exec", command, batch, inDir: t === "-execdir" || t === "-okdir" };
      }
      default:
        if (/^-newer[aBcm][aBcmt]$/.test(t)) return this.newerXY(t);
        if (t.startsWith("-newer") && t.length === 8) throw new FindError(`invalid predicate \`${t}'`);
        if (t.startsWith("-")) throw new FindError(`unknown predicate \`${t}'`);
        throw new FindError(`paths must precede expression: \`${t}'`);
    }
  }
}

async function evaluate(node: Node, c: Ctx, env: Env): Promise<boolean> {
  switch (node.op) {
    case "and":
      return (await evaluate(node.left, c, env)) && evaluate(node.right, c, env);
    case "or":
      return (await evaluate(node.left, c, env)) || evaluate(node.right, c, env);
    case "comma":
      await evaluate(node.left, c, env);
      return evaluate(node.right, c, env);
    case "not":
      return !(await evaluate(node.expr, c, env));
    case "test":
      return node.test(c, env);
    case "exec": {
      const { dir, name } = execTarget(node, c);
      if (node.batch) {
        const pending = env.batches.get(node);
        if (pending !== undefined && pending.dir === dir) pending.names.push(name);
        else {
          if (pending !== undefined) await flushBatch(node, pending, env);
          env.batches.set(node, { dir, names: [name] });
        }
        return true;
      }
      return runExec(node.command.map((w) => w.replaceAll("{}", name)), dir, env);
    }
  }
}

async function flushBatch(node: ExecNode, batch: { dir: string; names: readonly string[] }, env: Env): Promise<void> {
  const words: string[] = [];
  for (const w of node.command) {
    if (w === "{}") words.push(...batch.names);
    else words.push(w);
  }
  if (!(await runExec(words, batch.dir, env))) env.status = 1;
}

/** Where an exec runs and what `{}` is: the path as printed, or for -execdir `./NAME` in its folder. */
function execTarget(node: ExecNode, c: Ctx): { dir: string; name: string } {
  if (!node.inDir) return { dir: "", name: c.display };
  if (c.path === "/") return { dir: "/", name: "/" };
  const slash = c.path.lastIndexOf("/");
  return { dir: slash === 0 ? "/" : c.path.slice(0, slash), name: `./${c.path.slice(slash + 1)}` };
}

async function runExec(words: readonly string[], dir: string, env: Env): Promise<boolean> {
  const r = await runSubcommand(env.io, words, dir === "" ? undefined : dir);
  env.io.out.write(r.stdout);
  if (commandNotFound(r)) env.io.fail(`\u2018${words[0] ?? ""}\u2019: ${ERRNO.ENOENT}`);
  else if (r.stderr !== "") env.io.out.error(r.stderr);
  return r.exitCode === 0;
}

async function runFind(args: string[], io: CommandIo): Promise<number> {
  // Leading options (-H -L -P) then paths, up to the first word that starts an expression.
  let k = 0;
  while (k < args.length && /^-[HLP]+$/.test(args[k] as string)) k++;
  if (args[k] === "--") k++;
  const paths: string[] = [];
  while (k < args.length) {
    const a = args[k] as string;
    if (a.startsWith("-") && a.length > 1) break;
    if (a === "(" || a === "!" || a === ",") break;
    paths.push(a);
    k++;
  }
  const parser = new Parser(args.slice(k), io);
  let expr: Node | undefined;
  try {
    expr = parser.parse();
  } catch (error) {
    if (error instanceof FindError) {
      io.fail(error.message);
      return 1;
    }
    throw error;
  }
  // Without an action, find prints every entry for which the expression is true.
  const root: Node =
    expr === undefined
      ? { op: "test", name: "-print", test: (c, env) => env.io.out.write(`${c.display}\n`) || true, action: true }
      : parser.hasAction
        ? expr
        : { op: "and", left: expr, right: { op: "test", name: "-print", test: (c, env) => env.io.out.write(`${c.display}\n`) || true, action: true } };
  const env: Env = { io, prune: false, quit: false, batches: new Map(), status: 0 };
  const starts = paths.length > 0 ? paths : ["."];
  // A pattern that can backtrack badly is tried first on every path the walk may test.
  for (const re of parser.regexes) {
    if (!(await io.regexIsSafe(re, () => walkDisplays(io, starts)))) return 1;
  }

  const visit = async (path: string, display: string, start: string, depth: number): Promise<void> => {
    if (env.quit || io.out.full) return;
    io.checkTime();
    const info = io.view.info(path);
    if (info === undefined) return;
    const c: Ctx = { path, display, start, depth, info };
    env.prune = false;
    const inRange = depth >= parser.minDepth && depth <= parser.maxDepth;
    if (!parser.depthFirst && inRange) await evaluate(root, c, env);
    const pruned = env.prune;
    if (info.kind === "dir" && !pruned && depth < parser.maxDepth) {
      for (const name of io.view.childrenOf(path) ?? []) {
        await visit(joinPath(path, name), joinDisplay(display, name), start, depth + 1);
        if (env.quit) return;
      }
    }
    if (parser.depthFirst && inRange) await evaluate(root, c, env);
  };

  for (const start of starts) {
    const entry = lookup(io.view, io.cwd, start, io.piped);
    if (entry.kind === "missing" || entry.kind === "notdir") {
      io.fail(`\u2018${start}\u2019: ${entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT}`);
      env.status = 1;
      continue;
    }
    if (entry.kind === "device") continue;
    await visit(entry.path, start, start, 0);
    if (env.quit) break;
  }
  for (const [node, batch] of env.batches) await flushBatch(node, batch, env);
  return env.status;
}

/** Every path a walk from `starts` prints, as printed (what `-regex` is tested on). */
function walkDisplays(io: CommandIo, starts: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (path: string, display: string): void => {
    out.push(display);
    for (const name of io.view.childrenOf(path) ?? []) walk(joinPath(path, name), joinDisplay(display, name));
  };
  for (const start of starts) {
    const entry = lookup(io.view, io.cwd, start, io.piped);
    if (entry.kind === "file" || entry.kind === "dir") walk(entry.path, start);
  }
  return out;
}

export const findCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "find", help: HELP, run: runFind, usageExitCode: 1 });
