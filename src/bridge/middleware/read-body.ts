import type { IncomingMessage } from "node:http";
import { readRequestBody } from "@modelcontextprotocol/server";
import type { BridgeContext } from "../context.js";

export type BodyRead = { readonly tooLarge: true } | { readonly tooLarge: false; readonly text: string };

/**
 * A request body as text, refusing more than `maxBytes` (a declared Content-Length over it is
 * refused unread). On a real socket it reads the Node request directly: building a web
 * `Request` and its stream for every tool call costs more than the call itself. In-process
 * (tests calling `fetch` on the app) it reads the web body.
 */
export async function readBody(c: BridgeContext, maxBytes: number): Promise<BodyRead> {
  if (Number(c.req.header("content-length")) > maxBytes) return { tooLarge: true };
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined || typeof incoming.on !== "function" || incoming.readableDidRead) return readRequestBody(c.req.raw, maxBytes);
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
      resolve({ tooLarge: false, text: Buffer.concat(chunks, size).toString("utf8") });
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
