import { type EntryInfo, OWNER, type SiteView, compareBytes } from "../../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../../lib/command.js";
import { ERRNO, joinDisplay, joinPath, lookup } from "../../lib/files.js";
import { fullIsoTime, gnuHumanSize, inodeOf, layoutColumns, longIsoTime, lsDate, modeString, quoteName, versionCompare } from "../../lib/format.js";
import type { ShellCommandFactory } from "../command.js";
import { type LsSettings, lsSettings } from "./options.js";
import { maxOf } from "../../../../arrays.js";

/** `ls --help`. */
const HELP = `Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current folder "/" by default), sorted by name in byte
order. One name per line: output is never a terminal here, as with GNU ls piped.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -d, --directory            list folders themselves, not their contents
  -F, --classify             append / to folders
  -p                         append / to folders
  -h, --human-readable       with -l and -s, print sizes like 1K 234M
  -l                         use a long listing format (owner root, times in UTC)
  -g                         like -l, but do not list owner
  -o                         like -l, but do not list group information
  -G, --no-group             in a long listing, don't print group names
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
      --full-time            like -l --time-style=full-iso
      --time-style=STYLE     full-iso, long-iso, iso or locale
  -m                         fill width with a comma separated list of entries
  -C                         list entries by columns (80 columns wide, tabs between)
  -x                         list entries by lines instead of by columns
      --format=WORD          across -x, commas -m, horizontal -x, long -l,
                               single-column -1, verbose -l, vertical -C
  -w, --width=COLS           line width for -C, -x and -m (0: no limit; default 80)
  -T, --tabsize=COLS         tab stops every COLS columns (default 8; 0: spaces only)
  -i, --inode                print the index number of each file (stable per path)
  -Q, --quote-name           enclose entry names in double quotes
  -R, --recursive            list subfolders recursively
  -r, --reverse              reverse order while sorting
  -S                         sort by file size, largest first
  -t                         sort by time, newest first
  -X                         sort alphabetically by entry extension
  -v                         natural sort of (version) numbers within text
  -U                         do not sort; list entries in folder order (name order here)
      --group-directories-first  group folders before files
  -s, --size                 print the allocated size of each file, in blocks
  -1                         list one file per line (the default: output is not a terminal)

Exit status: 0 if OK, 1 if minor problems, 2 if serious trouble (e.g. a missing FILE).
`;

/** One line's worth: a name as shown and what it points at. */
interface Item {
  readonly name: string;
  readonly path: string;
  readonly info: EntryInfo;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot);
}

function sortItems(items: Item[], s: LsSettings): Item[] {
  const byName = (a: Item, b: Item) => compareBytes(a.name, b.name);
  const cmp: Record<LsSettings["sort"], (a: Item, b: Item) => number> = {
    name: byName,
    none: () => 0,
    time: (a, b) => b.info.mtime.getTime() - a.info.mtime.getTime() || byName(a, b),
    size: (a, b) => b.info.size - a.info.size || byName(a, b),
    extension: (a, b) => compareBytes(extensionOf(a.name), extensionOf(b.name)) || byName(a, b),
    version: (a, b) => versionCompare(a.name, b.name) || byName(a, b),
  };
  const sorted = [...items].sort(cmp[s.sort]);
  if (s.reverse && s.sort !== "none") sorted.reverse();
  if (s.groupDirs) return [...sorted.filter((i) => i.info.kind === "dir"), ...sorted.filter((i) => i.info.kind !== "dir")];
  return sorted;
}

function timeText(d: Date, s: LsSettings, now: Date): string {
  switch (s.timeStyle) {
    case "full-iso":
      return fullIsoTime(d);
    case "long-iso":
      return longIsoTime(d);
    case "iso": {
      const recent = d.getTime() > now.getTime() - (31556952 / 2) * 1000 && d.getTime() <= now.getTime();
      const iso = longIsoTime(d);
      return recent ? iso.slice(5) : `${iso.slice(0, 10)} `;
    }
    default:
      return lsDate(d, now);
  }
}

/** Print a list of items (one folder's contents, or the file operands) in the chosen format. */
function printItems(items: readonly Item[], s: LsSettings, io: CommandIo, withTotal: boolean): void {
  const suffix = (i: Item) => (s.classify && i.info.kind === "dir" ? "/" : "");
  const shown = (i: Item) => (s.quote ? `"${i.name}"` : i.name) + suffix(i);
  const sizeText = (n: number) => (s.human ? gnuHumanSize(n) : String(n));
  const blockText = (i: Item) => (s.human ? gnuHumanSize(i.info.blocks * 512) : String(i.info.blocks / 2));
  if (withTotal && (s.long || s.blocks)) {
    const total = items.reduce((sum, i) => sum + i.info.blocks, 0);
    io.out.write(`total ${s.human ? gnuHumanSize(total * 512) : total / 2}\n`);
  }
  if (!s.long) {
    const blockW = s.format === "commas" ? 0 : maxOf(items.map((i) => blockText(i).length), 0);
    const inodeW = s.format === "commas" ? 0 : maxOf(items.map((i) => String(inodeOf(i.path)).length), 0);
    const cells = items.map(
      (i) => `${s.inode ? `${String(inodeOf(i.path)).padStart(inodeW)} ` : ""}${s.blocks ? `${blockText(i).padStart(blockW)} ` : ""}${shown(i)}`,
    );
    const width = s.width === 0 ? Number.MAX_SAFE_INTEGER : s.width;
    if (s.format === "commas") io.out.write(cells.length === 0 ? "" : `${wrapCommas(cells, width)}\n`);
    else if (s.format === "one") for (const c of cells) io.out.write(`${c}\n`);
    else io.out.write(layoutColumns(cells, s.format === "vertical", width, s.tabSize));
    return;
  }
  const now = new Date();
  const owner = s.numeric ? String(OWNER.uid) : OWNER.user;
  const group = s.numeric ? String(OWNER.gid) : OWNER.group;
  const linkW = maxOf(items.map((i) => String(i.info.nlink).length));
  const sizeW = maxOf(items.map((i) => sizeText(i.info.size).length));
  const blockW = maxOf(items.map((i) => blockText(i).length));
  const inodeW = maxOf(items.map((i) => String(inodeOf(i.path)).length));
  for (const i of items) {
    let line = s.inode ? `${String(inodeOf(i.path)).padStart(inodeW)} ` : "";
    line += s.blocks ? `${blockText(i).padStart(blockW)} ` : "";
    line += `${modeString(i.info.mode)} ${String(i.info.nlink).padStart(linkW)} `;
    if (s.showOwner) line += `${owner} `;
    if (s.showGroup) line += `${group} `;
    line += `${sizeText(i.info.size).padStart(sizeW)} ${timeText(i.info.mtime, s, now)} ${shown(i)}\n`;
    if (!io.out.write(line)) return;
  }
}

/** `-m`: comma-separated, wrapped at the line width (80 without a terminal) as GNU does. */
function wrapCommas(names: readonly string[], width: number): string {
  let out = "";
  let col = 0;
  names.forEach((n, k) => {
    const last = k === names.length - 1;
    const piece = last ? n : `${n},`;
    if (k > 0) {
      if (col + 1 + piece.length > width) {
        out += "\n";
        col = 0;
      } else {
        out += " ";
        col += 1;
      }
    }
    out += piece;
    col += piece.length;
  });
  return out;
}

function runLs(args: string[], io: CommandIo): number {
  const settings = lsSettings(io, args);
  if (typeof settings === "number") return settings;
  const { s } = settings;
  const operands = settings.operands.length > 0 ? settings.operands : ["."];
  let status = 0;
  const files: Item[] = [];
  const dirs: Item[] = [];
  for (const operand of operands) {
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    const info = entry.kind === "file" || entry.kind === "dir" ? io.view.info(entry.path) : undefined;
    if (entry.kind === "device") {
      files.push({ name: operand, path: entry.path, info: { kind: "file", size: 0, mtime: new Date(0), mode: 0o020666, nlink: 1, blocks: 0 } });
      continue;
    }
    if (info === undefined) {
      io.fail(`cannot access ${quoteName(operand)}: ${entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT}`);
      status = 2;
      continue;
    }
    const item = { name: operand, path: entry.path, info };
    if (info.kind === "dir" && !s.directory) dirs.push(item);
    else files.push(item);
  }
  const sortedFiles = sortItems(files, s);
  if (sortedFiles.length > 0) printItems(sortedFiles, s, io, false);
  const sortedDirs = sortItems(dirs, { ...s, groupDirs: false });
  const headers = operands.length > 1 || s.recursive;
  let first = sortedFiles.length === 0;
  const listDir = (dir: Item): void => {
    io.checkTime();
    if (!first) io.out.write("\n");
    first = false;
    if (headers) io.out.write(`${dir.name}:\n`);
    const items = childItems(io.view, dir, s);
    printItems(items, s, io, true);
    if (s.recursive) {
      for (const child of items) {
        if (child.info.kind !== "dir" || child.name === "." || child.name === "..") continue;
        listDir({ name: joinDisplay(dir.name, child.name), path: child.path, info: child.info });
      }
    }
  };
  for (const d of sortedDirs) {
    if (io.out.full) break;
    listDir(d);
  }
  return status;
}

function childItems(view: SiteView, dir: Item, s: LsSettings): Item[] {
  const items: Item[] = [];
  for (const name of view.childrenOf(dir.path) ?? []) {
    if (name.startsWith(".") && !s.all && !s.almostAll) continue;
    const path = joinPath(dir.path, name);
    const info = view.info(path);
    if (info !== undefined) items.push({ name, path, info });
  }
  const sorted = sortItems(items, s);
  if (!s.all) return sorted;
  const parent = dir.path === "/" ? "/" : dir.path.slice(0, dir.path.lastIndexOf("/")) || "/";
  const dots: Item[] = [
    { name: ".", path: dir.path, info: dir.info },
    { name: "..", path: parent, info: view.info(parent) ?? dir.info },
  ];
  // `.` and `..` sort with everything else ("." < ".." < other names in byte order).
  return sortItems([...dots, ...items], s);
}

export const lsCommand: ShellCommandFactory = (view) =>
  docsCommand(view, { name: "ls", help: HELP, run: runLs, usageExitCode: 2 });
