import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Endpoint } from "./sessions.js";

/** Bytes of the HMAC kept in a signed id: 128 bits cannot be guessed. */
const MAC_BYTES = 16;

/** Marks a signed id whose client declared MCP Apps (the UI extension) in its `initialize`. */
const APPS_MARK = ".apps";

/**
 * What a 2025 session's `initialize` settled that changes how the server answers it: whether its
 * client renders MCP Apps (then the apps' resources and Send tool are listed and served), and the
 * protocol version it negotiated (from 2025-06-18 a JSON-RPC batch is refused). A worker resuming
 * a sibling's session must take up the same, or the session changes with the worker that happens
 * to serve a request (issue 25: `tools/list` lost the Send tool; round 26 F2: a batch was
 * refused by the worker that opened a 2025-11-25 session and run by its sibling, which resumed
 * it at a default version).
 */
export interface SessionTraits {
  readonly apps: boolean;
  /** One of the SDK's own version strings (never a caller's text): it is written into the id. */
  readonly protocolVersion: string;
}

/**
 * MCP session ids (`Mcp-Session-Id`). Alone, a process mints random UUIDs and knows its sessions
 * by its table. Given a key shared by several processes (the workers of `serve --http
 * --workers N`), an id also carries the session's traits (`SessionTraits`:
 * `<uuid>.<protocol version>[.apps].<mac>`) and an HMAC of them with the endpoint and principal
 * it was opened for, so a worker that never saw the session can tell it was opened by one of its
 * siblings for this same caller, and resume it as it was opened instead of answering "Session
 * not found". A caller cannot forge one, change, add or strip a trait, nor carry one to the other
 * endpoint or to another caller: those fail the check and are answered exactly like an unknown
 * id. A valid signature says only that the id was minted here: whether its session still lives
 * (not ended by DELETE, eviction or idleness) is the primary's to say (`SharedSessions`).
 */
export class SessionIds {
  constructor(private readonly key: Buffer | undefined) {}

  /** A new session id; signed (with its traits) when this process shares a key. */
  mint(endpoint: Endpoint, principal: string, traits: SessionTraits): string {
    const id = randomUUID();
    if (this.key === undefined) return id;
    const payload = `${id}.${traits.protocolVersion}${traits.apps ? APPS_MARK : ""}`;
    return `${payload}.${this.mac(endpoint, principal, payload).toString("base64url")}`;
  }

  /** The traits `id`, unknown here, was minted with by a process holding the same key for this endpoint and principal; undefined for any other id. */
  resumable(id: string, endpoint: Endpoint, principal: string): SessionTraits | undefined {
    if (this.key === undefined) return undefined;
    const dot = id.lastIndexOf(".");
    if (dot === -1) return undefined;
    const payload = id.slice(0, dot);
    // The text itself is compared: an id has exactly one spelling (base64url decoding is lenient).
    const given = Buffer.from(id.slice(dot + 1));
    const expected = Buffer.from(this.mac(endpoint, principal, payload).toString("base64url"));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    // Signed, so written by `mint`: a UUID, the version, and the mark or nothing.
    const [, protocolVersion] = payload.split(".") as [string, string];
    return { apps: payload.endsWith(APPS_MARK), protocolVersion };
  }

  private mac(endpoint: Endpoint, principal: string, payload: string): Buffer {
    return createHmac("sha256", this.key as Buffer).update(`${endpoint}\n${principal}\n${payload}`).digest().subarray(0, MAC_BYTES);
  }
}
