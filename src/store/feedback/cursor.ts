import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { LIMITS } from "../../limits.js";
import type { FeedbackFilter } from "./query.js";

/**
 * Pagination cursors: the keyset position of the last entry of a page (its `createdAt` and the
 * store's insertion sequence number, which breaks ties), bound to the query that produced it
 * and signed, so clients cannot forge positions or read our internals into a contract.
 *
 * Layout (then base64url, 55 characters):
 *   version (1 byte) | createdAt ms (8, int64 BE) | seq (8, int64 BE) | query digest (8) | HMAC (16)
 * The HMAC-SHA256 (truncated to 128 bits) is keyed with a per-store secret kept in the database,
 * so cursors survive restarts and are valid for every process sharing the store.
 * The query digest follows Google AIP-158: a cursor is only valid with the same filters
 * (project, dateFrom, dateTo, source, status); `limit` may change between pages.
 */

const VERSION = 1;
const PAYLOAD_BYTES = 1 + 8 + 8 + 8;
const MAC_BYTES = 16;
const CURSOR_CHARS = Math.ceil(((PAYLOAD_BYTES + MAC_BYTES) * 4) / 3);

/** Where the next page starts: strictly after (older than) this entry. */
export interface KeysetPosition {
  readonly createdAt: number;
  readonly seq: number;
}

/** A cursor the store refuses: not one it issued, altered, or issued for another query. */
export class InvalidCursorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidCursorError";
  }
}

export const CURSOR_MALFORMED = "cursor is malformed or was altered; pass nextCursor from the previous response unchanged";
export const CURSOR_OTHER_QUERY =
  "cursor belongs to a different query; repeat the dateFrom, dateTo, source and status of the request that returned it";

export interface CursorCodec {
  encode(position: KeysetPosition, filter: FeedbackFilter): string;
  /** Throws InvalidCursorError. */
  decode(cursor: string, filter: FeedbackFilter): KeysetPosition;
}

export function createCursorCodec(secret: Uint8Array): CursorCodec {
  if (secret.length < 16) throw new Error("cursor secret must be at least 16 bytes");
  const mac = (payload: Uint8Array): Buffer => createHmac("sha256", secret).update(payload).digest().subarray(0, MAC_BYTES);
  return {
    encode(position, filter) {
      const payload = Buffer.alloc(PAYLOAD_BYTES);
      payload.writeUInt8(VERSION, 0);
      payload.writeBigInt64BE(BigInt(position.createdAt), 1);
      payload.writeBigInt64BE(BigInt(position.seq), 9);
      filterDigest(filter).copy(payload, 17);
      return Buffer.concat([payload, mac(payload)]).toString("base64url");
    },
    decode(cursor, filter) {
      if (cursor.length !== CURSOR_CHARS || cursor.length > LIMITS.feedback.maxCursorChars || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
        throw new InvalidCursorError(CURSOR_MALFORMED);
      }
      const bytes = Buffer.from(cursor, "base64url");
      // Reject non-canonical encodings (stray low bits in the last character) as altered.
      if (bytes.length !== PAYLOAD_BYTES + MAC_BYTES || bytes.toString("base64url") !== cursor) {
        throw new InvalidCursorError(CURSOR_MALFORMED);
      }
      const payload = bytes.subarray(0, PAYLOAD_BYTES);
      if (!timingSafeEqual(mac(payload), bytes.subarray(PAYLOAD_BYTES)) || payload.readUInt8(0) !== VERSION) {
        throw new InvalidCursorError(CURSOR_MALFORMED);
      }
      if (!timingSafeEqual(filterDigest(filter), payload.subarray(17, 25))) throw new InvalidCursorError(CURSOR_OTHER_QUERY);
      return { createdAt: Number(payload.readBigInt64BE(1)), seq: Number(payload.readBigInt64BE(9)) };
    },
  };
}

/** 64 bits of SHA-256 over the normalized filter (the MAC, not this digest, is what resists forgery). */
function filterDigest(f: FeedbackFilter): Buffer {
  const canonical = JSON.stringify([f.projectId, f.dateFrom ?? null, f.dateTo ?? null, f.source ?? null, f.statuses ?? null]);
  return createHash("sha256").update(canonical).digest().subarray(0, 8);
}
