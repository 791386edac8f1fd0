import { MediaTurns, type MediaTurn, type MediaTurnKeeper, type MediaTurnLimits } from "./media-turns.js";

/** Which turns: a caller's media transfers (`SiteMediaState.turns`), or its preview searches and agent views (`previewCallTurns`). */
export type TurnKind = "media" | "preview";

/** What a worker asks the primary: a turn for `caller`, answered when it comes (or refused); `ticket` names it later. */
export interface TurnAsk {
  readonly kind: TurnKind;
  readonly caller: string;
  readonly ticket: number;
}
/** What a worker tells the primary of a ticket: the turn is over (`release`), or its client hung up while it waited (`abandon`). */
export interface TurnNews {
  readonly op: "release" | "abandon";
  readonly ticket: number;
}
/** The answer to a `TurnAsk`: the turn was given, or why not. */
export type TurnReply = { readonly ok: true } | { readonly ok: false; readonly reason: "full" | "gone" };

/**
 * `MediaTurns` whose queues live in the primary of `serve --http --workers N`, so a caller's
 * bound (sending at once, and sent or waiting) is the server's, not each worker's (adversary
 * round 39, F1: a caller had N times its share). A take is an ask answered when the turn comes;
 * a client that hangs up while it waits is abandoned at once here and told to the primary, which
 * takes the ticket out of its queue, or gives the turn back if it was granted meanwhile. The
 * ask and the news travel on one channel, in order.
 */
export class RemoteMediaTurns implements MediaTurnKeeper {
  private nextTicket = 1;

  constructor(
    private readonly kind: TurnKind,
    readonly limits: MediaTurnLimits,
    private readonly ask: (message: TurnAsk) => Promise<unknown>,
    private readonly tell: (message: TurnNews) => void,
  ) {}

  take(caller: string, signal?: AbortSignal): Promise<MediaTurn> {
    if (signal?.aborted === true) return Promise.resolve({ ok: false, reason: "gone" });
    const ticket = this.nextTicket++;
    return new Promise((resolve) => {
      let settled = false;
      const gone = (): void => {
        if (settled) return;
        settled = true;
        this.tell({ op: "abandon", ticket });
        resolve({ ok: false, reason: "gone" });
      };
      signal?.addEventListener("abort", gone, { once: true });
      this.ask({ kind: this.kind, caller, ticket }).then(
        (reply) => {
          signal?.removeEventListener("abort", gone);
          // Abandoned first: the primary gives back what it granted when the abandon reaches it.
          if (settled) return;
          settled = true;
          const answer = reply as TurnReply;
          if (!answer.ok) return resolve(answer);
          let released = false;
          resolve({
            ok: true,
            release: () => {
              if (released) return;
              released = true;
              this.tell({ op: "release", ticket });
            },
          });
        },
        // The primary is gone (this worker is stopping): no turn.
        () => {
          signal?.removeEventListener("abort", gone);
          if (settled) return;
          settled = true;
          resolve({ ok: false, reason: "gone" });
        },
      );
    });
  }
}

/** One ticket of a worker in the primary: its wait (to abandon) and, once granted, its turn. */
interface Ticket {
  readonly waiting: AbortController;
  release?: () => void;
  /** Abandoned or released before it was granted: give it back as soon as it is. */
  over: boolean;
}

/**
 * The primary's side: one `MediaTurns` per kind for every worker, and each worker's tickets, so
 * that the turns of a worker that exits are given back (its waiting tickets leave their queues)
 * instead of being held for good.
 */
export class MediaTurnLedger<Owner> {
  private readonly turns: Record<TurnKind, MediaTurns>;
  private readonly tickets = new Map<Owner, Map<number, Ticket>>();
  private readonly gone = new Set<Owner>();

  constructor(limits: Record<TurnKind, MediaTurnLimits>) {
    this.turns = { media: new MediaTurns(limits.media), preview: new MediaTurns(limits.preview) };
  }

  /** Answer a worker's ask for a turn, when it comes. */
  async take(owner: Owner, ask: TurnAsk): Promise<TurnReply> {
    if (this.gone.has(owner)) return { ok: false, reason: "gone" };
    let mine = this.tickets.get(owner);
    if (mine === undefined) this.tickets.set(owner, (mine = new Map()));
    const ticket: Ticket = { waiting: new AbortController(), over: false };
    mine.set(ask.ticket, ticket);
    const turn = await this.turns[ask.kind].take(ask.caller, ticket.waiting.signal);
    if (!turn.ok) {
      mine.delete(ask.ticket);
      return turn;
    }
    if (ticket.over) {
      turn.release();
      mine.delete(ask.ticket);
      return { ok: false, reason: "gone" };
    }
    ticket.release = turn.release;
    return { ok: true };
  }

  /** What a worker tells of its ticket: over (released, or its client gone while it waited). */
  news(owner: Owner, news: TurnNews): void {
    const mine = this.tickets.get(owner);
    const ticket = mine?.get(news.ticket);
    if (ticket === undefined) return;
    ticket.over = true;
    if (ticket.release !== undefined) {
      ticket.release();
      mine?.delete(news.ticket);
    } else ticket.waiting.abort();
  }

  /** `owner` has exited: its turns are given back, its waiting tickets leave their queues. */
  forget(owner: Owner): void {
    this.gone.add(owner);
    for (const ticket of this.tickets.get(owner)?.values() ?? []) {
      ticket.over = true;
      if (ticket.release !== undefined) ticket.release();
      else ticket.waiting.abort();
    }
    this.tickets.delete(owner);
  }

  /** Turns of `caller` sent or waiting, every worker's. */
  heldBy(kind: TurnKind, caller: string): number {
    return this.turns[kind].heldBy(caller);
  }
}
