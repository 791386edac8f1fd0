import { byteLengthOfText, bytesOfText, textFromBytes } from "./byte-text.js";

/** Counts as head and tail read them: `10`, `-10`, `+10`, with GNU's multiplier suffixes. */

const SUFFIXES: Readonly<Record<string, number>> = {
  b: 512,
  K: 1024,
  KiB: 1024,
  kB: 1000,
  M: 1024 ** 2,
  MiB: 1024 ** 2,
  MB: 1000 ** 2,
  G: 1024 ** 3,
  GiB: 1024 ** 3,
  GB: 1000 ** 3,
};

export interface Count {
  readonly value: number;
  /** Written with a leading `-` (head: all but the last N) or `+` (tail: from line N). */
  readonly sign: "" | "-" | "+";
}

/** Parse a count, or undefined when GNU would reject it. */
export function parseCount(text: string): Count | undefined {
  const m = /^([+-]?)(\d+)([A-Za-z]*)$/.exec(text);
  if (m === null) return undefined;
  const mult = m[3] === "" ? 1 : SUFFIXES[m[3] as string];
  if (mult === undefined) return undefined;
  return { value: Number(m[2]) * mult, sign: m[1] as Count["sign"] };
}

/** The last `n` lines of a text (keeping whether it ended with a newline). */
export function lastLines(text: string, n: number): string {
  if (n <= 0 || text === "") return "";
  let end = text.endsWith("\n") ? text.length - 1 : text.length;
  let seen = 0;
  while (end > 0) {
    const nl = text.lastIndexOf("\n", end - 1);
    seen++;
    if (seen === n) return text.slice(nl + 1);
    if (nl === -1) return text;
    end = nl;
  }
  return text;
}

/** The first `n` lines of a text. */
export function firstLines(text: string, n: number): string {
  if (n <= 0) return "";
  let pos = 0;
  for (let k = 0; k < n; k++) {
    const nl = text.indexOf("\n", pos);
    if (nl === -1) return text;
    pos = nl + 1;
  }
  return text.slice(0, pos);
}

/** Everything but the last `n` lines (`head -n -N`). */
export function allButLastLines(text: string, n: number): string {
  if (n <= 0) return text;
  const tail = lastLines(text, n);
  return text.slice(0, text.length - tail.length);
}

/** Lines from the `n`th on (`tail -n +N`; +0 and +1 mean everything). */
export function fromLine(text: string, n: number): string {
  if (n <= 1) return text;
  return text.slice(firstLines(text, n - 1).length);
}

/** Byte-oriented slices for `-c`: the text is sliced on its UTF-8 bytes. */
export function sliceBytes(text: string, start: number, end?: number): string {
  return textFromBytes(bytesOfText(text).subarray(start, end));
}

export function byteLength(text: string): number {
  return byteLengthOfText(text);
}
