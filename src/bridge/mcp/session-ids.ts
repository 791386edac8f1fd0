import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Endpoint } from "./sessions.js";

/** Bytes of the HMAC kept in a signed id: 128 bits cannot be guessed. */
const MAC_BYTES = 16;

/**
 * MCP session ids (`Mcp-Session-Id`). Alone, a process mints random UUIDs and knows its sessions
 * by its table. Given a key shared by several processes (the workers of `serve --http
 * --workers N`), an id also carries an HMAC of the endpoint and principal it was opened for, so
 * a worker that never saw the session can tell it was opened by one of its siblings for this
 * same caller, and resume it instead of answering "Session not found". A caller cannot forge one,
 * nor carry one to the other endpoint or to another caller: those fail the check and are
 * answered exactly like an unknown id.
 */
export class SessionIds {
  constructor(private readonly key: Buffer | undefined) {}

  /** A new session id; signed when this process shares a key. */
  mint(endpoint: Endpoint, principal: string): string {
    const id = randomUUID();
    return this.key === undefined ? id : `${id}.${this.mac(endpoint, principal, id).toString("base64url")}`;
  }

  /** Whether `id`, unknown here, was minted by a process holding the same key for this endpoint and principal. */
  resumable(id: string, endpoint: Endpoint, principal: string): boolean {
    if (this.key === undefined) return false;
    const dot = id.indexOf(".");
    if (dot === -1) return false;
    // The text itself is compared: an id has exactly one spelling (base64url decoding is lenient).
    const given = Buffer.from(id.slice(dot + 1));
    const expected = Buffer.from(this.mac(endpoint, principal, id.slice(0, dot)).toString("base64url"));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(endpoint: Endpoint, principal: string, id: string): Buffer {
    return createHmac("sha256", this.key as Buffer).update(`${endpoint}\n${principal}\n${id}`).digest().subarray(0, MAC_BYTES);
  }
}
