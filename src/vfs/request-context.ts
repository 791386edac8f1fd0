import { type Access, ANONYMOUS, type AuthMode, type Reader, canRead, readerKey } from "./access.js";

/**
 * Who reads, under which site rules, and when: built once per request (an MCP message, an HTTP
 * call, a CLI command) and given to every access decision of that request. Nothing shared holds
 * these: two requests in flight never see each other's reader or auth setting.
 */
export interface RequestContext {
  /** Who is reading: anonymous, a person with groups, or a client credential. */
  readonly reader: Reader;
  /** The site's auth setting as read for this request (a change applies from the next request). */
  readonly authMode: AuthMode;
  /** Milliseconds since the epoch, from the clock this request's decisions and records use. */
  readonly clock: () => number;
  /**
   * Who asks, when several may (over HTTP: a token's principal, or an anonymous client's
   * address): shared resources, such as the shell pool, are shared fairly between callers.
   * Absent for the one local user.
   */
  readonly caller?: string;
  /**
   * Aborts when the request's client has gone (over HTTP: its connection ended), so work queued
   * for it is dropped instead of run for nobody. Absent where no connection can end early.
   */
  readonly gone?: AbortSignal;
}

/**
 * Every context `requestContext` built: what `isRequestContext` checks, so a context that comes
 * back through an untyped channel (the MCP SDK's `authInfo.extra`) is recognised by identity,
 * never by a look at its shape.
 */
const built = new WeakSet<object>();

/** A request's context; frozen, so no code downstream can change who it reads as. */
export function requestContext(reader: Reader, authMode: AuthMode, clock: () => number = Date.now, caller?: string, gone?: AbortSignal): RequestContext {
  const context: RequestContext = Object.freeze({ reader, authMode, clock, ...(caller !== undefined ? { caller } : {}), ...(gone !== undefined ? { gone } : {}) });
  built.add(context);
  return context;
}

/** Whether `value` is a context `requestContext` built (in this process). */
export function isRequestContext(value: unknown): value is RequestContext {
  return typeof value === "object" && value !== null && built.has(value);
}

/**
 * The context of a local preview (`serve` over stdio, `fs`, `search`, `nav --groups`): the
 * author's own machine, where the site's auth setting does not apply (docs/bridge.md).
 */
export function localContext(reader: Reader = ANONYMOUS): RequestContext {
  return requestContext(reader, "public");
}

/** Whether this request may read a file with this access rule (the one rule, `canRead`). */
export function mayRead(context: RequestContext, access: Access): boolean {
  return canRead(access, context.reader, context.authMode);
}

/**
 * What a context can see, as a cache key: two contexts with the same key see exactly the same
 * files (the clock never changes what is visible).
 */
export function visibilityKey(context: RequestContext): string {
  return `${context.authMode}|${readerKey(context.reader)}`;
}
