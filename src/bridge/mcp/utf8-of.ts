/** Writes a direct answer's parts without measuring them first (`utf8Of`). */
const ENCODER = new TextEncoder();

/**
 * The UTF-8 bytes of `head + json + tail`, each part written into one buffer: the body of a
 * direct tool call's answer (`direct-tool-call.ts`). Given the joined string instead, the HTTP
 * layer flattened it for its Content-Length and copied it again to put the headers in front of
 * it: two copies of ~23 KB of young generation a search call (its text has `›` and `…`, so it is
 * UTF-16), a tenth of what a call allocated (issue 23's allocation profile).
 *
 * The parts are not measured first (`Buffer.byteLength` reads all of a search answer's ~12,400
 * characters, a third of what encoding them costs, issue 23): the buffer has room for a byte a
 * character and a sixteenth more, which holds the answers of sites written in languages with
 * Latin letters (spree's: 12,494 bytes of 12,396 characters). Parts that do not fit (a site in
 * Chinese: up to 3 bytes a character) are measured and written again, as before.
 */
export function utf8Of(head: string, json: string, tail: string): Buffer<ArrayBuffer> {
  const chars = head.length + json.length + tail.length;
  const out = Buffer.allocUnsafe(chars + (chars >>> 4) + 16);
  let at = 0;
  for (const part of [head, json, tail]) {
    const { read, written } = ENCODER.encodeInto(part, at === 0 ? out : out.subarray(at));
    if (read !== part.length) return measuredUtf8Of(head, json, tail);
    at += written;
  }
  return out.subarray(0, at);
}

/** `utf8Of` for parts whose bytes are measured first: one buffer of their summed size. */
function measuredUtf8Of(head: string, json: string, tail: string): Buffer<ArrayBuffer> {
  const a = Buffer.byteLength(head);
  const b = Buffer.byteLength(json);
  const out = Buffer.allocUnsafe(a + b + Buffer.byteLength(tail));
  out.write(head, 0);
  out.write(json, a);
  out.write(tail, a + b);
  return out;
}
