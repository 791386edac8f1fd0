import type { CommandIo } from "../../lib/command.js";
import { type SelectedLine, anyLineMatches, byteOffsets, matchesInLine, printWithContext } from "../../lib/line-search.js";
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
      const spans = s.invert ? [[0, lineText.length] as [number, number]] : matchesInLine(lineText, re);
      for (const [a, b] of spans) {
        const col = Buffer.byteLength(lineText.slice(0, a)) + 1;
        const shown = s.vimgrep && !s.only ? render(lineText) : s.replace === undefined ? lineText.slice(a, b) : replaceAll(lineText.slice(a, b), re, s.replace);
        if (!io.out.write(`${prefix(sel.line, true, sel.start + a, col)}${omitted(shown, true) ?? shown}\n`)) return;
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

/** `-r`: ripgrep's replacement syntax (`$1`, `${1}`, `${name}`, `$$`) applied to every match. */
function replaceAll(lineText: string, re: RegExp, replacement: string): string {
  const js = replacement.replace(/\$(\$|\{(\w+)\}|(\d+)|([A-Za-z_]\w*))/g, (_m, all: string, braced?: string, num?: string, name?: string) => {
    if (all === "$") return "$$";
    const ref = braced ?? num ?? name ?? "";
    return /^\d+$/.test(ref) ? `$${ref}` : `$<${ref}>`;
  });
  re.lastIndex = 0;
  return lineText.replace(re, js);
}
