/**
 * Inline `data:` URLs in a page too large to serve: notebook exports embed their output images as
 * base64 (`![](data:image/png;base64,iVBOR...)`), which made langchain's ChatOpenAI, image
 * captions and OpenCLIP pages 3.3 to 4 MB for ~40 KB of text, so the page limit
 * (`LIMITS.load.maxPageBytes`) left them out of search and the shell, while the platform serves
 * them. Their payloads are no text anyone searches or reads in a shell: cut to `…`, the rest of
 * the page is served when it fits the limit.
 */

/** A base64 payload long enough to be an embedded file, not a short inline icon (those stay). */
const PAYLOAD = /(data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,)[A-Za-z0-9+/]{256,}={0,2}/g;

/** `text` with each long base64 `data:` payload cut to `…`, and how many were cut. */
export function withoutInlineData(text: string): { readonly text: string; readonly cut: number } {
  let cut = 0;
  const out = text.replace(PAYLOAD, (_whole, head: string) => {
    cut++;
    return `${head}…`;
  });
  return { text: out, cut };
}
