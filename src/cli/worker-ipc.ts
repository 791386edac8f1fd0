import type { ListenPlaceRequest } from "../bridge/mcp/shared-listen-quota.js";
import type { SessionAsk, SessionCancel, SessionNews } from "../bridge/mcp/shared-sessions.js";
import type { LimiterRequest } from "../bridge/middleware/shared-limiter.js";
import type { RelayPlaceRequest } from "../bridge/playground/shared-relay-places.js";
import type { SiteSessionRequest } from "../bridge/web/site-sessions.js";
import type { TurnAsk, TurnNews } from "../bridge/web/preview/shared-media-turns.js";
import type { ElsewhereNews, ShellPlaceRequest, StandingNews } from "../engine/shell/shared-places.js";

/**
 * The messages between the primary of `serve --http --workers N` and its workers, over the
 * IPC channel node:cluster opens. A worker asks (`hello`, the rate-limit counters, the site
 * sign-ins, the playground relay's places, the shell pool's places of its callers, the places of
 * `subscriptions/listen` streams (`listen-place`), a turn of a caller's media transfers or
 * preview calls (`turn`, answered when it comes; told `turn` news when it is over), `listen`: to
 * be handed connections, the answer a `ListenReply`) and is answered, tells the primary when it is serving (`ready`), when the site's persistent cache
 * it wrote is on disk or will not be (`settled`: the next worker is started then and reads it),
 * how many of the connections it was handed have closed (`closed`, a few at a time) and that it
 * drains (`draining`: it is handed no more). The primary tells a worker how many commands of a
 * caller it holds places of now run in the other workers (`shell-elsewhere`), and what another
 * worker's shell pool learnt of a caller's standing (`shell-standing`, passed on from its `standing` ask).
 * The 2025 MCP sessions are kept live by the primary (`SessionLedger`): a worker asks it when it
 * opens, takes up or ends one (`session`), tells it when it drops an idle copy or a client cancels
 * a call (`session` news, a cancellation passed on to the other holders), and is asked by it to
 * close a session ended on another worker (`session-end`). Connections themselves travel beside these, as the
 * socket of a `CONNECTION_MESSAGE` (connection-handout.ts).
 * The primary stops a worker with SIGTERM, the signal a worker stops on when run alone.
 */
export type WorkerAsk =
  | { readonly t: "hello" }
  | { readonly t: "listen" }
  | ({ readonly t: "limiter" } & LimiterRequest)
  | ({ readonly t: "site-session" } & SiteSessionRequest)
  | ({ readonly t: "relay-place" } & RelayPlaceRequest)
  | ({ readonly t: "listen-place" } & ListenPlaceRequest)
  | ({ readonly t: "turn" } & TurnAsk)
  | ({ readonly t: "shell-place" } & ShellPlaceRequest)
  | ({ readonly t: "session" } & SessionAsk);
/** What the primary asks a worker: close session `id`, ended on another worker (answered once closed). */
export interface PrimaryAsk {
  readonly t: "session-end";
  readonly id: string;
}
/** What every worker is given at start: the key that signs MCP session ids (any worker resumes them). */
export interface Hello {
  readonly sessionKey: string;
}
export type WorkerNews =
  | { readonly t: "ready"; readonly lines: readonly string[] }
  | { readonly t: "settled" }
  | { readonly t: "closed"; readonly n: number; readonly shed: number }
  | { readonly t: "draining" }
  | ({ readonly t: "turn" } & TurnNews)
  | ({ readonly t: "session" } & SessionNews);
/** What the primary tells a worker unasked: the most connections it should hold (connection-handout.ts), a caller's commands running in the other workers, what another worker learnt of a caller's standing. */
export type PrimaryNews =
  | { readonly t: "share"; readonly most: number }
  | ({ readonly t: "shell-elsewhere" } & ElsewhereNews) | ({ readonly t: "shell-standing" } & StandingNews) | ({ readonly t: "session" } & SessionCancel);

/** One end of the channel: a cluster `Worker` in the primary, `process` in a worker. */
export interface Port {
  send(message: unknown, callback: (error: Error | null) => void): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
}

/**
 * Written with a callback, always: a send on a channel that has closed, or whose other end died
 * before its exit was seen (EPIPE), is reported to a callback; without one Node emits it as an
 * `error` event on the process's `Worker` (or `process`), and an unheard `error` ended the
 * primary, and every worker with it, when a worker was killed while the primary still had an
 * answer or news for it (adversary round 41, F1). A message that cannot be written is dropped:
 * the other side is gone, and its exit (or `disconnect`) is what the rest of the state hears.
 */
function dropIfGone(): void {}

type Envelope =
  | { readonly svc: "ask"; readonly id: number; readonly body: unknown }
  | { readonly svc: "answer"; readonly id: number; readonly body?: unknown; readonly error?: string }
  | { readonly svc: "news"; readonly body: unknown };

function isEnvelope(m: unknown): m is Envelope {
  return typeof m === "object" && m !== null && "svc" in m;
}

/**
 * Requests with answers over a `Port`, matched by id. `handle` answers the other side's asks
 * (a throw becomes an error on the asking side); `onNews` receives what it is told.
 */
export class Rpc<Ask, In, Out> {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (body: unknown) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly port: Port,
    handlers: { readonly handle?: (ask: never) => Promise<unknown>; readonly onNews?: (news: In) => void },
  ) {
    port.on("message", (m) => {
      if (!isEnvelope(m)) return;
      if (m.svc === "news") handlers.onNews?.(m.body as In);
      else if (m.svc === "answer") this.settle(m);
      else if (handlers.handle !== undefined) {
        handlers.handle(m.body as never).then(
          (body) => this.port.send({ svc: "answer", id: m.id, body } satisfies Envelope, dropIfGone),
          (error: unknown) => this.port.send({ svc: "answer", id: m.id, error: (error as Error).message ?? String(error) } satisfies Envelope, dropIfGone),
        );
      }
    });
  }

  ask(body: Ask): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // An ask that cannot be written fails at once (waiting for the other side's end would wait
      // for its `fail`, which may already have run).
      this.port.send({ svc: "ask", id, body } satisfies Envelope, (error) => {
        if (error === null || !this.waiting.delete(id)) return;
        reject(new Error(`the other process is gone (${(error as NodeJS.ErrnoException).code ?? error.message})`));
      });
    });
  }

  tell(body: Out): void {
    this.port.send({ svc: "news", body } satisfies Envelope, dropIfGone);
  }

  /** The other side is gone: every ask still waiting fails with `why`. */
  fail(why: string): void {
    for (const w of this.waiting.values()) w.reject(new Error(why));
    this.waiting.clear();
  }

  private settle(m: Extract<Envelope, { svc: "answer" }>): void {
    const w = this.waiting.get(m.id);
    if (w === undefined) return;
    this.waiting.delete(m.id);
    if (m.error !== undefined) w.reject(new Error(m.error));
    else w.resolve(m.body);
  }
}
