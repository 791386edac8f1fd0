import { compareBytes } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO } from "../lib/files.js";
import { fileVersionCompare } from "../lib/file-version.js";
import { readInputs, splitLines } from "../lib/inputs.js";
import { quotef } from "../lib/format.js";
import { compareGeneralNumeric } from "../lib/strtold.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";
import { appendAll } from "../../../arrays.js";
import { STEP_COST } from "../work-budget.js";

/** What one sort call does, read from its command line. */
interface SortSettings {
  /** Ordering options given outside -k: the default for every key, and the whole line's order. */
  global: KeyOptions;
  keySpecs: string[];
  sep: string | undefined;
  unique: boolean;
  stable: boolean;
  check: "" | "c" | "C";
  /** -m: the inputs are each sorted already; interleave them, never reorder within one. */
  merge: boolean;
}

type SortRow = OptionRow<SortSettings, CommandIo>;

/** An ordering option (-n, -r, ...): it also applies to the keys that name none. */
function ordering(key: keyof KeyOptions, short: string, long: string): SortRow {
  return { key, short, long, apply: (s) => void (s.global[key] = true) };
}

/** Stop: the docs shell cannot do what the option asks (exit status 2, as sort's errors). */
function refused(message: (value: string) => string): SortRow["apply"] {
  return (_s, value, io) => {
    io.fail(message(value));
    return 2;
  };
}

/** Every option sort accepts, as GNU coreutils spells it, with what it does to the settings. */
const SORT_OPTIONS: readonly SortRow[] = [
  ordering("b", "b", "ignore-leading-blanks"),
  ordering("d", "d", "dictionary-order"),
  ordering("f", "f", "ignore-case"),
  ordering("g", "g", "general-numeric-sort"),
  ordering("i", "i", "ignore-nonprinting"),
  ordering("M", "M", "month-sort"),
  ordering("h", "h", "human-numeric-sort"),
  ordering("n", "n", "numeric-sort"),
  { key: "R", short: "R", long: "random-sort", apply: refused(() => "--random-sort is not supported in the docs shell (its output would differ on every call)") },
  ordering("r", "r", "reverse"),
  ordering("V", "V", "version-sort"),
  { key: "c", short: "c", long: "check", apply: (s) => void (s.check = "c") },
  { key: "C", short: "C", apply: (s) => void (s.check = "C") },
  { key: "k", short: "k", long: "key", value: true, apply: (s, v) => void s.keySpecs.push(v) },
  { key: "m", short: "m", long: "merge", apply: (s) => void (s.merge = true) },
  { key: "o", short: "o", long: "output", value: true, apply: refused((v) => `open failed: ${v}: ${ERRNO.EROFS}`) },
  { key: "s", short: "s", long: "stable", apply: (s) => void (s.stable = true) },
  {
    key: "t",
    short: "t",
    long: "field-separator",
    value: true,
    apply: (s, v, io) => {
      if (v.length !== 1 && v !== "\\0") {
        io.fail(`multi-character tab \u2018${v}\u2019`);
        return 2;
      }
      s.sep = v === "\\0" ? "\0" : v;
      return undefined;
    },
  },
  { key: "u", short: "u", long: "unique", apply: (s) => void (s.unique = true) },
  // No effect here: NUL-terminated lines are not docs, and memory, temporary files and threads
  // are the shell's to manage.
  { key: "z", short: "z", long: "zero-terminated" },
  { key: "S", short: "S", long: "buffer-size", value: true },
  { key: "T", short: "T", long: "temporary-directory", value: true },
  { key: "parallel", long: "parallel", value: true },
];

const HELP = `Usage: sort [OPTION]... [FILE]...
Write sorted concatenation of all FILE(s) to standard output, in byte order (LC_ALL=C.UTF-8).

  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -r, --reverse               reverse the result of comparisons
  -V, --version-sort          natural sort of (version) numbers within text
  -c, --check                 check for sorted input; do not sort
  -k, --key=KEYDEF            sort via a key; KEYDEF gives location and type
  -m, --merge                 merge already sorted files; do not sort
  -s, --stable                stabilize sort by disabling last-resort comparison
  -t, --field-separator=SEP   use SEP instead of non-blank to blank transition
  -u, --unique                output only the first of an equal run
`;

interface KeyOptions {
  b: boolean;
  d: boolean;
  f: boolean;
  g: boolean;
  i: boolean;
  M: boolean;
  h: boolean;
  n: boolean;
  r: boolean;
  V: boolean;
}

interface Key {
  startField: number;
  startChar: number;
  endField: number; // 0 = end of line
  endChar: number; // 0 = end of field
  opts: KeyOptions;
  /** Options given on the key itself (otherwise the global ones apply). */
  own: boolean;
  bStart: boolean;
  bEnd: boolean;
}

const BLANK = /[ \t]/;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** Field boundaries: with -t, split on SEP; otherwise a field is leading blanks plus non-blanks. */
function fieldStarts(line: string, sep: string | undefined): Array<[number, number]> {
  const fields: Array<[number, number]> = [];
  if (sep !== undefined) {
    let start = 0;
    for (;;) {
      const i = line.indexOf(sep, start);
      if (i === -1) {
        fields.push([start, line.length]);
        return fields;
      }
      fields.push([start, i]);
      start = i + sep.length;
    }
  }
  let i = 0;
  while (i < line.length) {
    const start = i;
    while (i < line.length && BLANK.test(line[i] as string)) i++;
    while (i < line.length && !BLANK.test(line[i] as string)) i++;
    fields.push([start, i]);
  }
  return fields;
}

function keyText(line: string, key: Key, sep: string | undefined): string {
  const fields = fieldStarts(line, sep);
  const sf = fields[key.startField - 1];
  if (sf === undefined) return "";
  let start = sf[0];
  if (key.bStart) while (start < sf[1] && BLANK.test(line[start] as string)) start++;
  start = Math.min(start + key.startChar - 1, sf[1] + (sep === undefined ? 0 : 0));
  let end: number;
  if (key.endField === 0) end = line.length;
  else {
    const ef = fields[key.endField - 1];
    if (ef === undefined) end = line.length;
    else if (key.endChar === 0) end = ef[1];
    else {
      let s = ef[0];
      if (key.bEnd) while (s < ef[1] && BLANK.test(line[s] as string)) s++;
      end = Math.min(s + key.endChar, ef[1]);
    }
  }
  return end <= start ? "" : line.slice(start, end);
}

/** GNU `-n`: leading blanks, optional minus, digits with an optional fraction; else 0. */
function numericValue(s: string): number {
  const m = /^[ \t]*(-?)(\d*)(?:\.(\d*))?/.exec(s);
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return 0;
  const v = Number(`${m[2] || "0"}.${m[3] ?? ""}`);
  return m[1] === "-" ? -v : v;
}

function humanValue(s: string): number {
  const m = /^[ \t]*(-?\d*(?:\.\d*)?)([KMGTPEZY]?)/.exec(s);
  if (m === null) return 0;
  const n = Number(m[1]) || 0;
  const power = " KMGTPEZY".indexOf(m[2] || " ");
  return Math.sign(n) * (power * 1e6 + Math.abs(n));
}

function compareKey(a: string, b: string, o: KeyOptions): number {
  let x = a;
  let y = b;
  if (o.b) {
    x = x.replace(/^[ \t]+/, "");
    y = y.replace(/^[ \t]+/, "");
  }
  let r: number;
  if (o.n) r = Math.sign(numericValue(x) - numericValue(y));
  else if (o.g) r = compareGeneralNumeric(x, y);
  else if (o.h) r = Math.sign(humanValue(x) - humanValue(y));
  else if (o.M) r = MONTHS.indexOf(x.trim().slice(0, 3).toUpperCase()) - MONTHS.indexOf(y.trim().slice(0, 3).toUpperCase());
  else if (o.V) r = Math.sign(fileVersionCompare(x, y));
  else {
    if (o.d) {
      x = x.replace(/[^\p{L}\p{N} \t]/gu, "");
      y = y.replace(/[^\p{L}\p{N} \t]/gu, "");
    }
    if (o.i) {
      x = x.replace(/\p{C}/gu, "");
      y = y.replace(/\p{C}/gu, "");
    }
    if (o.f) {
      x = x.toUpperCase();
      y = y.toUpperCase();
    }
    r = compareBytes(x, y);
  }
  return o.r ? -r : r;
}

function parseKey(spec: string, global: KeyOptions): Key | undefined {
  const m = /^(\d+)(?:\.(\d+))?([bdfgiMhnrV]*)(?:,(\d+)(?:\.(\d+))?([bdfgiMhnrV]*))?$/.exec(spec);
  if (m === null || Number(m[1]) === 0) return undefined;
  const letters = `${m[3] ?? ""}${m[6] ?? ""}`;
  const opts: KeyOptions = { b: false, d: false, f: false, g: false, i: false, M: false, h: false, n: false, r: false, V: false };
  for (const c of letters) if (c !== "b") opts[c as keyof KeyOptions] = true;
  const own = letters.replace(/b/g, "") !== "";
  return {
    startField: Number(m[1]),
    startChar: m[2] === undefined ? 1 : Number(m[2]),
    endField: m[4] === undefined ? 0 : Number(m[4]),
    endChar: m[5] === undefined ? 0 : Number(m[5]),
    opts: own ? opts : { ...global },
    own,
    bStart: (m[3] ?? "").includes("b") || (!own && global.b),
    bEnd: (m[6] ?? "").includes("b") || (!own && global.b),
  };
}

/**
 * GNU's `sort -m`: repeatedly take the least of the inputs' first lines (the earliest input on a
 * tie). Inputs that are not sorted stay in their own order, as with GNU sort (`c a` merged with
 * `b` is `b c a`), and `-c` is not applied.
 */
function mergeRuns(runs: readonly (readonly string[])[], compare: (a: string, b: string) => number): string[] {
  const at = runs.map(() => 0);
  const out: string[] = [];
  for (;;) {
    let best = -1;
    for (let r = 0; r < runs.length; r++) {
      const line = (runs[r] as readonly string[])[at[r] as number];
      if (line === undefined) continue;
      if (best < 0 || compare(line, (runs[best] as readonly string[])[at[best] as number] as string) < 0) best = r;
    }
    if (best < 0) return out;
    out.push((runs[best] as readonly string[])[at[best] as number] as string);
    at[best] = (at[best] as number) + 1;
  }
}

function runSort(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, SORT_OPTIONS, { abbreviations: true });
  const settings: SortSettings = {
    global: { b: false, d: false, f: false, g: false, i: false, M: false, h: false, n: false, r: false, V: false },
    keySpecs: [],
    sep: undefined,
    unique: false,
    stable: false,
    check: "",
    merge: false,
  };
  const stopped = applyOptions(parsed, SORT_OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  const { global, keySpecs, sep, unique, stable, check } = settings;
  const keys: Key[] = [];
  for (const spec of keySpecs) {
    const key = parseKey(spec, global);
    if (key === undefined) {
      io.fail(`invalid number at field start: invalid count at start of \u2018${spec}\u2019`);
      return 2;
    }
    keys.push(key);
  }
  const lines: string[] = [];
  const runs: string[][] = [];
  for (const input of readInputs(io, parsed.operands)) {
    if (!input.ok) {
      io.fail(input.isDir ? `read failed: ${quotef(input.name)}: ${input.reason}` : `cannot read: ${quotef(input.name)}: ${input.reason}`);
      return 2;
    }
    const own = splitLines(input.text);
    runs.push(own);
    appendAll(lines, own);
  }
  const compare = (a: string, b: string): number => {
    // Sorting never yields: each comparison is a step of the call's work budget, which also
    // checks the time limit and the caller's cancellation as it counts.
    io.step(STEP_COST.sort);
    if (keys.length === 0) {
      const r = compareKey(a, b, global);
      if (r !== 0 || stable || unique) return r;
    } else {
      for (const key of keys) {
        const r = compareKey(keyText(a, key, sep), keyText(b, key, sep), key.opts);
        if (r !== 0) return r;
      }
      if (stable || unique) return 0;
    }
    // Last resort: whole lines in byte order (reversed with a global -r).
    const r = compareBytes(a, b);
    return global.r ? -r : r;
  };
  if (check !== "") {
    for (let i = 1; i < lines.length; i++) {
      const r = compare(lines[i - 1] as string, lines[i] as string);
      if (r > 0 || (unique && r === 0)) {
        if (check === "c") io.fail(`${parsed.operands[0] ?? "-"}:${i + 1}: disorder: ${lines[i]}`);
        return 1;
      }
    }
    return 0;
  }
  io.checkTime();
  const sorted = settings.merge ? mergeRuns(runs, compare) : lines.map((line, index) => ({ line, index })).sort((x, y) => compare(x.line, y.line) || x.index - y.index).map((x) => x.line);
  const out: string[] = [];
  let prev: string | undefined;
  for (const line of sorted) {
    if (unique && prev !== undefined && compare(prev, line) === 0) continue;
    out.push(line);
    prev = line;
  }
  if (out.length > 0) io.out.write(`${out.join("\n")}\n`);
  return 0;
}

export const sortCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "sort", help: HELP, run: runSort, usageExitCode: 2 });
