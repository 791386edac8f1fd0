import type { CommandIo } from "../../lib/command.js";
import { type GlobMatcher, fnmatchRegex } from "../../lib/glob.js";
import type { OptionRow } from "../../lib/options.js";
import { appendAll } from "../../../../arrays.js";

/** What one tree call does, read from its command line. */
export interface TreeSettings {
  /** -C: colour names as tree does with no LS_COLORS (folders bold blue). */
  color: boolean;
  /** Set when `--filelimit` kept a folder below a starting one closed (tree then exits 2). */
  closedBelow: boolean;
  all: boolean;
  dirsOnly: boolean;
  fullPath: boolean;
  noIndent: boolean;
  maxLevel: number;
  include: GlobMatcher[];
  exclude: GlobMatcher[];
  matchDirs: boolean;
  prune: boolean;
  fileLimit: number;
  report: boolean;
  perms: boolean;
  user: boolean;
  group: boolean;
  size: boolean;
  human: boolean;
  date: boolean;
  classify: boolean;
  quote: boolean;
  sort: "name" | "version" | "size" | "mtime" | "none";
  reverse: boolean;
  dirsFirst: boolean;
  filesFirst: boolean;
  ascii: boolean;
  json: boolean;
}

export const USAGE = `usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]
\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]
\t[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]
\t[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]
\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]
\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]
\t[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]
\t[--help] [--] [directory ...]
`;

/** The settings while options are read: -P/-I wait for --ignore-case, which may come later. */
interface Draft extends TreeSettings {
  patterns: Array<["P" | "I", string]>;
  ignoreCase: boolean;
}

type TreeRow = OptionRow<Draft, CommandIo>;

/** tree's complaint about its command line: the message, then its usage; exit status 1. */
function usage(io: CommandIo, message: string): number {
  io.out.error(`tree: ${message}\n${USAGE}`);
  return 1;
}

const SORTS: Readonly<Record<string, TreeSettings["sort"]>> = { name: "name", version: "version", size: "size", mtime: "mtime", ctime: "mtime", none: "none" };

function level(s: Draft, value: string, io: CommandIo): number | undefined {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    io.out.error("tree: Invalid level, must be greater than 0.\n");
    return 1;
  }
  s.maxLevel = Number(value);
  return undefined;
}

function sort(s: Draft, value: string, io: CommandIo): number | undefined {
  const by = SORTS[value];
  if (by === undefined) {
    io.out.error(`tree: Sort type '${value}' not valid, should be one of: name, version, size, mtime, ctime, none\n`);
    return 1;
  }
  s.sort = by;
  return undefined;
}

/** Every option tree accepts, as tree 2.1 spells it, with what it does to the settings. */
const TREE_OPTIONS: readonly TreeRow[] = [
  { key: "a", short: "a", apply: (s) => void (s.all = true) },
  { key: "d", short: "d", apply: (s) => void (s.dirsOnly = true) },
  { key: "f", short: "f", apply: (s) => void (s.fullPath = true) },
  { key: "i", short: "i", apply: (s) => void (s.noIndent = true) },
  { key: "L", short: "L", value: true, apply: level },
  { key: "P", short: "P", value: true, apply: (s, v) => void s.patterns.push(["P", v]) },
  { key: "I", short: "I", value: true, apply: (s, v) => void s.patterns.push(["I", v]) },
  { key: "p", short: "p", apply: (s) => void (s.perms = true) },
  { key: "u", short: "u", apply: (s) => void (s.user = true) },
  { key: "g", short: "g", apply: (s) => void (s.group = true) },
  { key: "s", short: "s", apply: (s) => void (s.size = true) },
  {
    key: "h",
    short: "h",
    apply: (s) => {
      s.human = true;
      s.size = true;
    },
  },
  { key: "D", short: "D", apply: (s) => void (s.date = true) },
  { key: "F", short: "F", apply: (s) => void (s.classify = true) },
  { key: "Q", short: "Q", apply: (s) => void (s.quote = true) },
  { key: "v", short: "v", apply: (s) => void (s.sort = "version") },
  { key: "t", short: "t", apply: (s) => void (s.sort = "mtime") },
  { key: "t", short: "c" },
  { key: "r", short: "r", apply: (s) => void (s.reverse = true) },
  { key: "U", short: "U", apply: (s) => void (s.sort = "none") },
  { key: "J", short: "J", apply: (s) => void (s.json = true) },
  { key: "C", short: "C", apply: (s) => void (s.color = true) },
  // Colour off, links, one file system, printable characters: no effect here.
  ...["n", "l", "x", "q", "N", "S"].map((c) => ({ key: "noop", short: c })),
  { key: "noreport", long: "noreport", apply: (s) => void (s.report = false) },
  { key: "prune", long: "prune", apply: (s) => void (s.prune = true) },
  { key: "matchdirs", long: "matchdirs", apply: (s) => void (s.matchDirs = true) },
  { key: "ignore-case", long: "ignore-case", apply: (s) => void (s.ignoreCase = true) },
  { key: "dirsfirst", long: "dirsfirst", apply: (s) => void (s.dirsFirst = true) },
  { key: "filesfirst", long: "filesfirst", apply: (s) => void (s.filesFirst = true) },
  {
    key: "filelimit",
    long: "filelimit",
    value: true,
    apply: (s, v, io) => {
      if (!/^\d+$/.test(v)) return usage(io, "Missing argument to --filelimit");
      s.fileLimit = Number(v);
      return undefined;
    },
  },
  { key: "sort", long: "sort", value: true, apply: sort },
  { key: "charset", long: "charset", value: true, apply: (s, v) => void (s.ascii = /^(ascii|us-ascii|ansi_x3\.4-1968)$/i.test(v)) },
  {
    key: "version",
    long: "version",
    apply: (_s, _v, io) => {
      io.out.write("tree v2.1.0 \u00a9 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro\n");
      return 0;
    },
  },
  ...["si", "du", "nolinks", "fflinks", "gitignore"].map((l) => ({ key: "noop", long: l })),
];

const BY_SHORT = new Map(TREE_OPTIONS.filter((r) => r.short !== undefined).map((r) => [r.short as string, r]));
const BY_LONG = new Map(TREE_OPTIONS.filter((r) => typeof r.long === "string").map((r) => [r.long as string, r]));
const APPLY = new Map(TREE_OPTIONS.filter((r) => r.apply !== undefined).map((r) => [r.key, r.apply]));

function defaults(): Draft {
  return {
    all: false,
    dirsOnly: false,
    fullPath: false,
    noIndent: false,
    maxLevel: Number.POSITIVE_INFINITY,
    include: [],
    exclude: [],
    matchDirs: false,
    prune: false,
    fileLimit: Number.POSITIVE_INFINITY,
    report: true,
    perms: false,
    user: false,
    group: false,
    size: false,
    human: false,
    date: false,
    classify: false,
    color: false,
    closedBelow: false,
    quote: false,
    sort: "name",
    reverse: false,
    dirsFirst: false,
    filesFirst: false,
    ascii: false,
    json: false,
    patterns: [],
    ignoreCase: false,
  };
}

/**
 * tree's own option syntax, read left to right and applied as read (so `--version` answers
 * before a later mistake is seen, as tree does): clustered letters, a letter's value in the rest
 * of the word or the next word (`-L2`, `-L 2`), long options with `=value` or the next word
 * (a missing one reads as empty), `=value` after a long flag ignored.
 */
export function treeSettings(args: readonly string[], io: CommandIo): { s: TreeSettings; dirs: string[] } | number {
  const s = defaults();
  const dirs: string[] = [];
  let onlyDirs = false;
  const apply = (key: string, value: string, name: string): number | undefined => {
    const status = APPLY.get(key)?.(s, value, io, { key, name, value });
    return typeof status === "number" ? status : undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (onlyDirs || !arg.startsWith("-") || arg === "-") dirs.push(arg);
    else if (arg === "--") onlyDirs = true;
    else if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const row = BY_LONG.get(eq === -1 ? arg.slice(2) : arg.slice(2, eq));
      if (row === undefined) return usage(io, `Invalid argument \`${arg}'.`);
      const value = row.value !== true ? "" : eq !== -1 ? arg.slice(eq + 1) : (args[++i] ?? "");
      const status = apply(row.key, value, arg);
      if (status !== undefined) return status;
    } else {
      for (let k = 1; k < arg.length; k++) {
        const c = arg[k] as string;
        const row = BY_SHORT.get(c);
        if (row === undefined) return usage(io, `Invalid argument -\`${c}'.`);
        let value = "";
        if (row.value === true) {
          const v = k + 1 < arg.length ? arg.slice(k + 1) : args[++i];
          if (v === undefined) return usage(io, `Missing argument to -${c} option.`);
          value = v;
          k = arg.length;
        }
        const status = apply(row.key, value, `-${c}`);
        if (status !== undefined) return status;
      }
    }
  }
  for (const [kind, pattern] of s.patterns) {
    const res = pattern.split("|").map((p) => fnmatchRegex(p, s.ignoreCase));
    appendAll(kind === "P" ? s.include : s.exclude, res);
  }
  return { s, dirs };
}
