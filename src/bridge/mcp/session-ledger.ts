import { LIMITS } from "../../limits.js";
import type { SessionAsk } from "./shared-sessions.js";

/** One live session: the workers holding a copy, and how long it outlives them all. */
interface Live<Owner> {
  readonly holders: Set<Owner>;
  /** Whose it is: its endpoint and owner (an address, an IPv6 /64, a token's principal). */
  readonly caller: string;
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
 *
 * A caller's bound of sessions (`maxPerCaller`, 1,000 per endpoint) is the server's, kept here:
 * a session opened past it ends the caller's oldest one on every worker (adversary round 39, F2:
 * each worker counted its own, so a caller held 1,000 in each). Each worker's table still bounds
 * what it holds (`SessionTable`: its endpoint's 10,000, and the same bound per caller, which the
 * server's reaches first).
 */
export class SessionLedger<Owner> {
  private readonly live = new Map<string, Live<Owner>>();
  /** Each caller's live sessions, oldest opened first. */
  private readonly byCaller = new Map<string, Set<string>>();
  /** Workers that exited: an ask still on its way from one holds nothing. */
  private readonly gone = new Set<Owner>();

  constructor(
    private readonly idleMs: number,
    private readonly maxPerCaller: number = LIMITS.bridge.maxSessionsPerCaller,
  ) {}

  /** Live sessions (held or kept). */
  get size(): number {
    return this.live.size;
  }

  /**
   * Answer worker `owner`'s ask; `end`'s answer is the other workers to tell to close the session
   * (the caller tells them, and answers the ask once they have); an `opened` past its caller's
   * bound names the session it ended and the workers to tell to close it (`evicted`), the asking
   * one among them when it holds it.
   */
  answer(
    owner: Owner,
    ask: SessionAsk,
    now: number,
  ): { readonly held: boolean; readonly evicted?: { readonly id: string; readonly closeIn: readonly Owner[] } } | { readonly closeIn: readonly Owner[] } {
    if (ask.op === "end") return { closeIn: this.end(owner, ask.id) };
    if (this.gone.has(owner)) return { held: false };
    if (ask.op === "opened") {
      this.live.set(ask.id, { holders: new Set([owner]), keepUntil: 0, caller: ask.caller });
      let mine = this.byCaller.get(ask.caller);
      if (mine === undefined) this.byCaller.set(ask.caller, (mine = new Set()));
      mine.add(ask.id);
      if (mine.size <= this.maxPerCaller) return { held: true };
      const oldest = mine.values().next().value as string;
      const closeIn = [...(this.live.get(oldest)?.holders ?? [])];
      this.remove(oldest);
      return { held: true, evicted: { id: oldest, closeIn } };
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
    if (session.holders.size === 0 && session.keepUntil <= now) this.remove(id);
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
    for (const [id, session] of this.live) if (session.holders.size === 0 && session.keepUntil <= now) this.remove(id);
  }

  /** Session `id` ended in `from`: it no longer lives; the other holders are returned, to close it. */
  private end(from: Owner, id: string): Owner[] {
    const holders = this.holdersBesides(from, id);
    this.remove(id);
    return holders;
  }

  /** Session `id` lives no more. */
  private remove(id: string): void {
    const session = this.live.get(id);
    if (session === undefined) return;
    this.live.delete(id);
    const mine = this.byCaller.get(session.caller);
    mine?.delete(id);
    if (mine?.size === 0) this.byCaller.delete(session.caller);
  }

  private current(id: string, now: number): Live<Owner> | undefined {
    const session = this.live.get(id);
    if (session !== undefined && session.holders.size === 0 && session.keepUntil <= now) {
      this.remove(id);
      return undefined;
    }
    return session;
  }
}
