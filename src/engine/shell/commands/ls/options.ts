import type { CommandIo } from "../../lib/command.js";
import { type OptionRow, applyOptions, parseOptions } from "../../lib/options.js";

/** What one ls call does, read from its command line. */
export interface LsSettings {
  all: boolean;
  almostAll: boolean;
  long: boolean;
  showOwner: boolean;
  showGroup: boolean;
  numeric: boolean;
  directory: boolean;
  recursive: boolean;
  reverse: boolean;
  sort: "name" | "time" | "size" | "extension" | "version" | "none";
  human: boolean;
  classify: boolean;
  blocks: boolean;
  timeStyle: "locale" | "full-iso" | "long-iso" | "iso";
  groupDirs: boolean;
  quote: boolean;
  /** Layout without -l: one per line (GNU's default when not a terminal), -C, -x or -m. */
  format: "one" | "vertical" | "across" | "commas";
  inode: boolean;
  /** Line width for -C, -x, -m (0: unlimited). */
  width: number;
  tabSize: number;
}

type LsRow = OptionRow<LsSettings, CommandIo>;

/** `--format=WORD` values and the layout each selects. */
const FORMATS: Readonly<Record<string, LsSettings["format"] | "long">> = {
  across: "across",
  commas: "commas",
  horizontal: "across",
  long: "long",
  "single-column": "one",
  verbose: "long",
  vertical: "vertical",
};

const SORTS: Readonly<Record<string, LsSettings["sort"]>> = { name: "name", none: "none", time: "time", size: "size", extension: "extension", version: "version" };

/** argmatch's list of valid arguments (GNU quotes them with \u2018 \u2019 in a UTF-8 locale). */
function choices(names: readonly string[]): string {
  return names.map((n) => `\n  - \u2018${n}\u2019`).join("");
}

/** argmatch's refusal of a word (`--format`, `--sort`): exit status 1 as GNU ls gives. */
function invalidWord(io: CommandIo, value: string, option: string, valid: readonly string[]): number {
  io.fail(`invalid argument \u2018${value}\u2019 for \u2018--${option}\u2019\nValid arguments are:${choices(valid)}`);
  io.out.error("Try 'ls --help' for more information.\n");
  return 1;
}

/** A layout option: -1, -C, -x, -m leave the long listing. */
function layout(format: LsSettings["format"]): LsRow["apply"] {
  return (s) => {
    s.long = false;
    s.format = format;
  };
}

/** A count (`-w`, `-T`): sets it, or GNU's message and exit status 2. */
function countInto(what: string, set: (s: LsSettings, n: number) => void): LsRow["apply"] {
  return (s, value, io) => {
    if (!/^\d+$/.test(value)) {
      io.fail(`${what}: \u2018${value}\u2019`);
      return 2;
    }
    set(s, Number(value));
    return undefined;
  };
}

function format(s: LsSettings, value: string, io: CommandIo): number | undefined {
  const f = FORMATS[value];
  if (f === undefined) return invalidWord(io, value, "format", ["verbose\u2019, \u2018long", "commas", "horizontal\u2019, \u2018across", "vertical", "single-column"]);
  s.long = f === "long";
  if (f !== "long") s.format = f;
  return undefined;
}

function timeStyle(s: LsSettings, value: string, io: CommandIo): number | undefined {
  const style = value.replace(/^posix-/, "");
  if (style !== "full-iso" && style !== "long-iso" && style !== "iso" && style !== "locale") {
    io.fail(`invalid argument '${value}' for 'time style'`);
    return 2;
  }
  s.timeStyle = style;
  return undefined;
}

/** Every option ls accepts, as GNU coreutils spells it, with what it does to the settings. */
const LS_OPTIONS: readonly LsRow[] = [
  { key: "a", short: "a", long: "all", apply: (s) => void (s.all = true) },
  {
    key: "A",
    short: "A",
    long: "almost-all",
    apply: (s) => {
      s.almostAll = true;
      s.all = false;
    },
  },
  { key: "l", short: "l", apply: (s) => void (s.long = true) },
  { key: "1", short: "1", apply: layout("one") },
  { key: "d", short: "d", long: "directory", apply: (s) => void (s.directory = true) },
  { key: "R", short: "R", long: "recursive", apply: (s) => void (s.recursive = true) },
  { key: "r", short: "r", long: "reverse", apply: (s) => void (s.reverse = true) },
  { key: "t", short: "t", apply: (s) => void (s.sort = "time") },
  { key: "S", short: "S", apply: (s) => void (s.sort = "size") },
  { key: "X", short: "X", apply: (s) => void (s.sort = "extension") },
  { key: "U", short: "U", apply: (s) => void (s.sort = "none") },
  { key: "v", short: "v", apply: (s) => void (s.sort = "version") },
  {
    key: "sort",
    long: "sort",
    value: true,
    apply: (s, v, io) => {
      const sort = SORTS[v];
      if (sort === undefined) return invalidWord(io, v, "sort", ["none", "time", "size", "extension", "version", "width"]);
      s.sort = sort;
      return undefined;
    },
  },
  { key: "h", short: "h", long: "human-readable", apply: (s) => void (s.human = true) },
  { key: "F", short: "F", long: "classify", apply: (s) => void (s.classify = true) },
  { key: "p", short: "p", apply: (s) => void (s.classify = true) },
  { key: "s", short: "s", long: "size", apply: (s) => void (s.blocks = true) },
  {
    key: "g",
    short: "g",
    apply: (s) => {
      s.long = true;
      s.showOwner = false;
    },
  },
  {
    key: "o",
    short: "o",
    apply: (s) => {
      s.long = true;
      s.showGroup = false;
    },
  },
  { key: "G", short: "G", long: "no-group", apply: (s) => void (s.showGroup = false) },
  {
    key: "n",
    short: "n",
    long: "numeric-uid-gid",
    apply: (s) => {
      s.long = true;
      s.numeric = true;
    },
  },
  {
    key: "full-time",
    long: "full-time",
    apply: (s) => {
      s.long = true;
      s.timeStyle = "full-iso";
    },
  },
  { key: "time-style", long: "time-style", value: true, apply: timeStyle },
  { key: "color", long: "color", value: true },
  { key: "group-directories-first", long: "group-directories-first", apply: (s) => void (s.groupDirs = true) },
  // No effect here: access and change times are the modification time, names are printable,
  // and there are no links to follow.
  { key: "noop", short: "c" },
  { key: "noop", short: "u" },
  { key: "noop", short: "N", long: "literal" },
  { key: "noop", short: "L", long: "dereference" },
  { key: "noop", short: "H" },
  { key: "Q", short: "Q", long: "quote-name", apply: (s) => void (s.quote = true) },
  { key: "m", short: "m", apply: layout("commas") },
  { key: "C", short: "C", apply: layout("vertical") },
  { key: "x", short: "x", apply: layout("across") },
  { key: "format", long: "format", value: true, apply: format },
  { key: "w", short: "w", long: "width", value: true, apply: countInto("invalid line width", (s, n) => (s.width = n)) },
  { key: "T", short: "T", long: "tabsize", value: true, apply: countInto("invalid tab size", (s, n) => (s.tabSize = n)) },
  { key: "i", short: "i", long: "inode", apply: (s) => void (s.inode = true) },
  { key: "k", short: "k", long: "kibibytes" },
];

/** ls's command line as settings and operands, or the exit status after a mistake. */
export function lsSettings(io: CommandIo, args: readonly string[]): { s: LsSettings; operands: readonly string[] } | number {
  const parsed = parseOptions(args, LS_OPTIONS, { abbreviations: true });
  const s: LsSettings = {
    all: false,
    almostAll: false,
    long: false,
    showOwner: true,
    showGroup: true,
    numeric: false,
    directory: false,
    recursive: false,
    reverse: false,
    sort: "name",
    human: false,
    classify: false,
    blocks: false,
    timeStyle: "locale",
    groupDirs: false,
    quote: false,
    format: "one",
    inode: false,
    width: 80,
    tabSize: 8,
  };
  const stopped = applyOptions(parsed, LS_OPTIONS, s, io);
  return stopped ?? { s, operands: parsed.operands };
}
