/**
 * Inline `data:` URLs in a page too large to serve: notebook exports embed their output images as
 * base64 (`![](data:image/png;base64,iVBOR...)`), which made langchain's ChatOpenAI, image
 * captions and OpenCLIP pages 3.3 to 4 MB for ~40 KB of text, so the page limit
 * (`LIMITS.load.maxPageBytes`) left them out of search and the shell, while the platform serves
 * them. Their payloads are no text anyone searches or reads in a shell: cut to `…`, the rest of
 * the page is served when it fits the limit.
 */

/** A payload shorter than this is a short inline icon, not an embedded file: it stays. */
const MIN_PAYLOAD = 256;

/** What comes before a payload: `data:`, a media type, parameters, `;base64,`. Matched at one
 *  place at a time (sticky): it cannot run past a payload's first character. */
const HEAD = /data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/y;

/**
 * `text` with each long base64 `data:` payload cut to `…`, and how many were cut: what
 * `text.replace(/(HEAD)[A-Za-z0-9+/]{256,}={0,2}/g, "$1…")` makes, found without a regular
 * expression over the whole text. V8 runs a regular expression's first calls in its bytecode
 * interpreter (~0.1 us a character): a single `replace` over langchain's three notebook pages
 * (10.7 MB) took ~1 s of the start's main thread (2026-12-07), where a `data:` search and a loop
 * over the payload take a few milliseconds. The same places match: a head matches in one way
 * only (`,` and `=` end each of its runs, and a payload holds neither), and a run of payload
 * characters is taken whole or, under `MIN_PAYLOAD`, not at all.
 */
export function withoutInlineData(text: string): { readonly text: string; readonly cut: number } {
  let cut = 0;
  let out = "";
  let done = 0;
  for (let at = text.indexOf("data:"); at !== -1; at = text.indexOf("data:", at)) {
    HEAD.lastIndex = at;
    if (!HEAD.test(text)) {
      at++;
      continue;
    }
    const payload = HEAD.lastIndex;
    let end = payload;
    while (end < text.length && isBase64(text.charCodeAt(end))) end++;
    if (end - payload < MIN_PAYLOAD) {
      at++;
      continue;
    }
    for (let pad = 0; pad < 2 && text.charCodeAt(end) === 61; pad++) end++;
    out += `${text.slice(done, payload)}…`;
    done = end;
    at = end;
    cut++;
  }
  return { text: cut === 0 ? text : out + text.slice(done), cut };
}

/** Whether a UTF-16 unit is one of base64's characters `[A-Za-z0-9+/]` (`=` pads, apart). */
function isBase64(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
}
