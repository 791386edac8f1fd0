import { type EntryInfo, OWNER } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, lookup } from "../lib/files.js";
import { fullIsoTime, inodeOf, modeString, quoteName } from "../lib/format.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const HELP = `Usage: stat [OPTION]... FILE...
Display file status (GNU coreutils stat compatible, read-only docs shell).

  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline
  -t, --terse           print the information in terse form
  -L, --dereference     accepted (there are no links)

FORMAT sequences: %a %A %b %B %d %D %f %F %g %G %h %i %n %N %o %s %u %U %w %W %x %X %y %Y %z %Z %%.
The docs are a read-only snapshot: every entry belongs to root (uid 0), access, change and
birth times equal the modification time (UTC), device is 0 and inode numbers are stable per path.
`;

function typeName(info: EntryInfo): string {
  if ((info.mode & 0o170000) === 0o020000) return "character special file";
  if (info.kind === "dir") return "directory";
  return info.size === 0 ? "regular empty file" : "regular file";
}

function expand(format: string, name: string, path: string, info: EntryInfo): string {
  const seconds = Math.floor(info.mtime.getTime() / 1000);
  return format.replace(/%([-#+ 0]*\d*)([a-zA-Z%])/g, (whole, flags: string, c: string) => {
    let v: string;
    switch (c) {
      case "%":
        return "%";
      case "a":
        v = (info.mode & 0o7777).toString(8);
        break;
      case "A":
        v = modeString(info.mode);
        break;
      case "b":
        v = String(info.blocks);
        break;
      case "B":
        v = "512";
        break;
      case "d":
      case "D":
        v = "0";
        break;
      case "f":
        v = info.mode.toString(16);
        break;
      case "F":
        v = typeName(info);
        break;
      case "g":
        v = String(OWNER.gid);
        break;
      case "G":
        v = OWNER.group;
        break;
      case "h":
        v = String(info.nlink);
        break;
      case "i":
        v = String(inodeOf(path));
        break;
      case "n":
        v = name;
        break;
      case "N":
        v = quoteName(name);
        break;
      case "o":
        v = "4096";
        break;
      case "s":
        v = String(info.size);
        break;
      case "t":
      case "T":
        v = "0";
        break;
      case "u":
        v = String(OWNER.uid);
        break;
      case "U":
        v = OWNER.user;
        break;
      case "w":
      case "x":
      case "y":
      case "z":
        v = fullIsoTime(info.mtime);
        break;
      case "W":
      case "X":
      case "Y":
      case "Z":
        v = String(seconds);
        break;
      default:
        return whole;
    }
    const width = Number(/\d+$/.exec(flags)?.[0] ?? 0);
    if (width === 0) return v;
    if (flags.startsWith("-")) return v.padEnd(width);
    return v.padStart(width, flags.startsWith("0") && /^\d+$/.test(v) ? "0" : " ");
  });
}

function unescape(s: string): string {
  return s.replace(/\\(n|t|\\|"|r|a|b|f|v|0[0-7]{0,3}|x[0-9A-Fa-f]{1,2})/g, (_m, e: string) => {
    const simple: Record<string, string> = { n: "\n", t: "\t", "\\": "\\", '"': '"', r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v" };
    if (simple[e] !== undefined) return simple[e] as string;
    if (e.startsWith("x")) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return String.fromCharCode(Number.parseInt(e.slice(1) || "0", 8));
  });
}

function defaultFormat(name: string, path: string, info: EntryInfo): string {
  const mode = `${(info.mode & 0o7777).toString(8).padStart(4, "0")}/${modeString(info.mode)}`;
  const time = fullIsoTime(info.mtime);
  return (
    `  File: ${name}\n` +
    `  Size: ${String(info.size).padEnd(10)}\tBlocks: ${String(info.blocks).padEnd(10)} IO Block: 4096   ${typeName(info)}\n` +
    `Device: 0,0\tInode: ${String(inodeOf(path)).padEnd(11)} Links: ${info.nlink}\n` +
    `Access: (${mode})  Uid: (${String(OWNER.uid).padStart(5)}/${OWNER.user.padStart(8)})   Gid: (${String(OWNER.gid).padStart(5)}/${OWNER.group.padStart(8)})\n` +
    `Access: ${time}\nModify: ${time}\nChange: ${time}\n Birth: ${time}\n`
  );
}

/** What stat prints, read from its command line. */
interface StatSettings {
  format: string | undefined;
  /** --format ends each entry with a newline; --printf does not. */
  newline: boolean;
  terse: boolean;
}

/** Every option stat accepts, as GNU coreutils spells it, with what it does to the settings. */
const STAT_OPTIONS: readonly OptionRow<StatSettings, CommandIo>[] = [
  {
    key: "c",
    short: "c",
    long: "format",
    value: true,
    apply: (s, v) => {
      s.format = v;
      s.newline = true;
    },
  },
  {
    key: "printf",
    long: "printf",
    value: true,
    apply: (s, v) => {
      s.format = unescape(v);
      s.newline = false;
    },
  },
  { key: "t", short: "t", long: "terse", apply: (s) => void (s.terse = true) },
  // There are no links to follow.
  { key: "L", short: "L", long: "dereference" },
  {
    key: "f",
    short: "f",
    long: "file-system",
    apply: (_s, _v, io) => {
      io.fail("--file-system is not supported: the docs are a virtual read-only filesystem");
      return 1;
    },
  },
];

function runStat(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, STAT_OPTIONS, { abbreviations: true });
  const settings: StatSettings = { format: undefined, newline: true, terse: false };
  const stopped = applyOptions(parsed, STAT_OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  const { format, newline, terse } = settings;
  if (parsed.operands.length === 0) {
    io.fail("missing operand");
    io.out.error("Try 'stat --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const operand of parsed.operands) {
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    const info: EntryInfo | undefined =
      entry.kind === "device"
        ? { kind: "file", size: 0, mtime: new Date(0), mode: 0o020666, nlink: 1, blocks: 0 }
        : entry.kind === "file" || entry.kind === "dir"
          ? io.view.info(entry.path)
          : undefined;
    if (info === undefined) {
      io.fail(`cannot statx ${quoteName(operand)}: ${entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT}`);
      status = 1;
      continue;
    }
    if (format !== undefined) io.out.write(expand(format, operand, entry.path, info) + (newline ? "\n" : ""));
    else if (terse) io.out.write(`${expand("%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o", operand, entry.path, info)}\n`);
    else io.out.write(defaultFormat(operand, entry.path, info));
  }
  return status;
}

export const statCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "stat", help: HELP, run: runStat, usageExitCode: 1 });
