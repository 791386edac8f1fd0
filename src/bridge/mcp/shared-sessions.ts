/** What a worker asks the process that keeps the live sessions of every worker (`SessionLedger`), answered. */
export type SessionAsk =
  /** A session was opened here for `caller` (its endpoint and owner): it lives, held by this worker. */
  | { readonly op: "opened"; readonly id: string; readonly caller: string }
  /** May this worker take up session `id` (its signed id is valid)? `true` if it lives; this worker then holds it too. */
  | { readonly op: "hold"; readonly id: string }
  /** The session ended here (DELETE, eviction): answered once every other worker holding it has closed it. */
  | { readonly op: "end"; readonly id: string };

/** What one side tells the other, unanswered: a worker dropped its idle copy; a client cancelled a call of the session. */
export type SessionNews = { readonly op: "dropped"; readonly id: string } | SessionCancel;

/** A client's `notifications/cancelled` for a call of session `id`, passed to the other workers holding it. */
export interface SessionCancel {
  readonly op: "cancel";
  readonly id: string;
  readonly requestId: string | number;
  readonly reason?: string;
}

/** What a worker does when told of another worker's session end or cancellation. */
export interface SessionListener {
  /** Session `id` ended in another worker: close it here (its running calls stop); resolved once closed. */
  end(id: string): Promise<void>;
  /** A client cancelled call `requestId` of session `id` through another worker: stop it if it runs here. */
  cancel(news: SessionCancel): void;
}

/**
 * The 2025 sessions of `serve --http --workers N`, shared by the workers. Each worker holds a copy
 * of each session a request of it reached (`SessionTable`); which sessions live is kept by the
 * primary (`SessionLedger`), so that a session ended anywhere (DELETE, eviction) is ended
 * everywhere and never taken up again, and a signed id alone (`SessionIds`) no longer revives it
 * (adversary round 26, F1). `key` signs the ids.
 */
export interface SharedSessions {
  readonly key: Buffer;
  /** Session `id` was opened here for `caller` (its endpoint and owner: its bound of sessions is the server's). */
  opened(id: string, caller: string): Promise<void>;
  /** Whether session `id` lives; if so this worker holds it from now. */
  hold(id: string): Promise<boolean>;
  /** This worker closed its idle copy: the session ends once no worker holds it (nothing to wait for). */
  dropped(id: string): void;
  /** The session ended here: resolved once every other worker holding it has closed it. */
  end(id: string): Promise<void>;
  /** A client cancelled a call of the session here: the other workers holding it stop it (nothing to wait for). */
  cancel(news: SessionCancel): void;
  /** Who closes this worker's sessions and stops its calls on the other workers' word (one listener: the MCP endpoint). */
  listen(listener: SessionListener): void;
}

/**
 * A worker's `SharedSessions`: asks go to the primary over the worker's channel (`ask`), news is
 * told on it (`tell`), and the primary's word comes in through `endHere` and `cancelHere`. Fail
 * closed: a primary that does not answer (gone: the worker is stopping) makes `hold` false, so an
 * id is then unknown rather than revived unchecked.
 */
export class RemoteSessions implements SharedSessions {
  private listener: SessionListener | undefined;

  constructor(
    readonly key: Buffer,
    private readonly ask: (message: SessionAsk) => Promise<unknown>,
    private readonly tell: (message: SessionNews) => void,
  ) {}

  async opened(id: string, caller: string): Promise<void> {
    await this.ask({ op: "opened", id, caller });
  }

  async hold(id: string): Promise<boolean> {
    return (await this.ask({ op: "hold", id }).catch(() => false)) === true;
  }

  dropped(id: string): void {
    this.tell({ op: "dropped", id });
  }

  async end(id: string): Promise<void> {
    await this.ask({ op: "end", id });
  }

  cancel(news: SessionCancel): void {
    this.tell(news);
  }

  listen(listener: SessionListener): void {
    this.listener = listener;
  }

  /** The primary: session `id` ended in another worker. */
  async endHere(id: string): Promise<void> {
    await this.listener?.end(id);
  }

  /** The primary: a call of a session held here was cancelled through another worker. */
  cancelHere(news: SessionCancel): void {
    this.listener?.cancel(news);
  }
}
