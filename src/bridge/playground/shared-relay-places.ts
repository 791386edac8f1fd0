import type { RelayPlace, RelayPlaceKeeper, RelayPlaces, RelayRefusal } from "./relay-places.js";

/** What a worker asks the process that counts the relay's places. */
export type RelayPlaceRequest = { readonly op: "take"; readonly caller: string } | { readonly op: "release"; readonly id: number };
/** The answer to `take`: the place's number (to give it back by), or the refusal. */
export type RelayPlaceReply = { readonly ok: true; readonly id: number } | ({ readonly ok: false } & RelayRefusal);

/**
 * `RelayPlaces` whose counts live in another process (`serve --http --workers N`: the primary
 * counts for all workers, `RelayPlaceLedger`), so a caller's bound and the total hold across
 * workers, not per worker (2 x N and 16 x N before; issue 25). Every take is decided by that one
 * process in turn, and a release is sent on the same channel, so a worker's later take is
 * counted after its earlier release.
 */
export class RemoteRelayPlaces implements RelayPlaceKeeper {
  constructor(private readonly request: (message: RelayPlaceRequest) => Promise<unknown>) {}

  async take(caller: string): Promise<RelayPlace> {
    const reply = (await this.request({ op: "take", caller })) as RelayPlaceReply;
    if (!reply.ok) return reply;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        // Nothing to wait for; a primary gone meanwhile took every count with it.
        this.request({ op: "release", id: reply.id }).catch(() => {});
      },
    };
  }
}

/**
 * The primary's side: one `RelayPlaces` for every worker, and which worker (`owner`) holds each
 * place taken, so that the places of a worker that dies (killed, out of memory) are given back
 * when it exits instead of being held for good. An owner once `forget`-ten takes nothing more: an
 * ask still on its way from a dead worker cannot take a place nobody would give back.
 */
export class RelayPlaceLedger<Owner> {
  private nextId = 1;
  private readonly held = new Map<Owner, Map<number, () => void>>();
  private readonly gone = new Set<Owner>();

  constructor(private readonly places: RelayPlaces) {}

  /** Answer one worker's request. */
  answer(owner: Owner, message: RelayPlaceRequest): RelayPlaceReply | Record<string, never> {
    if (message.op === "release") {
      const mine = this.held.get(owner);
      mine?.get(message.id)?.();
      mine?.delete(message.id);
      return {};
    }
    if (this.gone.has(owner)) throw new Error("the worker process is gone");
    const place = this.places.take(message.caller);
    if (!place.ok) return { ok: false, status: place.status, code: place.code, message: place.message };
    const id = this.nextId++;
    let mine = this.held.get(owner);
    if (mine === undefined) this.held.set(owner, (mine = new Map()));
    mine.set(id, place.release);
    return { ok: true, id };
  }

  /** `owner` has exited: every place it held is given back. */
  forget(owner: Owner): void {
    this.gone.add(owner);
    for (const release of this.held.get(owner)?.values() ?? []) release();
    this.held.delete(owner);
  }

  /** Places held now, every worker's. */
  get count(): number {
    return this.places.count;
  }
}
