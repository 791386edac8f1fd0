/** Formatting shared by ls, stat and tree: permission strings, dates (UTC), human sizes. */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `-r--r--r--` / `dr-xr-xr-x` from type and permission bits. */
export function modeString(mode: number): string {
  const type = (mode & 0o170000) === 0o040000 ? "d" : (mode & 0o170000) === 0o020000 ? "c" : "-";
  let s = type;
  for (const shift of [6, 3, 0]) {
    const bits = (mode >> shift) & 7;
    s += `${bits & 4 ? "r" : "-"}${bits & 2 ? "w" : "-"}${bits & 1 ? "x" : "-"}`;
  }
  return s;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/** Half a Gregorian year in ms: GNU's "recent" window for `ls -l` dates. */
const SIX_MONTHS_MS = (31556952 / 2) * 1000;

/**
 * `ls -l`'s date column (UTC): `Nov 22 01:46` for the past six months, `Nov 22  2025` for
 * older or future times.
 */
export function lsDate(mtime: Date, now: Date): string {
  const t = mtime.getTime();
  const recent = t > now.getTime() - SIX_MONTHS_MS && t <= now.getTime();
  const day = String(mtime.getUTCDate()).padStart(2, " ");
  const month = MONTHS[mtime.getUTCMonth()] as string;
  if (recent) return `${month} ${day} ${pad2(mtime.getUTCHours())}:${pad2(mtime.getUTCMinutes())}`;
  return `${month} ${day}  ${mtime.getUTCFullYear()}`;
}

/** `2026-11-22 01:46:26.127000000 +0000` (stat, `ls --full-time`). */
export function fullIsoTime(mtime: Date): string {
  const ms = mtime.getTime();
  const nanos = String((((ms % 1000) + 1000) % 1000) * 1_000_000).padStart(9, "0");
  return `${isoDate(mtime)} ${pad2(mtime.getUTCHours())}:${pad2(mtime.getUTCMinutes())}:${pad2(mtime.getUTCSeconds())}.${nanos} +0000`;
}

export function isoDate(d: Date): string {
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** `ls --time-style=long-iso`: `2026-11-22 01:46`. */
export function longIsoTime(d: Date): string {
  return `${isoDate(d)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

const UNITS = ["K", "M", "G", "T", "P"];

/** A size of 1024 bytes or more in its largest unit below 1024: `[value, index into UNITS]`. */
function scaled(bytes: number): [number, number] {
  let v = bytes;
  let unit = -1;
  do {
    v /= 1024;
    unit++;
  } while (v >= 1024 && unit < UNITS.length - 1);
  return [v, unit];
}

/** GNU `-h` (ls, du, df): powers of 1024, rounded up, one decimal below 10 (`8.0K`, `12K`, `1.2M`). */
export function gnuHumanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  const [v, unit] = scaled(bytes);
  if (v < 10) {
    const tenths = Math.ceil(v * 10 - 1e-9) / 10;
    if (tenths < 10) return `${tenths.toFixed(1)}${UNITS[unit]}`;
    return `10${UNITS[unit]}`;
  }
  const whole = Math.ceil(v - 1e-9);
  if (whole >= 1024 && unit < UNITS.length - 1) return `1.0${UNITS[unit + 1]}`;
  return `${whole}${UNITS[unit]}`;
}

/** tree's `-h`: printf rounding, `%3.1f` below 9.95 else `%3.0f`, right-aligned in 4 columns. */
export function treeHumanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes).padStart(4, " ");
  const [v, unit] = scaled(bytes);
  const text = v < 9.95 ? `${v.toFixed(1)}${UNITS[unit]}` : `${Math.round(v)}${UNITS[unit]}`;
  return text.padStart(4, " ");
}

/** GNU's quoting of a file name in diagnostics: `'name'`, or `"name"` when it holds a `'`. */
export function quoteName(name: string): string {
  if (!name.includes("'")) return `'${name}'`;
  return `"${name.replace(/(["\\$`])/g, "\\$1")}"`;
}

/**
 * coreutils' `quotef`: a file name in a `cmd: NAME: reason` diagnostic, quoted only when the
 * shell would need it (`cat: '/a b': No such file or directory`, `cat: /x.mdx: ...`): a blank,
 * one of ``!"$&()*;<=>?[\^`|'`` or the colon anywhere, `#` or `~` first, `{` or `}` alone.
 * A control character is written `'$'\t''` as bash's `$'...'`.
 */
export function quotef(name: string): string {
  const special = /[ !"$&()*;<=>?[\\^`|':]|^[#~]|^[{}]$/u.test(name) || /\p{Cc}/u.test(name);
  if (!special) return name;
  if (/\p{Cc}/u.test(name)) {
    const parts = name.split(/(\p{Cc}+)/u).filter((part) => part !== "");
    return parts.map((part) => (/^\p{Cc}/u.test(part) ? `$'${[...part].map(controlEscape).join("")}'` : quoteName(part))).join("");
  }
  return quoteName(name);
}

/** A control character inside bash's `$'...'`: `\t`, `\n`, else three octal digits. */
function controlEscape(c: string): string {
  const named: Readonly<Record<string, string>> = { "\t": "\\t", "\n": "\\n", "\r": "\\r", "\v": "\\v", "\f": "\\f", "\b": "\\b", "\x07": "\\a", "\x1b": "\\E" };
  return named[c] ?? `\\${(c.codePointAt(0) as number).toString(8).padStart(3, "0")}`;
}

/** Natural order of names with numbers in them (`ls -v`, `sort -V`, `tree -v`): `v2` < `v10`. */
export function versionCompare(a: string, b: string): number {
  const re = /(\d+)|(\D+)/g;
  const pa = a.match(re) ?? [];
  const pb = b.match(re) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (/^\d/.test(x) && /^\d/.test(y)) {
      const d = Number(x) - Number(y);
      if (d !== 0) return d;
      if (x.length !== y.length) return x.length - y.length;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** A stable inode number per path (FNV-1a), so repeated calls (stat, ls -i, find -ls) agree. */
export function inodeOf(path: string): number {
  let h = 2166136261;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 16777619) >>> 0;
  return (h % 9_000_000) + 1_000_000;
}

const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200B-\u200F\u2060\uFEFF]/u;
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;

/** Terminal columns a name takes (wcwidth: East Asian wide characters 2, combining marks 0). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

/**
 * GNU ls's column layouts (`-C` down the columns, `-x` across), for a line of `lineWidth`
 * columns and tab stops every `tabSize` (0: spaces only): the most columns that fit, each as
 * wide as its widest cell plus two, padded with tabs where a tab reaches the next column.
 */
export function layoutColumns(cells: readonly string[], byColumns: boolean, lineWidth: number, tabSize: number): string {
  const n = cells.length;
  if (n === 0) return "";
  const widths = cells.map(displayWidth);
  const MIN_COLUMN_WIDTH = 3; // one character and two of separation
  const maxCols = Math.max(1, Math.min(n, Math.floor(lineWidth / MIN_COLUMN_WIDTH) || 1));
  let chosen: number[] = [0];
  let cols = 1;
  // As ls.c's calculate_columns: try every column count, keep the largest whose line fits.
  for (let c = maxCols; c >= 1; c--) {
    const rows = Math.ceil(n / c);
    const colWidths = new Array<number>(c).fill(MIN_COLUMN_WIDTH);
    for (let k = 0; k < n; k++) {
      const col = byColumns ? Math.floor(k / rows) : k % c;
      if (col >= c) continue;
      const w = (widths[k] as number) + (col === c - 1 ? 0 : 2);
      if (w > (colWidths[col] as number)) colWidths[col] = w;
    }
    const lineLen = colWidths.reduce((a, b) => a + b, 0);
    if (lineLen < lineWidth || c === 1) {
      chosen = colWidths;
      cols = c;
      break;
    }
  }
  const rows = Math.ceil(n / cols);
  const indent = (from: number, to: number): string => {
    let s = "";
    while (from < to) {
      if (tabSize !== 0 && Math.floor(to / tabSize) > Math.floor((from + 1) / tabSize)) {
        s += "\t";
        from += tabSize - (from % tabSize);
      } else {
        s += " ";
        from += 1;
      }
    }
    return s;
  };
  let out = "";
  for (let r = 0; r < rows; r++) {
    let pos = 0;
    for (let col = 0; col < cols; col++) {
      const k = byColumns ? col * rows + r : r * cols + col;
      if (k >= n) break;
      out += cells[k] as string;
      const next = byColumns ? (col + 1) * rows + r : k + 1;
      if (col === cols - 1 || next >= n || (!byColumns && next >= (r + 1) * cols)) break;
      out += indent(pos + (widths[k] as number), pos + (chosen[col] as number));
      pos += chosen[col] as number;
    }
    out += "\n";
  }
  return out;
}
