import type { OptionRow } from "./options.js";

/** The settings grep and rg share: what a line match is and how a printed line is prefixed. */
export interface LineSearchFlags {
  invert: boolean;
  word: boolean;
  line: boolean;
  only: boolean;
  byteOffset: boolean;
  withFilename: boolean | undefined;
  lineNumber: boolean | undefined;
}

/** The patterns of a pattern file (`-f`): one per line, none for an empty file. */
export function patternLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** Options spelt and meaning the same in GNU grep and ripgrep; each command adds its own rows. */
export const LINE_SEARCH_ROWS: readonly OptionRow<LineSearchFlags>[] = [
  { key: "v", short: "v", long: "invert-match", apply: (s) => void (s.invert = true) },
  { key: "w", short: "w", long: "word-regexp", apply: (s) => void (s.word = true) },
  { key: "x", short: "x", long: "line-regexp", apply: (s) => void (s.line = true) },
  { key: "o", short: "o", long: "only-matching", apply: (s) => void (s.only = true) },
  { key: "b", short: "b", long: "byte-offset", apply: (s) => void (s.byteOffset = true) },
  { key: "H", short: "H", long: "with-filename", apply: (s) => void (s.withFilename = true) },
  { key: "n", short: "n", long: "line-number", apply: (s) => void (s.lineNumber = true) },
];
