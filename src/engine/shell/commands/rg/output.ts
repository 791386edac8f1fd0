import type { CommandIo } from "../../lib/command.js";
import { type SelectedLine, anyLineMatches, byteOffsets, nextMatch, printWithContext } from "../../lib/line-search.js";
import type { RgSettings } from "./options.js";
import type { RgTarget } from "./target.js";

/** Print one file's matching lines in ripgrep's standard (non-tty) format. */
export function printFile(
  t: RgTarget,
  selected: readonly SelectedLine[],
  s: RgSettings,
  re: RegExp,
  named: boolean,
  io: CommandIo,
  state: { printedGroup: boolean },
): void {
  const { text } = t;
  // Under --crlf what ripgrep adds itself ends in `\r\n`, as after `-o` matches (runRg gave a
  // last line without newline its `\r\n` already).
  const matchEnd = s.crlf && s.only ? "\r\n" : "\n";
  const lineNumbers = s.lineNumber ?? false;
  const offsets = s.byteOffset ? byteOffsets(text) : undefined;
  const prefix = (line: number, isMatch: boolean, start: number, column?: number): string => {
    const sep = isMatch ? ":" : "-";
    let p = "";
    if (named) p += `${t.display}${s.nul ? "\0" : sep}`;
    if (lineNumbers) p += `${line}${sep}`;
    if (s.column && column !== undefined) p += `${column}${sep}`;
    if (offsets !== undefined) p += `${offsets(start)}${sep}`;
    return p;
  };
  const render = (lineText: string): string => {
    let out = s.replace === undefined ? lineText : replaceAll(lineText, re, s.replace);
    if (s.trim) out = out.replace(/^[ \t]+/, "");
    return out;
  };
  const columnOf = (lineText: string): number | undefined => {
    if (!s.column) return undefined;
    re.lastIndex = 0;
    const m = re.exec(lineText);
    return m === null ? 1 : Buffer.byteLength(lineText.slice(0, m.index)) + 1;
  };
  const omitted = (lineText: string, isMatch: boolean): string | undefined => {
    if (s.maxColumns === 0 || Buffer.byteLength(lineText) <= s.maxColumns) return undefined;
    // ripgrep 13's wording; the preview keeps the first NUM characters.
    if (s.maxColumnsPreview) return `${[...lineText].slice(0, s.maxColumns).join("")} [... omitted end of long line]`;
    return isMatch ? "[Omitted long matching line]" : "[Omitted long context line]";
  };

  if (s.only || s.vimgrep) {
    for (const sel of selected) {
      const lineText = text.slice(sel.start, sel.end);
      const found: ReadonlyArray<RegExpExecArray | undefined> = s.invert ? [undefined] : lineMatches(lineText, re).filter((m) => m[0].length > 0);
      for (const m of found) {
        const a = m === undefined ? 0 : m.index;
        let b = m === undefined ? lineText.length : m.index + m[0].length;
        // ripgrep's --crlf takes a `\r` off the end of a match.
        if (s.crlf && s.only && b > a && lineText.charCodeAt(b - 1) === 13) b--;
        const col = Buffer.byteLength(lineText.slice(0, a)) + 1;
        const shown = s.vimgrep && !s.only ? render(lineText) : s.replace === undefined || m === undefined ? lineText.slice(a, b) : expand(m, s.replace);
        if (!io.out.write(`${prefix(sel.line, true, sel.start + a, col)}${omitted(shown, true) ?? shown}${matchEnd}`)) return;
        if (s.vimgrep && !s.only) continue;
      }
    }
    return;
  }
  if (s.before === 0 && s.after === 0) {
    for (const sel of selected) {
      const lineText = text.slice(sel.start, sel.end);
      const shown = omitted(lineText, true) ?? render(lineText);
      if (!io.out.write(`${prefix(sel.line, true, sel.start, columnOf(lineText))}${shown}\n`)) return;
    }
    return;
  }
  const maxed = selected.length >= s.maxCount;
  printWithContext(
    text,
    selected,
    {
      before: s.before,
      after: s.after,
      separator: s.separator,
      // After -m stops, trailing context lines that match are still shown as matches.
      markMatchingContext: maxed && !s.invert ? (line) => anyLineMatches(line, re) : undefined,
      render: (line, isMatch) => omitted(line, isMatch) ?? (isMatch ? render(line) : s.trim ? line.replace(/^[ \t]+/, "") : line),
    },
    (line, isMatch, start) => prefix(line, isMatch, start, isMatch ? columnOf(lineAt(text, start)) : undefined),
    (chunk) => io.out.write(chunk),
    state,
  );
}

function lineAt(text: string, start: number): string {
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? text.length : end);
}

/** Every match in one line, empty ones included, as ripgrep's replacement sees them. */
function lineMatches(lineText: string, re: RegExp): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  while (re.lastIndex <= lineText.length) {
    const m = nextMatch(lineText, re);
    if (m === null) break;
    out.push(m);
    if (m[0].length === 0) re.lastIndex = m.index + ((lineText.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
    else re.lastIndex = m.index + m[0].length;
  }
  return out;
}

/**
 * `-r`: ripgrep's replacement syntax for one match. `$$` is a `$`; `$NAME` takes the longest run
 * of `[0-9A-Za-z_]` (`$1a` is the group named `1a`), `${NAME}` the braced one; digits are a
 * group number, `$0` the whole match. A group that does not exist or did not take part is
 * empty; a `$` starting no reference is kept as is.
 */
function expand(m: RegExpExecArray, replacement: string): string {
  return replacement.replace(/\$(?:(\$)|\{([0-9A-Za-z_]+)\}|([0-9A-Za-z_]+))/g, (_whole, dollar?: string, braced?: string, bare?: string) => {
    if (dollar !== undefined) return "$";
    const ref = (braced ?? bare) as string;
    const value = /^\d+$/.test(ref) ? m[Number(ref)] : m.groups?.[ref];
    return value ?? "";
  });
}

/** `-r` over a whole line: every match replaced. */
function replaceAll(lineText: string, re: RegExp, replacement: string): string {
  let out = "";
  let from = 0;
  for (const m of lineMatches(lineText, re)) {
    out += lineText.slice(from, m.index) + expand(m, replacement);
    from = m.index + m[0].length;
  }
  return out + lineText.slice(from);
}
