import type { Command, CommandContext } from "just-bash";
import type { SiteView } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, lookup } from "../lib/files.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** How one diff call compares and reports, read from its command line. */
interface DiffSettings {
  /** Lines of unified context; undefined for GNU's normal format. */
  context: number | undefined;
  brief: boolean;
  reportSame: boolean;
  ignoreCase: boolean;
  whitespace: "all" | "change" | undefined;
}

/** Every option diff accepts here, as GNU diffutils spells it, with what it does to the settings. */
const DIFF_OPTIONS: readonly OptionRow<DiffSettings, CommandIo>[] = [
  { key: "u", short: "u", apply: (s) => void (s.context = 3) },
  {
    key: "U",
    short: "U",
    long: "unified",
    value: true,
    apply: (s, v, io) => {
      if (!/^\d+$/.test(v)) {
        io.fail(`invalid context length '${v}'`);
        io.out.error("Try 'diff --help' for more information.\n");
        return 2;
      }
      s.context = Number(v);
      return undefined;
    },
  },
  { key: "q", short: "q", long: "brief", apply: (s) => void (s.brief = true) },
  { key: "s", short: "s", long: "report-identical-files", apply: (s) => void (s.reportSame = true) },
  { key: "i", short: "i", long: "ignore-case", apply: (s) => void (s.ignoreCase = true) },
  { key: "w", short: "w", long: "ignore-all-space", apply: (s) => void (s.whitespace = "all") },
  { key: "b", short: "b", long: "ignore-space-change", apply: (s) => void (s.whitespace ??= "change") },
  // Text is all there is; no colour, no links.
  { key: "a", short: "a", long: "text" },
  { key: "noop", long: ["color", "no-dereference"] },
];

const HELP = `Usage: diff [OPTION]... FILE1 FILE2
Compare two files line by line (GNU diffutils compatible; FILE may be - for standard input).
Without an option, the output is in GNU's normal format (NaR, NcR, NdR with < and > lines).

  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -i, --ignore-case             ignore case differences in file contents
  -w, --ignore-all-space        ignore all white space
  -b, --ignore-space-change     ignore changes in the amount of white space

Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`;

interface Side {
  readonly name: string;
  readonly lines: readonly string[];
  /** The last line has no newline. */
  readonly noFinalNewline: boolean;
  readonly mtime: Date;
}

/** Where `diag` splits a comparison, and whether each half must still be searched for a minimal script. */
type Split = [xmid: number, ymid: number, loMinimal: boolean, hiMinimal: boolean];

/**
 * GNU diff's `too_expensive` (analyze.c): the edit cost past which one split gives up searching
 * and takes its best diagonal so far. About the square root of the lines compared, at least 4096.
 */
function tooExpensive(lines: number): number {
  let cost = 1;
  for (let diags = lines + 3; diags !== 0; diags = Math.floor(diags / 4)) cost *= 2;
  return Math.max(4096, cost);
}

/**
 * GNU diff's compareseq/diag (diffseq.h): Myers' linear-space divide and conquer, finding the
 * middle snake from both ends, with GNU's order of search, so that among equally short scripts
 * the same lines pair up as with GNU diff. Marks changed lines (padded: line p at p + 1).
 *
 * Myers' search costs (lines x differences): two 100,000-line files with nothing in common took
 * about a minute (adversary, 2026-11-29: sorted against reverse-sorted pages). As GNU diff does
 * without `--minimal`, a split whose search passes `tooExpensive` takes the diagonal that got
 * furthest, so the cost stays near lines x sqrt(lines) and the output is GNU's. `check` is
 * called as the search goes (the call's time limit and its caller's cancellation).
 */
function changedLines(a: readonly number[], b: readonly number[], check: () => void): { ca: Uint8Array; cb: Uint8Array } {
  const n = a.length;
  const m = b.length;
  const ca = new Uint8Array(n + 2);
  const cb = new Uint8Array(m + 2);
  const off = m + 1;
  const fd = new Float64Array(n + m + 3);
  const bd = new Float64Array(n + m + 3);
  const costLimit = tooExpensive(n + m);
  const diag = (xoff: number, xlim: number, yoff: number, ylim: number, findMinimal: boolean): Split => {
    const dmin = xoff - ylim;
    const dmax = xlim - yoff;
    const fmid = xoff - yoff;
    const bmid = xlim - ylim;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    const odd = ((fmid - bmid) & 1) !== 0;
    fd[off + fmid] = xoff;
    bd[off + bmid] = xlim;
    for (let c = 1; ; c++) {
      if ((c & 63) === 0) check();
      if (fmin > dmin) fd[off + --fmin - 1] = -1;
      else ++fmin;
      if (fmax < dmax) fd[off + ++fmax + 1] = -1;
      else --fmax;
      for (let d = fmax; d >= fmin; d -= 2) {
        const tlo = fd[off + d - 1] as number;
        const thi = fd[off + d + 1] as number;
        let x = tlo < thi ? thi : tlo + 1;
        let y = x - d;
        while (x < xlim && y < ylim && a[x] === b[y]) {
          x++;
          y++;
        }
        fd[off + d] = x;
        if (odd && bmin <= d && d <= bmax && (bd[off + d] as number) <= x) return [x, y, true, true];
      }
      if (bmin > dmin) bd[off + --bmin - 1] = Number.MAX_SAFE_INTEGER;
      else ++bmin;
      if (bmax < dmax) bd[off + ++bmax + 1] = Number.MAX_SAFE_INTEGER;
      else --bmax;
      for (let d = bmax; d >= bmin; d -= 2) {
        const tlo = bd[off + d - 1] as number;
        const thi = bd[off + d + 1] as number;
        let x = tlo < thi ? tlo : thi - 1;
        let y = x - d;
        while (xoff < x && yoff < y && a[x - 1] === b[y - 1]) {
          x--;
          y--;
        }
        bd[off + d] = x;
        if (!odd && fmin <= d && d <= fmax && x <= (fd[off + d] as number)) return [x, y, true, true];
      }
      if (findMinimal || c < costLimit) continue;
      // Gone well beyond the call of duty (GNU's words): take the forward diagonal that got
      // furthest (largest x + y) or the backward one (smallest), whichever went further.
      let fxybest = -1;
      let fxbest = 0;
      for (let d = fmax; d >= fmin; d -= 2) {
        let x = Math.min(fd[off + d] as number, xlim);
        let y = x - d;
        if (ylim < y) {
          x = ylim + d;
          y = ylim;
        }
        if (fxybest < x + y) {
          fxybest = x + y;
          fxbest = x;
        }
      }
      let bxybest = Number.MAX_SAFE_INTEGER;
      let bxbest = 0;
      for (let d = bmax; d >= bmin; d -= 2) {
        let x = Math.max(xoff, bd[off + d] as number);
        let y = x - d;
        if (y < yoff) {
          x = yoff + d;
          y = yoff;
        }
        if (x + y < bxybest) {
          bxybest = x + y;
          bxbest = x;
        }
      }
      if (xlim + ylim - bxybest < fxybest - (xoff + yoff)) return [fxbest, fxybest - fxbest, true, false];
      return [bxbest, bxybest - bxbest, false, true];
    }
  };
  // An explicit stack instead of recursion: a long file must not overflow the call stack.
  const stack: Array<[number, number, number, number, boolean]> = [[0, n, 0, m, false]];
  while (stack.length > 0) {
    check();
    const split = stack.pop() as [number, number, number, number, boolean];
    let [xoff, xlim, yoff, ylim] = split;
    const minimal = split[4];
    while (xoff < xlim && yoff < ylim && a[xoff] === b[yoff]) {
      xoff++;
      yoff++;
    }
    while (xoff < xlim && yoff < ylim && a[xlim - 1] === b[ylim - 1]) {
      xlim--;
      ylim--;
    }
    if (xoff === xlim) while (yoff < ylim) cb[1 + yoff++] = 1;
    else if (yoff === ylim) while (xoff < xlim) ca[1 + xoff++] = 1;
    else {
      const [xmid, ymid, loMinimal, hiMinimal] = diag(xoff, xlim, yoff, ylim, minimal);
      // The low half first, as GNU recurses (the marks do not depend on the order).
      stack.push([xmid, xlim, ymid, ylim, hiMinimal], [xoff, xmid, yoff, ymid, loMinimal]);
    }
  }
  return { ca, cb };
}

/**
 * GNU diff's discard_confusing_lines (analyze.c): a line that occurs nowhere in the other file
 * is certainly changed, and one that occurs there very often (blank lines, code fences) is left
 * out of the matching when it sits inside a run of such lines, so that it does not pair up
 * unrelated regions. Returns 0 (keep), 1 (changed for sure) per line.
 */
function discards(keys: readonly number[], otherCounts: ReadonlyMap<number, number>): Uint8Array {
  const end = keys.length;
  const d = new Uint8Array(end);
  let many = 5;
  let tem = Math.floor(end / 64);
  while ((tem >>= 2) > 0) many *= 2;
  for (let i = 0; i < end; i++) {
    const nmatch = otherCounts.get(keys[i] as number) ?? 0;
    if (nmatch === 0) d[i] = 1;
    else if (nmatch > many) d[i] = 2;
  }
  for (let i = 0; i < end; i++) {
    if (d[i] === 2) d[i] = 0;
    else if (d[i] !== 0) {
      let j: number;
      let provisional = 0;
      for (j = i; j < end; j++) {
        if (d[j] === 0) break;
        if (d[j] === 2) provisional++;
      }
      while (j > i && d[j - 1] === 2) {
        d[--j] = 0;
        provisional--;
      }
      const length = j - i;
      if (provisional * 4 > length) {
        while (j > i) if (d[--j] === 2) d[j] = 0;
      } else {
        let minimum = 1;
        let t = length >> 2;
        while (0 < (t >>= 2)) minimum <<= 1;
        minimum++;
        let consec = 0;
        for (j = 0; j < length; j++) {
          if (d[i + j] !== 2) consec = 0;
          else if (minimum === ++consec) j -= consec;
          else if (minimum < consec) d[i + j] = 0;
        }
        consec = 0;
        for (j = 0; j < length; j++) {
          if (j >= 8 && d[i + j] === 1) break;
          if (d[i + j] === 2) {
            consec = 0;
            d[i + j] = 0;
          } else if (d[i + j] === 0) consec = 0;
          else consec++;
          if (consec === 3) break;
        }
        i += length - 1;
        consec = 0;
        for (j = 0; j < length; j++) {
          if (j >= 8 && d[i - j] === 1) break;
          if (d[i - j] === 2) {
            consec = 0;
            d[i - j] = 0;
          } else if (d[i - j] === 0) consec = 0;
          else consec++;
          if (consec === 3) break;
        }
      }
    }
  }
  for (let i = 0; i < end; i++) if (d[i] !== 0) d[i] = 1;
  return d;
}

/** The changed lines of both sides: discard as GNU does, match the rest, map back. */
function compare(ka: readonly number[], kb: readonly number[], check: () => void): { ca: Uint8Array; cb: Uint8Array } {
  const count = (keys: readonly number[]) => {
    const m = new Map<number, number>();
    for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
    return m;
  };
  const da = discards(ka, count(kb));
  const db = discards(kb, count(ka));
  const ia: number[] = [];
  const ib: number[] = [];
  ka.forEach((_, i) => da[i] === 0 && ia.push(i));
  kb.forEach((_, j) => db[j] === 0 && ib.push(j));
  const inner = changedLines(
    ia.map((i) => ka[i] as number),
    ib.map((j) => kb[j] as number),
    check,
  );
  const ca = new Uint8Array(ka.length + 2);
  const cb = new Uint8Array(kb.length + 2);
  ka.forEach((_, i) => da[i] === 1 && (ca[i + 1] = 1));
  kb.forEach((_, j) => db[j] === 1 && (cb[j + 1] = 1));
  ia.forEach((i, k) => inner.ca[k + 1] === 1 && (ca[i + 1] = 1));
  ib.forEach((j, k) => inner.cb[k + 1] === 1 && (cb[j + 1] = 1));
  return { ca, cb };
}

/**
 * GNU diff's shift_boundaries (analyze.c): slide each run of changed lines down as far as
 * equal lines allow, or back to where it lines up with a change in the other file, so that
 * the output does not depend on which of several minimal scripts was found.
 */
function shiftBoundaries(changed: Uint8Array, other: Uint8Array, keys: readonly number[]): void {
  // Arrays are padded: index p stands for line p - 1; changed[0] and changed[n + 1] stay 0.
  const n = keys.length;
  const eq = (p: number, q: number) => keys[p - 1] === keys[q - 1];
  let i = 1;
  let j = 1;
  const end = n + 1;
  for (;;) {
    while (i < end && changed[i] === 0) {
      while (other[j++] === 1);
      i++;
    }
    if (i === end) break;
    let start = i;
    while (changed[++i] === 1);
    while (other[j] === 1) j++;
    let runlength: number;
    let corresponding: number;
    do {
      runlength = i - start;
      while (start > 1 && eq(start - 1, i - 1)) {
        changed[--start] = 1;
        changed[--i] = 0;
        while (changed[start - 1] === 1) start--;
        while (other[--j] === 1);
      }
      corresponding = other[j - 1] === 1 ? i : end;
      while (i !== end && eq(start, i)) {
        changed[start++] = 0;
        changed[i++] = 1;
        while (changed[i] === 1) i++;
        while (other[++j] === 1) corresponding = i;
      }
    } while (runlength !== i - start);
    while (corresponding < i) {
      changed[--start] = 1;
      changed[--i] = 0;
      while (other[--j] === 1);
    }
  }
}

/** One change: lines [a, a + delA) of the first file replaced by [b, b + insB) of the second (0-based). */
interface Change {
  readonly a: number;
  readonly delA: number;
  readonly b: number;
  readonly insB: number;
}

function changesOf(ca: Uint8Array, cb: Uint8Array, n: number, m: number): Change[] {
  const out: Change[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (ca[i + 1] !== 1 && cb[j + 1] !== 1) {
      i++;
      j++;
      continue;
    }
    const a = i;
    const b = j;
    while (i < n && ca[i + 1] === 1) i++;
    while (j < m && cb[j + 1] === 1) j++;
    out.push({ a, delA: i - a, b, insB: j - b });
  }
  return out;
}

const range = (first: number, count: number) => (count <= 1 ? String(first + (count === 0 ? 0 : 1)) : `${first + 1},${first + count}`);

function lineOut(side: Side, index: number, mark: string): string {
  const last = index === side.lines.length - 1 && side.noFinalNewline;
  return `${mark}${side.lines[index] ?? ""}\n${last ? "\\ No newline at end of file\n" : ""}`;
}

function normalFormat(x: Side, y: Side, changes: readonly Change[]): string {
  let out = "";
  for (const c of changes) {
    const op = c.delA === 0 ? "a" : c.insB === 0 ? "d" : "c";
    const left = c.delA === 0 ? String(c.a) : range(c.a, c.delA);
    const right = c.insB === 0 ? String(c.b) : range(c.b, c.insB);
    out += `${left}${op}${right}\n`;
    for (let k = 0; k < c.delA; k++) out += lineOut(x, c.a + k, "< ");
    if (op === "c") out += "---\n";
    for (let k = 0; k < c.insB; k++) out += lineOut(y, c.b + k, "> ");
  }
  return out;
}

const pad = (v: number, w = 2) => String(v).padStart(w, "0");

/** diff's file time: `2026-11-22 04:50:33.241000000 +0000` (UTC). */
function fileTime(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000000 +0000`;
}

function unifiedRange(first: number, count: number): string {
  if (count === 0) return `${first},0`;
  if (count === 1) return String(first + 1);
  return `${first + 1},${count}`;
}

function unifiedFormat(x: Side, y: Side, changes: readonly Change[], context: number): string {
  let out = `--- ${x.name}\t${fileTime(x.mtime)}\n+++ ${y.name}\t${fileTime(y.mtime)}\n`;
  let k = 0;
  while (k < changes.length) {
    // Changes closer than twice the context share a hunk.
    let last = k;
    while (last + 1 < changes.length) {
      const cur = changes[last] as Change;
      const next = changes[last + 1] as Change;
      if (next.a - (cur.a + cur.delA) > 2 * context) break;
      last++;
    }
    const first = changes[k] as Change;
    const final = changes[last] as Change;
    const aStart = Math.max(0, first.a - context);
    const aEnd = Math.min(x.lines.length, final.a + final.delA + context);
    const bStart = first.b - (first.a - aStart);
    const bEnd = final.b + final.insB + (aEnd - (final.a + final.delA));
    out += `@@ -${unifiedRange(aStart, aEnd - aStart)} +${unifiedRange(bStart, bEnd - bStart)} @@\n`;
    let i = aStart;
    for (let c = k; c <= last; c++) {
      const ch = changes[c] as Change;
      for (; i < ch.a; i++) out += lineOut(x, i, " ");
      for (let d = 0; d < ch.delA; d++) out += lineOut(x, ch.a + d, "-");
      for (let d = 0; d < ch.insB; d++) out += lineOut(y, ch.b + d, "+");
      i = ch.a + ch.delA;
    }
    for (; i < aEnd; i++) out += lineOut(x, i, " ");
    k = last + 1;
  }
  return out;
}

function readSide(io: CommandIo, operand: string): Side | string | "dir" {
  if (operand === "-") {
    const text = io.stdin();
    return sideOf(operand, text, new Date());
  }
  const entry = lookup(io.view, io.cwd, operand, io.piped);
  if (entry.kind === "dir") return "dir";
  if (entry.kind === "device") return sideOf(operand, "", new Date(0));
  if (entry.kind !== "file") return `${operand}: ${entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT}`;
  return sideOf(operand, entry.text, io.view.info(entry.path)?.mtime ?? new Date(0));
}

function sideOf(name: string, text: string, mtime: Date): Side {
  const lines = text === "" ? [] : text.split("\n");
  const noFinalNewline = text !== "" && !text.endsWith("\n");
  if (!noFinalNewline && lines.length > 0) lines.pop();
  return { name, lines, noFinalNewline, mtime };
}

async function runDiff(args: string[], io: CommandIo, delegate: () => Promise<number>): Promise<number> {
  const parsed = parseOptions(args, DIFF_OPTIONS, { abbreviations: true });
  const settings: DiffSettings = { context: undefined, brief: false, reportSame: false, ignoreCase: false, whitespace: undefined };
  const stopped = applyOptions(parsed, DIFF_OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  const { context, brief, reportSame, ignoreCase, whitespace } = settings;
  if (parsed.operands.length !== 2) {
    io.fail(parsed.operands.length < 2 ? `missing operand after '${parsed.operands[0] ?? "diff"}'` : `extra operand '${parsed.operands[2] ?? ""}'`);
    io.out.error("diff: Try 'diff --help' for more information.\n");
    return 2;
  }
  const [p, q] = parsed.operands as [string, string];
  const x = readSide(io, p);
  const y = readSide(io, q);
  // Folders (diff -r and friends) are left to just-bash's diff.
  if (x === "dir" || y === "dir") return delegate();
  let trouble = false;
  for (const s of [x, y]) {
    if (typeof s === "string") {
      io.fail(s);
      trouble = true;
    }
  }
  if (trouble || typeof x === "string" || typeof y === "string") return 2;
  // Lines compare by key: the same key for lines equal under -i/-w/-b.
  const keyOf = new Map<string, number>();
  const normalise = (line: string) => {
    let s = ignoreCase ? line.toLowerCase() : line;
    if (whitespace === "all") s = s.replace(/[ \t\v\f\r]+/g, "");
    else if (whitespace === "change") s = s.replace(/[ \t\v\f\r]+/g, " ").replace(/ $/, "");
    return s;
  };
  const keys = (side: Side) =>
    side.lines.map((line, k) => {
      // A last line without newline differs from the same text with one.
      const text = `${normalise(line)}${k === side.lines.length - 1 && side.noFinalNewline ? "\0" : ""}`;
      let id = keyOf.get(text);
      if (id === undefined) {
        id = keyOf.size;
        keyOf.set(text, id);
      }
      return id;
    });
  const ka = keys(x);
  const kb = keys(y);
  const { ca, cb } = compare(ka, kb, () => io.checkTime());
  shiftBoundaries(ca, cb, ka);
  shiftBoundaries(cb, ca, kb);
  const changes = changesOf(ca, cb, ka.length, kb.length);
  if (changes.length === 0) {
    if (reportSame) io.out.write(`Files ${p} and ${q} are identical\n`);
    return 0;
  }
  if (brief) {
    io.out.write(`Files ${p} and ${q} differ\n`);
    return 1;
  }
  io.out.write(context === undefined ? normalFormat(x, y, changes) : unifiedFormat(x, y, changes, context));
  return 1;
}

/** diff: ours for two files (GNU's normal and unified formats); folders go to just-bash's. */
export const diffCommand: ShellCommandFactory = (view: SiteView): Command => {
  let delegateCtx: CommandContext | undefined;
  let delegateArgs: string[] = [];
  const inner = docsCommand(view, {
    name: "diff",
    help: HELP,
    usageExitCode: 2,
    run: (args, io) =>
      runDiff(args, io, async () => {
        const ctx = delegateCtx;
        if (ctx?.origCommand === undefined) {
          io.fail("comparing folders is not supported by this docs shell");
          return 2;
        }
        const r = await ctx.origCommand(delegateArgs);
        io.out.write(r.stdout);
        if (r.stderr !== "") io.out.error(r.stderr);
        return r.exitCode;
      }),
  });
  return {
    name: "diff",
    async execute(args, ctx) {
      delegateCtx = ctx;
      delegateArgs = args;
      return inner.execute(args, ctx);
    },
  };
};
