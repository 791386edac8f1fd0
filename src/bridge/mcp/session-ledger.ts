import type { SessionAsk } from "./shared-sessions.js";

/** One live session: the workers holding a copy, and how long it outlives them all. */
interface Live<Owner> {
  readonly holders: Set<Owner>;
  /** While no worker holds it, it lives until then (its last holder exited: `forget`); 0 once a live worker holds it. */
  keepUntil: number;
}

/**
 * The primary's side of `SharedSessions`: which 2025 sessions live, and which workers (`Owner`)
 * hold a copy of each. A worker takes up a session another opened only if it is here (`hold`),
 * so an ended session is simply absent: DELETE and eviction remove it at once and have every
 * other holder close its copy; a worker closing its copy for idleness (`dropped`) ends it only
 * when it was the last holder, since a session idle on one worker may be in use on another.
 *
 * Why live sessions, not tombstones of ended ones (adversary round 26, F1): a tombstone must last
 * as long as its id would otherwise be taken up, and a session has no maximum lifetime (a client
 * active every hour keeps it for days), so tombstones would have to be kept for ever or given a
 * lifetime the session does not have. The live sessions are bounded already: each is in the
 * table of a worker that holds it (`LIMITS.bridge.maxSessions` per endpoint and worker), or,
 * its last holder having exited (killed, out of memory), kept for `idleMs` from then so a sibling
 * can take it up as before, then dropped (`sweep`). Memory: one entry per live session, whatever
 * ended ones there were.
 */
export class SessionLedger<Owner> {
  private readonly live = new Map<string, Live<Owner>>();
  /** Workers that exited: an ask still on its way from one holds nothing. */
  private readonly gone = new Set<Owner>();

  constructor(private readonly idleMs: number) {}

  /** Live sessions (held or kept). */
  get size(): number {
    return this.live.size;
  }

  /**
   * Answer worker `owner`'s ask; `end`'s answer is the other workers to tell to close the session
   * (the caller tells them, and answers the ask once they have).
   */
  answer(owner: Owner, ask: SessionAsk, now: number): { readonly held: boolean } | { readonly closeIn: readonly Owner[] } {
    if (ask.op === "end") return { closeIn: this.end(owner, ask.id) };
    if (this.gone.has(owner)) return { held: false };
    if (ask.op === "opened") {
      this.live.set(ask.id, { holders: new Set([owner]), keepUntil: 0 });
      return { held: true };
    }
    const session = this.current(ask.id, now);
    session?.holders.add(owner);
    if (session !== undefined) session.keepUntil = 0;
    return { held: session !== undefined };
  }

  /** Worker `owner` closed its idle copy of session `id`: ended if no one else holds it. */
  dropped(owner: Owner, id: string, now: number): void {
    const session = this.live.get(id);
    if (session === undefined) return;
    session.holders.delete(owner);
    if (session.holders.size === 0 && session.keepUntil <= now) this.live.delete(id);
  }

  /** The workers other than `from` holding session `id` (to pass a cancellation to). */
  holdersBesides(from: Owner, id: string): Owner[] {
    return [...(this.live.get(id)?.holders ?? [])].filter((o) => o !== from);
  }

  /** Worker `owner` has exited: it holds nothing; a session it alone held is kept for `idleMs` from now. */
  forget(owner: Owner, now: number): void {
    this.gone.add(owner);
    for (const session of this.live.values()) {
      if (session.holders.delete(owner) && session.holders.size === 0) session.keepUntil = now + this.idleMs;
    }
  }

  /** Drop the sessions no worker has held for `idleMs` (their last holder exited). */
  sweep(now: number): void {
    for (const [id, session] of this.live) if (session.holders.size === 0 && session.keepUntil <= now) this.live.delete(id);
  }

  /** Session `id` ended in `from`: it no longer lives; the other holders are returned, to close it. */
  private end(from: Owner, id: string): Owner[] {
    const holders = this.holdersBesides(from, id);
    this.live.delete(id);
    return holders;
  }

  private current(id: string, now: number): Live<Owner> | undefined {
    const session = this.live.get(id);
    if (session !== undefined && session.holders.size === 0 && session.keepUntil <= now) {
      this.live.delete(id);
      return undefined;
    }
    return session;
  }
}
