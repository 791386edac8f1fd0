import { jsonComplexity, jsonComplexityMessage } from "../../json-complexity.js";
import { ApiError } from "./api-error.js";
import { decodeBody, unsupportedCharsetMessage } from "./body-charset.js";

/**
 * Read a JSON request body of at most `maxBytes`, never buffering more than that.
 * Accepted types: `application/json`, and `text/plain` because `navigator.sendBeacon` and
 * preflight-free `fetch` calls from docs widgets send JSON text under it. A missing type is read
 * as JSON too; anything else (forms, multipart) is a 415. The text is decoded by the declared
 * charset (`body-charset.ts`): UTF-8 or UTF-16; another charset is a 415.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (type !== null && !/^\s*(application\/json|text\/plain)\s*(;|$)/i.test(type)) {
    throw new ApiError(415, "unsupported_media_type", `send the body as application/json; got Content-Type ${type}`);
  }
  // An unknown charset is refused before the body is read.
  const probe = decodeBody(new Uint8Array(0), type);
  if (!probe.ok && probe.problem === "unsupported") throw new ApiError(415, "unsupported_media_type", unsupportedCharsetMessage(probe.charset));
  const tooLarge = () => new ApiError(413, "payload_too_large", `request body exceeds ${maxBytes} bytes`);
  const declared = request.headers.get("content-length");
  let bytes: Uint8Array;
  if (declared !== null) {
    // The HTTP parser holds the body to Content-Length, so checking the header bounds the read;
    // `arrayBuffer()` then takes @hono/node-server's fast path (no web stream).
    if (Number(declared) > maxBytes) throw tooLarge();
    bytes = new Uint8Array(await request.arrayBuffer());
  } else {
    bytes = await readChunked(request, maxBytes, tooLarge);
  }
  if (bytes.byteLength === 0) throw new ApiError(400, "invalid_json", "request body is empty; send a JSON object");
  const decoded = decodeBody(bytes, type);
  if (!decoded.ok) {
    if (decoded.problem === "unsupported") throw new ApiError(415, "unsupported_media_type", unsupportedCharsetMessage(decoded.charset));
    throw new ApiError(400, "invalid_json", `request body is not valid ${decoded.encoding}`);
  }
  const text = decoded.text;
  // Before parsing: what reads the value after (zod schemas) recurses (`LIMITS.clientJson`).
  const complex = jsonComplexity(text);
  if (complex !== undefined) throw new ApiError(400, complex.reason === "json_depth" ? "json_too_deep" : "json_too_many_values", `request body ${jsonComplexityMessage(complex)}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, "invalid_json", `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError(400, "invalid_json", "request body must be a JSON object");
  }
  return value;
}

/** A body without Content-Length (chunked): read as a stream, stopping past `maxBytes`. */
async function readChunked(request: Request, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
