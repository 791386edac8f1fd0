import { CodeSpans } from "./text-scan.js";

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
 */
export function holeCodeSpans(s: string): CodeSpanHoles {
  if (!s.includes("`")) return { text: s, spans: [] };
  const scan = new CodeSpans(s);
  const spans: string[] = [];
  let out = "";
  let done = 0;
  for (let at = s.indexOf("`"); at !== -1; ) {
    const length = scan.runLength(at);
    const close = scan.closeAfter(at, length);
    if (close === -1) {
      // A run that opens no span is literal (its backticks go with the prose's).
      at = s.indexOf("`", at + length);
      continue;
    }
    out += `${s.slice(done, at)}${OPEN}${spans.length}${CLOSE}`;
    spans.push(s.slice(at + length, close - length));
    done = close;
    at = s.indexOf("`", close);
  }
  return { text: out + s.slice(done), spans };
}

/** `text` with its holes filled by the code spans' texts, as written. */
export function fillCodeSpans(text: string, spans: readonly string[]): string {
  if (spans.length === 0) return text;
  return text.replace(HOLE, (hole, n: string) => spans[Number(n)] ?? hole);
}
