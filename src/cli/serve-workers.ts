import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import { Socket } from "node:net";
import { FixedWindowLimiter } from "../bridge/middleware/rate-limit.js";
import { answerLimiterRequest, type LimiterReply, RemoteLimiter } from "../bridge/middleware/shared-limiter.js";
import { SessionLedger } from "../bridge/mcp/session-ledger.js";
import { RemoteSessions, type SessionAsk, type SessionNews } from "../bridge/mcp/shared-sessions.js";
import { RelayPlaces } from "../bridge/playground/relay-places.js";
import { RelayPlaceLedger, RemoteRelayPlaces } from "../bridge/playground/shared-relay-places.js";
import { ListenQuota } from "../bridge/mcp/listen-quota.js";
import { ListenQuotaLedger, RemoteListenQuota } from "../bridge/mcp/shared-listen-quota.js";
import { previewCallLimits } from "../bridge/web/preview/preview-api.js";
import { type MediaTurnLimits, mediaTurnLimits } from "../bridge/web/preview/media-turns.js";
import { MediaTurnLedger, RemoteMediaTurns, type TurnKind } from "../bridge/web/preview/shared-media-turns.js";
import { answerSiteSessionRequest, RemoteSiteSessions, SiteSessions } from "../bridge/web/site-sessions.js";
import { LIMITS } from "../limits.js";
import { plural } from "./diagnostics-summary.js";
import { type CliIO, LAUNCH_CWD_ENV } from "./io.js";
import { type HttpServeArgs, httpSettings, type WorkerRole } from "./serve-http.js";
import { httpWorkerEnv, httpWorkerExecArgv, SIZED_YOUNG_GENERATION_ENV } from "./worker-heap.js";
import { CONNECTION_MESSAGE, ConnectionHandout, handedConnections, type ListenReply, type WorkerChannel } from "./connection-handout.js";
import { releaseChannel } from "./worker-channel.js";
import { type Hello, type Port, type PrimaryAsk, type PrimaryNews, Rpc, type WorkerAsk, type WorkerNews } from "./worker-ipc.js";
import { ShellPlaceLedger } from "../engine/shell/place-ledger.js";
import { RemoteShellPlaces, type StandingNews } from "../engine/shell/shared-places.js";

/** The environment variable that marks a process as a worker of `serve --http --workers N`. */
const WORKER_ENV = "SVC_MCP_HTTP_WORKER";

/** Whether this process is a worker its primary started (it then serves one share of the port). */
export function isHttpWorker(io: CliIO): boolean {
  return cluster.isWorker && io.env[WORKER_ENV] === "1";
}

/**
 * A worker's side of the channel: the primary's counters, the session key, and the primary's
 * `stop`. A worker whose primary is gone (killed with -9) stops too: nobody would replace it,
 * and its counters are gone.
 */
export async function workerRole(): Promise<WorkerRole> {
  let stopped!: () => void;
  const stop = new Promise<void>((resolve) => (stopped = resolve));
  const shellPlaces = new RemoteShellPlaces((request) => rpc.ask({ t: "shell-place", ...request }));
  const rpc = new Rpc<WorkerAsk, PrimaryNews, WorkerNews>(process as unknown as Port, {
    // Only about sessions this worker holds, so never before `sessions` exists (it needs the key `hello` brings).
    handle: async (ask: PrimaryAsk): Promise<void> => sessions.endHere(ask.id),
    onNews: (news): void =>
      news.t === "session" ? sessions.cancelHere(news) : news.t === "shell-standing" ? shellPlaces.standing(news) : news.t === "share" ? connections.share(news.most) : shellPlaces.elsewhere(news),
  });
  process.once("disconnect", () => {
    rpc.fail("the primary process is gone");
    stopped();
  });
  // A caller's turns are queued by the primary; news of one over is not told once it is gone.
  const remoteTurns = (kind: TurnKind, limits: MediaTurnLimits): RemoteMediaTurns =>
    new RemoteMediaTurns(kind, limits, (ask) => rpc.ask({ t: "turn", ...ask }), (news) => {
      if (process.connected) rpc.tell({ t: "turn", ...news });
    });
  const connections = handedConnections(
    process as unknown as WorkerChannel,
    async () => (await rpc.ask({ t: "listen" })) as ListenReply,
    (news) => rpc.tell(news),
  );
  const hello = (await rpc.ask({ t: "hello" })) as Hello;
  const sessions: RemoteSessions = new RemoteSessions(
    Buffer.from(hello.sessionKey, "base64"),
    (ask) => rpc.ask({ t: "session", ...ask }),
    // A worker whose primary is gone is stopping: nothing to tell.
    (news) => {
      if (process.connected) rpc.tell({ t: "session", ...news });
    },
  );
  return {
    limiter: new RemoteLimiter(async (request) => (await rpc.ask({ t: "limiter", ...request })) as LimiterReply),
    sessions,
    siteSessions: new RemoteSiteSessions((request) => rpc.ask({ t: "site-session", ...request })),
    connections,
    relayPlaces: new RemoteRelayPlaces((request) => rpc.ask({ t: "relay-place", ...request })),
    listenPlaces: new RemoteListenQuota((request) => rpc.ask({ t: "listen-place", ...request })),
    turns: { media: remoteTurns("media", mediaTurnLimits()), preview: remoteTurns("preview", previewCallLimits()) },
    shellPlaces,
    announce: (lines) => rpc.tell({ t: "ready", lines }),
    // Possibly after the stop (a cache write finished at close): a closed channel is not written to.
    settled: () => {
      if (process.connected) rpc.tell({ t: "settled" });
    },
    stop,
    leave: () => {
      if (process.connected) process.disconnect();
    },
    release: releaseChannel,
  };
}


/**
 * `serve --http --workers N` in the primary: N worker processes (node:cluster) serve one port;
 * the primary loads no docs and serves no request. It accepts the connections and hands each to
 * the worker holding the fewest (`ConnectionHandout`), holds the rate-limit counters for all
 * workers (exact: every take is decided here in turn), the playground relay's places (a caller's
 * bound and the total are for the server, not per worker), the shell pools' places of each caller
 * (what one caller may hold and run at once is the server's bound, not each worker's) and the site sign-ins (a cookie one
 * worker set signs in on all), hands each worker the key that signs
 * session ids and keeps which sessions live (`SessionLedger`: one ended on a worker ends on all), prints the start-up lines once the first worker listens, starts a worker in place of
 * one that exits, and on SIGINT/SIGTERM closes the port, tells every worker to drain and waits for them.
 *
 * The workers of a start are started one after another: the next once the last is serving and
 * its persistent cache of the site is written (or will not be). Why (issue 22): started
 * together, each loaded and indexed the whole site at once on the same cores, so the port opened
 * only when the slowest had (on a 50,000-page site, N times the CPU before anyone was served);
 * now the first worker has the machine to itself and serves as soon as it can (a worker is handed
 * connections only once it asks, ready, and the port opens with the first), and the next starts from its cache.
 *
 * Each worker watches the docs itself: it must rebuild its own index anyway, and the primary then
 * never loads the site (it stays small and never pauses for a reload while it hands out
 * connections and answers counters).
 */
export async function serveWorkers(args: HttpServeArgs, count: number, io: CliIO, log: (message: string) => void): Promise<number> {
  const { rateLimits } = httpSettings(args);
  const shared = new SharedState(rateLimits.windowMs);
  const hello: Hello = { sessionKey: randomBytes(32).toString("base64") };
  const ready = new Set<Worker>();
  const live = new Set<Worker>();
  /** The start-up lines are printed (the first worker listens). */
  let announced = false;
  /** Every worker of the start has been serving once (the pids line is printed). */
  let allServing = false;
  /** Workers of the start not yet started: each waits for the one before it to settle. */
  let toStart = count;
  let stopping = false;
  let exitCode = 0;
  /** Replacements in a row that exited before they listened: a broken start, not a crash to repair. */
  let failedStarts = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const handout = new ConnectionHandout<Worker>(args.host.replace(/^\[(.*)\]$/, "$1"), args.port, log, undefined, (w, most) => shared.tell(w, { t: "share", most }));

  // SIGTERM to each worker: its own stop signal, whether it is still loading or serving; it drains.
  const stopAll = (): void => {
    if (stopping) return;
    stopping = true;
    handout.close();
    if (live.size === 0) finish();
    for (const w of live) w.process.kill("SIGTERM");
    // A worker that does not stop within the drain time and a margin is ended.
    setTimeout(() => {
      for (const w of live) {
        log(`worker process ${w.process.pid} did not stop within ${(LIMITS.bridge.drainMs + LIMITS.serve.stopMarginMs) / 1000} s; killing it`);
        w.process.kill("SIGKILL");
      }
    }, LIMITS.bridge.drainMs + LIMITS.serve.stopMarginMs).unref();
  };

  const launch = workerLaunch(io);
  cluster.setupPrimary({ execArgv: launch.execArgv });
  const start = (): void => {
    const worker = cluster.fork(launch.env);
    live.add(worker);
    const rpc = new Rpc<PrimaryAsk, WorkerNews, PrimaryNews>(worker, {
      handle: async (ask: WorkerAsk) =>
        ask.t === "hello"
          ? hello
          : ask.t === "listen"
            ? handout.open(worker)
            : shared.answer(worker, ask),
      onNews: (news: WorkerNews) => {
        if (news.t === "session") return shared.sessionNews(worker, news);
        if (news.t === "turn") return shared.turns.news(worker.id, news);
        if (news.t === "settled") return startNext();
        if (news.t === "closed") return handout.closedBy(worker, news.n, news.shed);
        if (news.t === "draining") return handout.draining(worker);
        ready.add(worker);
        failedStarts = 0;
        if (!announced) {
          announced = true;
          for (const line of news.lines) log(line);
        } else if (allServing) {
          log(`worker process ${worker.process.pid} is serving`);
        }
        if (!allServing && ready.size === count) {
          allServing = true;
          log(`${plural(count, "worker process", "worker processes")} on one port (pids ${[...ready].map((w) => w.process.pid).join(", ")})`);
        }
      },
    });
    shared.joined(worker, rpc);
    watchChannel(worker, handout, log);
    worker.on("exit", (code, signal) => {
      handout.gone(worker);
      // First, before a replacement starts or the exit is logged: its places are free again.
      shared.gone(worker);
      const duringStop = stopping;
      live.delete(worker);
      const wasReady = ready.delete(worker);
      if (!stopping) {
        const how = signal !== null ? `signal ${signal}` : `code ${code}`;
        if (wasReady || (announced && ++failedStarts < LIMITS.serve.maxFailedStarts)) {
          log(`warning: worker process ${worker.process.pid} exited with ${how}; starting another`);
          start();
          return;
        }
        // It could not start (a bad --dir, a port in use): its own error is on stderr already.
        log(`a worker process exited with ${how} before it was serving; stopping`);
        exitCode = code !== null && code !== 0 ? code : 1;
        stopAll();
      }
      // A worker that had to be killed, or failed, while stopping makes the stop a failure. One
      // still starting may die of the stop signal itself, before it could set its handler.
      const stoppedByUs = !wasReady && (signal === "SIGTERM" || signal === "SIGINT");
      if (duringStop && !stoppedByUs && (signal !== null || code !== 0)) {
        log(`worker process ${worker.process.pid} exited with ${signal !== null ? `signal ${signal}` : `code ${code}`} while stopping`);
        if (exitCode === 0) exitCode = 1;
      }
      if (stopping && live.size === 0) finish();
    });
  };

  // The next worker of the start, if any is left and the server is not stopping.
  function startNext(): void {
    if (stopping || toStart === 0) return;
    toStart--;
    start();
  }
  startNext();
  void io.stopSignal.then(stopAll);
  // Sessions whose last worker exited are kept for the idle time, then dropped (`SessionLedger`).
  const sweeper = setInterval(() => shared.sweepSessions(), LIMITS.bridge.sessionSweepMs);
  sweeper.unref();
  await finished;
  clearInterval(sweeper);
  return exitCode;
}

/**
 * The primary's side of a worker's channel, beside its `Rpc`: a connection on its way to the
 * worker as it began to drain, given back; and once the channel closes (the worker is dying, its
 * exit comes later) it is handed no more connections. What a write to a dying worker's channel
 * fails with is heard here, never as an unheard `error` that ended the primary (adversary round
 * 41, F1); the worker's exit is what the state acts on.
 */
function watchChannel(worker: Worker, handout: ConnectionHandout<Worker>, log: (message: string) => void): void {
  worker.on("message", (message: unknown, socket: unknown) => {
    if (message === CONNECTION_MESSAGE && socket instanceof Socket) handout.givenBack(worker, socket);
  });
  worker.once("disconnect", () => handout.draining(worker));
  worker.on("error", (error: Error) => log(`warning: worker process ${worker.process.pid}: ${error.message}`));
}

/**
 * How each worker is started: its young generation sized for search traffic, and glibc's malloc
 * told to give large blocks back (worker-heap.ts).
 */
function workerLaunch(io: CliIO): { execArgv: string[]; env: Record<string, string> } {
  const execArgv = httpWorkerExecArgv(process.execArgv, io.env.NODE_OPTIONS);
  // Sized here (not by the operator): the worker gives its other threads V8's default back (`threadsTakeDefaultYoungGeneration`).
  const sized: Record<string, string> = execArgv.length > process.execArgv.length ? { [SIZED_YOUNG_GENERATION_ENV]: "1" } : {};
  return { execArgv, env: { [WORKER_ENV]: "1", [LAUNCH_CWD_ENV]: io.cwd, ...sized, ...httpWorkerEnv(io.env) } };
}

/**
 * What the primary holds for every worker, and its answers to their asks of it: the rate-limit
 * counters, the site sign-ins, the relay's places and the shell pools' places of each caller
 * (each counted by one process for all workers: a worker counting its own let a caller hold its
 * bound in each, issue 25), and which 2025 MCP sessions live (a signed id alone let any worker
 * revive a session ended by DELETE: adversary round 26). The places are recorded with the worker holding them, and given back
 * when it exits (`gone`).
 */
class SharedState {
  private readonly limiter: FixedWindowLimiter;
  private readonly siteSessions = new SiteSessions();
  private readonly relayPlaces = new RelayPlaceLedger<number>(new RelayPlaces());
  /** Each caller's media transfers and preview calls, every worker's (adversary round 39, F1). */
  readonly turns = new MediaTurnLedger<number>({ media: mediaTurnLimits(), preview: previewCallLimits() });
  /** Open `subscriptions/listen` streams per endpoint and caller, every worker's (adversary round 39, F1). */
  private readonly listenPlaces = new ListenQuotaLedger<number>(new ListenQuota({ maxStreams: LIMITS.bridge.maxListenStreams, maxStreamsPerCaller: LIMITS.bridge.maxListenStreamsPerCaller }));
  private readonly channels = new Map<number, { readonly worker: Worker; readonly rpc: Rpc<PrimaryAsk, WorkerNews, PrimaryNews> }>();
  /** The 2025 MCP sessions that live, and the workers holding each. */
  private readonly sessions = new SessionLedger<number>(LIMITS.bridge.sessionIdleMs);
  private readonly shellPlaces = new ShellPlaceLedger(
    (id, news) => {
      const to = this.channels.get(id);
      // A worker whose channel has closed is about to exit: its places go with it (`gone`).
      if (to?.worker.isConnected() === true) to.rpc.tell({ t: "shell-elsewhere", ...news });
    },
    (from, news) => this.passStanding(from, news),
  );

  constructor(windowMs: number) {
    this.limiter = new FixedWindowLimiter(windowMs);
  }

  /** `worker` serves from now, told the primary's news over `rpc`. */
  joined(worker: Worker, rpc: Rpc<PrimaryAsk, WorkerNews, PrimaryNews>): void {
    this.channels.set(worker.id, { worker, rpc });
  }

  /** Tell `worker` `news`, unless its channel has closed (it is about to exit). */
  tell(worker: Worker, news: PrimaryNews): void {
    const to = this.channels.get(worker.id);
    if (to?.worker.isConnected() === true) to.rpc.tell(news);
  }

  answer(worker: Worker, ask: Exclude<WorkerAsk, { t: "hello" } | { t: "listen" }>): unknown {
    if (ask.t === "limiter") return answerLimiterRequest(this.limiter, ask);
    if (ask.t === "relay-place") return this.relayPlaces.answer(worker.id, ask);
    if (ask.t === "listen-place") return this.listenPlaces.answer(worker.id, ask);
    if (ask.t === "turn") return this.turns.take(worker.id, ask);
    if (ask.t === "shell-place") return this.shellPlaces.answer(worker.id, ask);
    if (ask.t === "session") return this.sessionAnswer(worker.id, ask);
    return answerSiteSessionRequest(this.siteSessions, ask);
  }

  /**
   * A worker's ask about a 2025 session. An end is answered once every other worker holding the
   * session has closed it (or gone): the client's DELETE is answered after that, so whichever
   * worker its next request reaches answers the id as unknown.
   */
  private async sessionAnswer(from: number, ask: SessionAsk): Promise<boolean | Record<string, never>> {
    const answer = this.sessions.answer(from, ask, Date.now());
    if ("held" in answer) {
      // Past its caller's bound: the caller's oldest session ends on every worker holding it (the
      // asking one too), before the new one's `initialize` is answered, as a DELETE is answered
      // once every holder closed it: the client's next request with the old id is unknown anywhere.
      const evicted = answer.evicted;
      if (evicted !== undefined) await this.closeIn(evicted.closeIn, evicted.id);
      return answer.held;
    }
    await this.closeIn(answer.closeIn, ask.id);
    return {};
  }

  /** Have each of `workers` close its copy of session `id`; resolved once all have (or gone). */
  private async closeIn(workers: readonly number[], id: string): Promise<void> {
    await Promise.allSettled(
      workers.map((worker) => {
        const to = this.channels.get(worker);
        return to?.worker.isConnected() === true ? to.rpc.ask({ t: "session-end", id }) : undefined;
      }),
    );
  }

  /** What a worker tells of a session: its idle copy dropped, or a cancellation to pass to the other workers holding it. */
  sessionNews(worker: Worker, news: SessionNews): void {
    if (news.op === "dropped") return this.sessions.dropped(worker.id, news.id, Date.now());
    for (const id of this.sessions.holdersBesides(worker.id, news.id)) {
      const to = this.channels.get(id);
      if (to?.worker.isConnected() === true) to.rpc.tell({ t: "session", ...news });
    }
  }

  sweepSessions(): void {
    this.sessions.sweep(Date.now());
  }

  /**
   * What worker `from`'s shell pool learnt of a caller's standing, told to every other worker:
   * a caller heavy in one pool is heavy in all, one trusted in one is trusted in all, as in one
   * process. Only changes travel (a long hold, a first answer), not every answer.
   */
  private passStanding(from: number, news: StandingNews): void {
    for (const [id, to] of this.channels) if (id !== from && to.worker.isConnected()) to.rpc.tell({ t: "shell-standing", ...news });
  }

  /** `worker` has exited: every place it held is given back. */
  gone(worker: Worker): void {
    this.relayPlaces.forget(worker.id);
    this.listenPlaces.forget(worker.id);
    this.turns.forget(worker.id);
    // An end waiting for it to close a session waits no more.
    this.channels.get(worker.id)?.rpc.fail("the worker process is gone");
    this.channels.delete(worker.id);
    this.shellPlaces.forget(worker.id);
    this.sessions.forget(worker.id, Date.now());
  }
}
