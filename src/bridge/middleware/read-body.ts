import type { IncomingMessage } from "node:http";
import type { BridgeContext } from "../context.js";
import { type DecodedBody, decodeBody } from "./body-charset.js";

/** A body read: too large, its text, or bytes that are no text in the declared charset (or an unknown charset). */
export type BodyRead =
  | { readonly tooLarge: true }
  | { readonly tooLarge: false; readonly text: string }
  | { readonly tooLarge: false; readonly undecodable: Exclude<DecodedBody, { ok: true }> };

/**
 * A request body as text, refusing more than `maxBytes` (a declared Content-Length over it is
 * refused unread). On a real socket it reads the Node request directly: building a web
 * `Request` and its stream for every tool call costs more than the call itself. In-process
 * (tests calling `fetch` on the app) it reads the web body. The text is decoded by the charset
 * the Content-Type declares (`body-charset.ts`; issue 25: UTF-16 was read as UTF-8).
 */
export async function readBody(c: BridgeContext, maxBytes: number): Promise<BodyRead> {
  if (Number(c.req.header("content-length")) > maxBytes) return { tooLarge: true };
  const type = c.req.header("content-type");
  const decoded = (bytes: Uint8Array): BodyRead => decodedRead(bytes, type);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined || typeof incoming.on !== "function" || incoming.readableDidRead) return readRequestText(c.req.raw, maxBytes);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      incoming.off("data", onData);
      incoming.off("end", done);
      incoming.off("error", fail);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // Answer now; the rest is discarded as it arrives (the 413 also closes the connection).
      stop();
      incoming.resume();
      resolve({ tooLarge: true });
    };
    const done = (): void => {
      stop();
      resolve(decoded(Buffer.concat(chunks, size)));
    };
    const fail = (error: Error): void => {
      stop();
      reject(error);
    };
    incoming.on("data", onData);
    incoming.once("end", done);
    incoming.once("error", fail);
  });
}

/** What a body's bytes read as, by the charset `type` declares. */
function decodedRead(bytes: Uint8Array, type: string | null | undefined): BodyRead {
  const d = decodeBody(bytes, type);
  return d.ok ? { tooLarge: false, text: d.text } : { tooLarge: false, undecodable: d };
}

/**
 * A web request's body as text, stopping once more than `maxBytes` have come (a declared
 * Content-Length over it is refused unread), decoded as `readBody` decodes.
 */
export async function readRequestText(request: Request, maxBytes: number): Promise<BodyRead> {
  if (Number(request.headers.get("content-length")) > maxBytes) return { tooLarge: true };
  const type = request.headers.get("content-type");
  const decoded = (bytes: Uint8Array): BodyRead => decodedRead(bytes, type);
  if (request.body === null) return decoded(new Uint8Array(0));
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) return { tooLarge: true };
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return decoded(Buffer.concat(chunks, size));
}
