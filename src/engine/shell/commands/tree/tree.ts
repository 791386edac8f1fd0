import { type EntryInfo, OWNER, type SiteView, compareBytes } from "../../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../../lib/command.js";
import { joinDisplay, joinPath, lookup } from "../../lib/files.js";
import { lsDate, modeString, treeHumanSize, versionCompare } from "../../lib/format.js";
import type { ShellCommandFactory } from "../command.js";
import { type TreeSettings, treeSettings } from "./options.js";

/** `tree --help`. */
const HELP = `usage: tree [OPTIONS] [directory ...]
List the contents of folders in a tree-like format (tree 2.1 compatible, read-only docs shell).
Start with \`tree / -L 2\` to see how the docs are organised.

  -a            All files are listed (including hidden ones).
  -d            List directories only.
  -f            Print the full path prefix for each file.
  -i            Don't print indentation lines.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern (wildcards, | between patterns).
  -I pattern    Do not list files that match the given pattern.
  --ignore-case Ignore case when pattern matching.
  --matchdirs   Include directory names in -P pattern matching.
  --prune       Prune empty directories from the output.
  --filelimit # Do not descend dirs with more than # files in them.
  --noreport    Turn off file/directory count at end of tree listing.
  -p            Print the protections for each file.
  -u / -g       Displays file owner / group.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  -D            Print the date of last modification (UTC).
  -F            Appends '/' to directories.
  -Q            Quote filenames with double quotes.
  -v / -t / -r / -U   Sort by version / modification time / reversed / not at all.
  --dirsfirst   List directories before files.  --filesfirst  The opposite.
  --sort X      Select sort: name, version, size, mtime, none.
  --charset X   Use charset X for line graphics (ascii or utf-8).
  -J            Prints out a JSON representation of the tree.
`;

interface Node {
  readonly name: string;
  readonly path: string;
  readonly info: EntryInfo;
  /** Children when the folder was opened (undefined beyond -L or for files). */
  readonly children?: Node[];
  /** `--filelimit`: the folder was not opened because it holds this many entries. */
  readonly overLimit?: number;
}

/** What tree prints after a folder `--filelimit` kept closed. */
function limitNote(node: Node): string {
  return node.overLimit === undefined ? "" : `  [${node.overLimit} entries exceeds filelimit, not opening dir]`;
}

function sortNodes(nodes: Node[], s: TreeSettings): Node[] {
  const byName = (a: Node, b: Node) => compareBytes(a.name, b.name);
  const cmp =
    s.sort === "version"
      ? (a: Node, b: Node) => versionCompare(a.name, b.name) || byName(a, b)
      : s.sort === "size"
        ? (a: Node, b: Node) => b.info.size - a.info.size || byName(a, b)
        : s.sort === "mtime"
          ? (a: Node, b: Node) => a.info.mtime.getTime() - b.info.mtime.getTime() || byName(a, b)
          : s.sort === "none"
            ? () => 0
            : byName;
  const out = [...nodes].sort(cmp);
  if (s.reverse) out.reverse();
  if (s.dirsFirst) return [...out.filter((n) => n.info.kind === "dir"), ...out.filter((n) => n.info.kind !== "dir")];
  if (s.filesFirst) return [...out.filter((n) => n.info.kind !== "dir"), ...out.filter((n) => n.info.kind === "dir")];
  return out;
}

/** Read a folder's visible children to the depth tree would show, applying -a/-d/-P/-I/--prune. */
function readTree(view: SiteView, path: string, s: TreeSettings, level: number, io: CommandIo): Node[] {
  io.checkTime();
  const names = view.childrenOf(path) ?? [];
  const nodes: Node[] = [];
  for (const name of names) {
    if (!s.all && name.startsWith(".")) continue;
    const child = joinPath(path, name);
    const info = view.info(child);
    if (info === undefined) continue;
    const isDir = info.kind === "dir";
    if (s.dirsOnly && !isDir) continue;
    if (s.exclude.some((re) => re.test(name))) continue;
    if (s.include.length > 0 && (!isDir || s.matchDirs) && !s.include.some((re) => re.test(name))) {
      if (!isDir) continue;
    }
    const entries = view.childrenOf(child)?.length ?? 0;
    if (isDir && level < s.maxLevel && entries > s.fileLimit) {
      nodes.push({ name, path: child, info, overLimit: entries });
      s.closedBelow = true;
    } else if (isDir && level < s.maxLevel) {
      const children = readTree(view, child, s, level + 1, io);
      if (s.prune && children.length === 0) continue;
      nodes.push({ name, path: child, info, children });
    } else {
      if (isDir && s.prune && s.include.length > 0) continue;
      nodes.push({ name, path: child, info });
    }
  }
  return sortNodes(nodes, s);
}

function meta(node: Node, s: TreeSettings, now: Date): string {
  const parts: string[] = [];
  if (s.perms) parts.push(modeString(node.info.mode));
  if (s.user) parts.push(OWNER.user.padEnd(8));
  if (s.group) parts.push(OWNER.group.padEnd(8));
  if (s.size) parts.push(s.human ? treeHumanSize(node.info.size) : String(node.info.size).padStart(11));
  if (s.date) parts.push(lsDate(node.info.mtime, now));
  return parts.length === 0 ? "" : `[${parts.join(" ")}]  `;
}

function shownName(node: Node, display: string, s: TreeSettings): string {
  const quoted = s.quote ? `"${display}"` : display;
  const name = s.color ? `\x1b[${node.info.kind === "dir" ? "01;34" : "00"}m${quoted}\x1b[0m` : quoted;
  return name + (s.classify && node.info.kind === "dir" ? "/" : "");
}

function runTree(args: string[], io: CommandIo): number {
  const parsed = treeSettings(args, io);
  if (typeof parsed === "number") return parsed;
  const { s } = parsed;
  const operands = parsed.dirs.length > 0 ? parsed.dirs : ["."];
  const now = new Date();
  const [branch, last, pipe, blank] = s.ascii ? ["|-- ", "`-- ", "|   ", "    "] : ["├── ", "└── ", "│\u00a0\u00a0 ", "    "];
  let dirs = 0;
  let files = 0;
  let status = 0;
  const json: string[] = [];

  const count = (nodes: readonly Node[]): void => {
    for (const n of nodes) {
      if (n.info.kind === "dir") dirs++;
      else files++;
      if (n.children !== undefined) count(n.children);
    }
  };

  const printNodes = (nodes: readonly Node[], indent: string, parentDisplay: string): boolean => {
    for (let k = 0; k < nodes.length; k++) {
      const n = nodes[k] as Node;
      const isLast = k === nodes.length - 1;
      const display = s.fullPath ? joinDisplay(parentDisplay, n.name) : n.name;
      const lead = s.noIndent ? "" : indent + (isLast ? last : branch);
      if (!io.out.write(`${lead}${meta(n, s, now)}${shownName(n, display, s)}${limitNote(n)}\n`)) return false;
      if (n.children !== undefined && n.children.length > 0) {
        if (!printNodes(n.children, indent + (isLast ? blank : pipe), joinDisplay(parentDisplay, n.name))) return false;
      }
    }
    return true;
  };

  const jsonNode = (n: Node, depth: number): string => {
    const pad = "  ".repeat(depth);
    const type = n.info.kind === "dir" ? "directory" : "file";
    const head = `${pad}{"type":"${type}","name":${JSON.stringify(n.name)}`;
    // tree prints no "contents" for a folder it shows nothing in (-d on a folder of files).
    if (n.children === undefined || n.children.length === 0) return `${head}}`;
    const inner = n.children.map((c) => jsonNode(c, depth + 1)).join(",\n");
    return `${head},"contents":[${inner === "" ? "" : `\n${inner}`}\n${pad}]}`;
  };

  for (const operand of operands) {
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    if (entry.kind !== "dir") {
      if (entry.kind === "file" || entry.kind === "device") files++;
      else status = 2;
      if (s.json) json.push(`  {"type":"${entry.kind === "file" ? "file" : "error"}","name":${JSON.stringify(operand)},"error":"error opening dir"}`);
      else io.out.write(`${operand}  [error opening dir]\n`);
      continue;
    }
    const info = io.view.info(entry.path) as EntryInfo;
    const rootEntries = io.view.childrenOf(entry.path)?.length ?? 0;
    const root: Node =
      rootEntries > s.fileLimit
        ? { name: operand, path: entry.path, info, children: [], overLimit: rootEntries }
        : { name: operand, path: entry.path, info, children: readTree(io.view, entry.path, s, 1, io) };
    // tree 2.1 counts a starting folder only when it shows something under it (with -d:
    // subfolders; with -P or -I matching nothing: nothing, so "0 directories").
    if ((root.children?.length ?? 0) > 0 || root.overLimit !== undefined) dirs++;
    count(root.children ?? []);
    if (s.json) {
      json.push(jsonNode(root, 1));
      continue;
    }
    io.out.write(`${meta(root, s, now)}${shownName(root, operand, s)}${limitNote(root)}\n`);
    if (!printNodes(root.children ?? [], "", operand)) break;
  }
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (s.json) {
    const report = s.dirsOnly ? `{"type":"report","directories":${dirs}}` : `{"type":"report","directories":${dirs},"files":${files}}`;
    io.out.write(`[\n${json.join(",\n")}\n,\n  ${report}\n]\n`);
    return status;
  }
  if (s.closedBelow) status = 2;
  if (s.report) {
    io.out.write(
      s.dirsOnly ? `\n${plural(dirs, "directory", "directories")}\n` : `\n${plural(dirs, "directory", "directories")}, ${plural(files, "file", "files")}\n`,
    );
  }
  return status;
}

export const treeCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "tree", help: HELP, run: runTree });
