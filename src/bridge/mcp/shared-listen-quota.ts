import type { ListenPlaceKeeper, ListenQuota, ListenRefusal } from "./listen-quota.js";

/** What a worker asks the process that counts listen streams: a place for a stream, or one given back. */
export interface ListenPlaceRequest {
  readonly op: "take" | "release";
  readonly endpoint: string;
  readonly caller: string;
}
/** The answer to `take`: nothing when the place is given, else the refusal naming its bound. */
export type ListenPlaceReply = { readonly ok: true } | ({ readonly ok: false } & ListenRefusal);

/**
 * `ListenQuota` whose counts live in another process (`serve --http --workers N`: the primary
 * counts for all workers, `ListenQuotaLedger`), so a caller's 64 streams and an endpoint's 10,000
 * hold for the server, not per worker (adversary round 39, F1: a caller held 64 in each worker).
 * Every take is decided by that one process in turn, and a release travels on the same channel,
 * so a worker's later take is counted after its earlier release. This process's own count is
 * kept beside, for `size` (what its SDK servers hold).
 */
export class RemoteListenQuota implements ListenPlaceKeeper {
  private readonly here = new Map<string, number>();

  constructor(private readonly request: (message: ListenPlaceRequest) => Promise<unknown>) {}

  async reserve(endpoint: string, caller: string): Promise<ListenRefusal | undefined> {
    const reply = (await this.request({ op: "take", endpoint, caller })) as ListenPlaceReply;
    if (!reply.ok) return { status: reply.status, reason: reply.reason, limit: reply.limit, message: reply.message };
    this.here.set(endpoint, this.size(endpoint) + 1);
    return undefined;
  }

  release(endpoint: string, caller: string): void {
    this.here.set(endpoint, Math.max(0, this.size(endpoint) - 1));
    // Nothing to wait for; a primary gone meanwhile took every count with it.
    this.request({ op: "release", endpoint, caller }).catch(() => {});
  }

  size(endpoint: string): number {
    return this.here.get(endpoint) ?? 0;
  }
}

/**
 * The primary's side: one `ListenQuota` for every worker, and how many places each worker
 * (`owner`) holds per endpoint and caller, so that the places of a worker that dies (killed, out
 * of memory) are given back when it exits instead of being held for good. An owner once
 * `forget`-ten takes nothing more: an ask still on its way from a dead worker cannot take a
 * place nobody would give back.
 */
export class ListenQuotaLedger<Owner> {
  private readonly held = new Map<Owner, Map<string, { readonly endpoint: string; readonly caller: string; count: number }>>();
  private readonly gone = new Set<Owner>();

  constructor(private readonly quota: ListenQuota) {}

  /** Answer one worker's request. */
  answer(owner: Owner, message: ListenPlaceRequest): ListenPlaceReply | Record<string, never> {
    const key = `${message.endpoint} ${message.caller}`;
    const mine = this.held.get(owner);
    if (message.op === "release") {
      const entry = mine?.get(key);
      // Only what this worker holds: a release it never took (or after `forget`) changes nothing.
      if (entry === undefined) return {};
      this.quota.release(entry.endpoint, entry.caller);
      if (--entry.count === 0) mine?.delete(key);
      return {};
    }
    if (this.gone.has(owner)) throw new Error("the worker process is gone");
    const refusal = this.quota.reserve(message.endpoint, message.caller);
    if (refusal !== undefined) return { ok: false, ...refusal };
    let places = mine;
    if (places === undefined) this.held.set(owner, (places = new Map()));
    const entry = places.get(key);
    if (entry === undefined) places.set(key, { endpoint: message.endpoint, caller: message.caller, count: 1 });
    else entry.count++;
    return { ok: true };
  }

  /** `owner` has exited: every place it held is given back. */
  forget(owner: Owner): void {
    this.gone.add(owner);
    for (const { endpoint, caller, count } of this.held.get(owner)?.values() ?? []) for (let i = 0; i < count; i++) this.quota.release(endpoint, caller);
    this.held.delete(owner);
  }

  /** Streams open on `endpoint`, every worker's. */
  size(endpoint: string): number {
    return this.quota.size(endpoint);
  }
}
