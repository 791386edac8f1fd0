import { CodeSpans, openingRun } from "./text-scan.js";

/** Marks a hidden code span in the text (private-use characters: no markup reads them). */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const HOLE = /\uE000(\d+)\uE001/g;

/** A text with each inline code span replaced by a hole, and the spans' verbatim texts. */
export interface CodeSpanHoles {
  readonly text: string;
  readonly spans: readonly string[];
}

/**
 * Inline code spans taken out of a text, so that the markup rewrites of its prose (links
 * `[a](b)` and `[a][b]`, emphasis, backticks) never read inside one: `x["y"]["z"]` read as a
 * reference link became `x"y"`, and a generated API page's `jq '.["paths"]["/p4"]["get"]'` lost
 * its brackets in search text and snippets (issue 25, F3). A hole holds no `[`, `]`, `(`, `)`,
 * backtick or newline, so a link whose text is code (`` [`id`](/x) ``) still reads as a link.
 * Spans are CommonMark's: a run of N backticks closes at the next run of exactly N in its
 * paragraph (`CodeSpans`); a run that closes nothing, and a backslash-escaped backtick, is
 * literal text of the prose; a span's text is `codeSpanText`.
 */
export function holeCodeSpans(s: string): CodeSpanHoles {
  if (!s.includes("`")) return { text: s, spans: [] };
  const scan = new CodeSpans(s);
  const spans: string[] = [];
  let out = "";
  let done = 0;
  for (let run = s.indexOf("`"); run !== -1; ) {
    const runLength = scan.runLength(run);
    const { at, length } = openingRun(s, run, runLength);
    const close = length === 0 ? -1 : scan.closeAfter(at, length);
    if (close === -1) {
      // A run that opens no span is literal (its backticks go with the prose's).
      run = s.indexOf("`", run + runLength);
      continue;
    }
    out += `${s.slice(done, at)}${OPEN}${spans.length}${CLOSE}`;
    spans.push(codeSpanText(s.slice(at + length, close - length)));
    done = close;
    run = s.indexOf("`", close);
  }
  return { text: out + s.slice(done), spans };
}

/**
 * A code span's text as CommonMark reads it: each line ending is a space, then one space is
 * taken from each end when both ends have one and it is not all spaces (`` `` `a` `` `` reads
 * `` `a` ``, so a span can start or end with a backtick). Everything else is as written.
 */
export function codeSpanText(raw: string): string {
  const s = raw.includes("\n") || raw.includes("\r") ? raw.replace(/\r\n|\r|\n/g, " ") : raw;
  return s.startsWith(" ") && s.endsWith(" ") && /[^ ]/.test(s) ? s.slice(1, -1) : s;
}

/** `text` with its holes filled by the code spans' texts, as written. */
export function fillCodeSpans(text: string, spans: readonly string[]): string {
  if (spans.length === 0) return text;
  return text.replace(HOLE, (hole, n: string) => spans[Number(n)] ?? hole);
}
