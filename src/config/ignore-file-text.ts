import { isUtf8 } from "node:buffer";

/** An ignore file's bytes read as the text of its rules, or why they cannot be. */
export type IgnoreFileText =
  | {
      readonly ok: true;
      readonly text: string;
      /** No rule and no comment: 0 bytes, or only blank lines (`echo > .svcignore`). */
      readonly blank: boolean;
      /** The first line (1-based, as split at LF) that a CR alone splits, if any: git reads a CR
       *  not before an LF as part of the line, so `# notes\rdrafts/` is one comment. */
      readonly loneCrLine?: number;
    }
  | { readonly ok: false; readonly message: string };

/** Byte order marks of the wide encodings, UTF-32 before UTF-16 (`FF FE 00 00` starts with `FF FE`). */
const WIDE_MARKS: readonly { readonly bytes: readonly number[]; readonly encoding: string }[] = [
  { bytes: [0xff, 0xfe, 0x00, 0x00], encoding: "UTF-32" },
  { bytes: [0x00, 0x00, 0xfe, 0xff], encoding: "UTF-32" },
  { bytes: [0xff, 0xfe], encoding: "UTF-16" },
  { bytes: [0xfe, 0xff], encoding: "UTF-16" },
];

const UTF8_BOM = "\uFEFF";

/**
 * Read an ignore file's bytes as gitignore text. Only UTF-8 is read (as git and the hosted
 * platform read it, a leading byte order mark skipped); bytes that are not (a file saved as
 * UTF-16 or UTF-32, Windows Notepad's "Unicode", NULs, a code page's letters) or a byte order
 * mark past the start (a second one, which would begin the first rule) are no rules that can
 * be read: taken as text, each rule would match nothing and every file it excludes would be
 * served (adversary round 63 F1). Refused instead, as an unreadable ignore file is, never
 * decoded as what it seems to be: pages saved so are refused too (security row 197).
 */
export function ignoreFileText(bytes: Buffer): IgnoreFileText {
  const refused = refusedBytes(bytes);
  if (refused !== undefined) return { ok: false, message: refused };
  const text = bytes.toString("utf8");
  const after = text.indexOf(UTF8_BOM, text.startsWith(UTF8_BOM) ? 1 : 0);
  if (after >= 0) {
    const line = lineAt(text, after);
    const where = text.startsWith(UTF8_BOM + UTF8_BOM) ? "it starts with two byte order marks (EF BB BF EF BB BF)" : `line ${line} holds a byte order mark (U+FEFF) past the start of the file`;
    return { ok: false, message: `${where}, which would be read as part of a rule` };
  }
  const rules = text.startsWith(UTF8_BOM) ? text.slice(1) : text;
  const loneCr = /\r(?!\n|$)/.exec(text);
  return { ok: true, text, blank: rules.trim() === "", ...(loneCr !== null ? { loneCrLine: lineAt(text, loneCr.index) } : {}) };
}

/** Why the bytes are no UTF-8 text, or undefined when they are. */
function refusedBytes(bytes: Buffer): string | undefined {
  for (const mark of WIDE_MARKS) {
    if (mark.bytes.every((b, i) => bytes[i] === b)) return `saved as ${mark.encoding}, not UTF-8: it starts with the byte order mark ${mark.bytes.map(hex).join(" ")}`;
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) return `not UTF-8 text: line ${lineOfByte(bytes, nul)} holds a NUL byte, as a file saved as UTF-16 or UTF-32 does`;
  if (isUtf8(bytes)) return undefined;
  return `not UTF-8 text: line ${firstBadLine(bytes)} holds bytes that are not UTF-8, as a file saved as Latin-1 or another code page does`;
}

function hex(b: number): string {
  return b.toString(16).toUpperCase().padStart(2, "0");
}

/** 1-based line (split at LF) of a byte offset. */
function lineOfByte(bytes: Buffer, at: number): number {
  let line = 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < at; i = bytes.indexOf(10, i + 1)) line++;
  return line;
}

/** 1-based line (split at LF) of a UTF-16 offset in a text. */
function lineAt(text: string, at: number): number {
  return text.slice(0, at).split("\n").length;
}

/** The first line (split at LF, a byte UTF-8 never uses inside a character) that is not UTF-8. */
function firstBadLine(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(10, start);
    if (!isUtf8(bytes.subarray(start, end < 0 ? bytes.length : end))) return line;
    if (end < 0) return line;
    start = end + 1;
    line++;
  }
}
