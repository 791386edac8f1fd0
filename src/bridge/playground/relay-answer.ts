import { StringDecoder } from "node:string_decoder";
import type { RelayResponse } from "./relay-request.js";

/** An upstream answer as read: everything of `RelayResponse` but the body, and the body's bytes as they came. */
export interface UpstreamAnswer {
  readonly head: Omit<RelayResponse, "body">;
  /** The body's pieces, in order (never joined until needed: `relayResponse`). */
  readonly chunks: readonly Buffer[];
}

/** Bytes encoded per step of `relayJsonStream`: a multiple of 3, so base64 pieces join without padding. */
const STEP_BYTES = 48 * 1024;

/** The answer as one value with its body as a string (the MCP tool's `structuredContent`). */
export function relayResponse(answer: UpstreamAnswer): RelayResponse {
  const body = Buffer.concat(answer.chunks);
  return { ...answer.head, body: answer.head.encoding === "utf8" ? body.toString("utf8") : body.toString("base64") };
}

/**
 * The answer as the JSON text of `RelayResponse`, encoded a step at a time as the client reads
 * it. Built whole (`Buffer.concat`, one 13 MB base64 string, `JSON.stringify` of it, its UTF-8
 * bytes), a 10 MB answer was four copies on the V8 heap and tens of milliseconds of the main
 * thread in one piece; 8 of them at once held another reader's search 5 s (issue 25, adversary
 * round 18 F3). Here each step encodes at most `STEP_BYTES` of the body, and nothing larger than
 * a step is ever a string. `done` runs once: at the end, or when the client hangs up.
 */
export function relayJsonStream(answer: UpstreamAnswer, done: () => void): ReadableStream<Uint8Array> {
  const utf8 = answer.head.encoding === "utf8";
  // `body` last, so the rest of the answer goes first and the body follows in pieces.
  const prefix = JSON.stringify({ ...answer.head, body: "" }).slice(0, -2);
  const decoder = new StringDecoder("utf8");
  let chunk = 0;
  let offset = 0;
  /** Base64: bytes of a step left over (fewer than 3), carried into the next. */
  let carry: Buffer = Buffer.alloc(0);
  let started = false;
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    done();
  };
  /** The next at most `STEP_BYTES` of the body, or undefined at its end. */
  const nextBytes = (): Buffer | undefined => {
    while (chunk < answer.chunks.length) {
      const piece = answer.chunks[chunk]!;
      if (offset < piece.byteLength) {
        const end = Math.min(piece.byteLength, offset + STEP_BYTES);
        const bytes = piece.subarray(offset, end);
        offset = end;
        return bytes;
      }
      chunk++;
      offset = 0;
    }
    return undefined;
  };
  const encodeStep = (bytes: Buffer): string => {
    if (utf8) return JSON.stringify(decoder.write(bytes)).slice(1, -1);
    const all = carry.byteLength === 0 ? bytes : Buffer.concat([carry, bytes]);
    const whole = all.byteLength - (all.byteLength % 3);
    carry = Buffer.from(all.subarray(whole));
    return all.subarray(0, whole).toString("base64");
  };
  const tail = (): string => (utf8 ? JSON.stringify(decoder.end()).slice(1, -1) : carry.toString("base64"));
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(Buffer.from(prefix, "utf8"));
          return;
        }
        const bytes = nextBytes();
        if (bytes !== undefined) {
          controller.enqueue(Buffer.from(encodeStep(bytes), "utf8"));
          return;
        }
        controller.enqueue(Buffer.from(`${tail()}"}`, "utf8"));
        controller.close();
        finish();
      },
      cancel() {
        finish();
      },
    },
    // One step queued at a time: the next is encoded when the socket has taken this one.
    { highWaterMark: 0 },
  );
}
