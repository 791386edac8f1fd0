/**
 * The UTF-8 bytes of `head + json + tail`, each part written into one buffer of their summed
 * size: the body of a direct tool call's answer (`direct-tool-call.ts`). Given the joined string
 * instead, the HTTP layer flattened it for its Content-Length and copied it again to put the
 * headers in front of it: two copies of ~23 KB of young generation a search call (its text has
 * `›` and `…`, so it is UTF-16), a tenth of what a call allocated (issue 23's allocation
 * profile). `json` is flattened once, in place, by measuring it; writing reads that copy.
 */
export function utf8Of(head: string, json: string, tail: string): Buffer<ArrayBuffer> {
  const a = Buffer.byteLength(head);
  const b = Buffer.byteLength(json);
  const out = Buffer.allocUnsafe(a + b + Buffer.byteLength(tail));
  out.write(head, 0);
  out.write(json, a);
  out.write(tail, a + b);
  return out;
}
