import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { DrainingStdioTransport } from "../../mcp/stdio-drain.js";
import { guardedStdin } from "../../mcp/stdio-guard.js";
import { readerWithGroups } from "../../vfs/access.js";
import { localContext } from "../../vfs/request-context.js";
import { LazyFeedbackStore } from "../../store/feedback/lazy-store.js";
import { SUBMIT_FEEDBACK } from "../../mcp/feedback-tool.js";
import { createMcpServer } from "../../mcp/server.js";
import { playgroundApps } from "../../bridge/playground/apps.js";
import { docsTools } from "../../mcp/tools.js";
import { LIMITS } from "../../limits.js";
import { defineCommand } from "../command.js";
import { pagesSummary } from "../diagnostics-summary.js";
import { loadDocs, stderrLog } from "../load-docs.js";
import { CliError } from "../io.js";
import { parseGroups, withDir, withGroups, withState } from "../options.js";
import { describeProject, projectStores, resolveProject } from "../project.js";
import { parseWorkers } from "../workers-option.js";
import { checkPortFree } from "../port-probe.js";
import { stdinDrainMs } from "../stdin-drain-bound.js";
import { workerLoad } from "../worker-channel.js";
import { threadsTakeDefaultYoungGeneration } from "../worker-heap.js";
import { stateInSqlite } from "../../store/location.js";
import { requireSqlite } from "../../store/sqlite.js";

export const serveCommand = defineCommand({
  command: "serve",
  describe: "Serve the docs as an MCP server over stdio (for an editor or agent), or over HTTP with --http",
  builder: (y) =>
    withState(withGroups(withDir(y)))
      .option("base-url", { type: "string", describe: "{docs_url} used in search result links", defaultDescription: "docs.json canonical URL, else http://localhost:3000" })
      .option("watch", { type: "boolean", default: true, describe: "Reload pages, docs.json and .svcignore on change (--no-watch to turn off)" })
      .option("fetch-remote", {
        type: "boolean",
        default: true,
        describe: "Fetch API specs docs.json names by URL, in the background after start-up (--no-fetch-remote to stay offline)",
      })
      .option("http", { type: "boolean", default: false, describe: "Serve MCP over HTTP (/mcp, /authed/mcp with OAuth) instead of stdio" })
      .option("port", { type: "number", default: 3333, describe: "--http: port (0 picks a free one)" })
      .option("host", { type: "string", default: "127.0.0.1", describe: "--http: address to listen on (0.0.0.0 for every interface)" })
      .option("public-url", { type: "string", describe: "--http: the origin clients use (scheme, host, port), for OAuth metadata behind a proxy" })
      .option("trust-proxy", { type: "boolean", default: false, describe: "--http: take the client IP from X-Forwarded-For (only behind your own proxy)" })
      .option("shell-worker", {
        type: "boolean",
        describe: "Run filesystem-tool commands in a pool of worker threads, so that no command holds the server past its time limit (--no-shell-worker to run them inline)",
        defaultDescription: "on",
      })
      .option("max-connections", {
        type: "number",
        default: LIMITS.bridge.maxConnections,
        describe: "--http: connections open at once per process, every client's together; past it new ones are answered 503 (a twelfth kept for clients with nothing open, another for signed-in readers)",
      })
      .option("relay-timeout", {
        type: "number",
        default: LIMITS.relay.timeoutMs / 1000,
        describe: "--http: seconds the API playground's relay waits for an upstream's whole answer (a slow or streaming API needs more)",
      })
      .option("workers", {
        type: "string",
        default: "1",
        describe: "--http: worker processes sharing the port (an integer, or auto for one per core); they share rate limits and sessions",
      })
      .option("search-cache", {
        type: "number",
        default: LIMITS.search.cachedResults,
        describe: "Searches whose results are kept for a repeat of the same question by the same kind of reader, until the docs change (0 to keep none)",
      })
      // Written out, not imported from the bridge (that would load it before serve answers:
      // test/cli/bundle.test.ts); test/cli/main.test.ts checks it against the keys the server takes.
      .option("rate-limit", {
        type: "string",
        array: true,
        describe:
          "--http: KEY=N|off per hour (repeatable); keys ip, search, filesystem, submit_feedback, api_request, authed-search, authed-filesystem, authed-submit_feedback, authed-api_request, feedback, feedback-bytes, relay",
      }),
  run: async (args, given) => {
    let io = given;
    if (args.http && args.groups !== undefined) throw new CliError("--groups previews pages over stdio; over --http each reader's groups come from their token", 2);
    const workers = parseWorkers(args.workers);
    if (!args.http && workers !== 1) throw new CliError("--workers is for --http: over stdio one process serves one client", 2);
    // The HTTP stack (Hono, the bridge, OAuth, the worker processes) is loaded only to serve
    // over HTTP: a stdio server answers its client sooner without it (docs/measurements.md).
    const http = args.http ? await Promise.all([import("../serve-http.js"), import("../serve-workers.js")]) : undefined;
    // The HTTP options checked before the docs load: a mistaken `--rate-limit` or `--public-url`
    // was refused only after the whole site had been read and indexed (seconds on a large one),
    // its loading lines printed above the error.
    if (http !== undefined) http[0].httpSettings(args);
    // And the state's driver: without the SQLite module `serve --http` read and indexed a whole
    // site (and wrote its cache) before saying it could not keep its state.
    if (http !== undefined && stateInSqlite(args.state, io.cwd, io.env)) requireSqlite();
    const worker = http !== undefined && http[1].isHttpWorker(io);
    // And the port (a busy one was found after the whole load); a worker listens on its primary's.
    if (http !== undefined && !worker) await checkPortFree(args.host, args.port);
    // The primary of several workers loads no docs: it starts the workers and holds what they share.
    if (http !== undefined && workers > 1 && !worker) return http[1].serveWorkers(args, workers, io, stderrLog(io));
    // A worker's lines name it: N processes write to one stderr.
    // (Not a spread: that would read `stopSignal` now, taking the signals over during the load.)
    // Before any thread starts: the young generation its primary sized is the main thread's alone (worker-heap.ts).
    if (worker) threadsTakeDefaultYoungGeneration(io.env);
    if (worker) io = Object.create(given, { stderr: { value: (text: string) => given.stderr(text.replace(/^svc-mcp: /gm, `svc-mcp: worker ${process.pid}: `)) } }) as typeof given;
    const log = stderrLog(io);
    // Over stdio too: a command in this thread held the one event loop (pings, cancellation,
    // every other call) until it ended, and code that never yields (diff's search, an awk loop)
    // ran for a minute past its 5 s limit; in a worker it is ended at its limit. Sized for one
    // client, and started once `tools/list` is answered (`shellLater`, `afterToolsList`).
    const shellWorker = args["shell-worker"] === false ? false : args.http ? true : { ...LIMITS.shellWorker.stdio };
    const searchCache = wholeSearches(args["search-cache"]);
    const drainMs = stdinDrainMs(io.env);
    // Ready means ready (docs/search.md, "Start-up"): the search index is built before the server
    // answers anything, after the watcher's first scan (which then does not wait behind index
    // slices). Over stdio `tools/list` is answered only once a search can be; over HTTP the port
    // is opened only then. A build long enough to notice reports its progress on stderr.
    const indexing = args.http ? { indexSliceMs: Number.POSITIVE_INFINITY, indexLater: true } : { indexLater: true };
    // Watched from before the load reads anything: a change made while the server starts is applied before it answers (issue 25).
    // The shell pool starts after the index build over HTTP too (issue 22: started at load, it ran beside the build), and the cache's write waits for the port.
    const runtime = await workerLoad(worker, loadDocs(io, args.dir, { keepTimes: { state: args.state, untilServing: true, wholes: args.http }, shellWorker, shellLater: true, searchCache, watch: args.watch, learnVectors: true, analyseWhileLoading: true, ...indexing, ...(args.http ? { writeCacheOnceServing: true } : {}), ...(args["base-url"] !== undefined ? { baseUrl: args["base-url"] } : {}) }));
    // Remote specs never delay start-up: fetched once serving, their pages arrive as a reload.
    const afterStart = (): void => {
      runtime.serving();
      if (args["fetch-remote"]) void runtime.fetchRemoteSpecs(fetch);
    };
    if (args.watch) await runtime.watch();
    await runtime.whenIndexed();
    if (http !== undefined) {
      const role = worker ? await http[1].workerRole() : undefined;
      try {
        return await http[0].serveHttp(args, io, runtime, log, afterStart, role);
      } catch (error) {
        // A worker that could not start (its port in use) ends with its error and code, and
        // its primary stops the others (it had hung, holding its channel, until killed).
        role?.release();
        throw error;
      } finally {
        await runtime.close();
      }
    }
    // A bad `--project-id` (or any failure before serving) ends the process with its message: the
    // loaded runtime (its watcher) is closed first, or it kept a stdio server alive for ever
    // after printing the error (adversary round 31 F2).
    let project: Awaited<ReturnType<typeof resolveProject>>;
    try {
      project = await resolveProject(io, args, runtime.site.config.name);
      if (io.streams === undefined) throw new CliError("serve needs the process's standard input and output");
    } catch (error) {
      await runtime.close();
      throw error;
    }
    log(describeProject(project));
    // Opened when an agent first sends feedback: most sessions never do. Where the store's driver
    // is missing (better-sqlite3 is an optional peer dependency) the tool is left out rather than offered broken.
    const stores = projectStores(project);
    const unavailable = stores.feedbackUnavailable();
    const feedback = unavailable === undefined ? new LazyFeedbackStore(() => stores.feedback()) : undefined;
    if (unavailable !== undefined) log(`${SUBMIT_FEEDBACK} is left out: ${unavailable}`);
    const tools = docsTools(feedback !== undefined ? { feedback: { store: feedback, projectId: project.id } } : {});
    // The author's local preview: their `--groups`, the auth setting does not apply (docs/bridge.md).
    const context = localContext(readerWithGroups(parseGroups(args.groups)));
    // The reader's view is made now, not by the first request (a second on a large site), and
    // its search state too: ready means a search answers within a second of `tools/list`
    // (issue 22). After the list it took the first search 0.8-1.2 s at 50,000 pages; before the
    // list, the list waits for it instead, as HTTP's port does.
    runtime.readerState(context);
    runtime.prepareSearch(context);
    // API pages' playgrounds as MCP Apps, for a client that renders them: the relay as the local reader.
    const apps = playgroundApps({ runtime });
    // Lines the SDK would drop unanswered are answered first, as HTTP answers them (`stdio-guard.ts`).
    const stdin = guardedStdin(io.streams.stdin, { stdout: io.streams.stdout, log, now: Date.now });
    // Closing our stdin is how a client stops us: what it sent before (while loading too) is answered first.
    const transport = new DrainingStdioTransport(stdin, io.streams.stdout as never, { drainMs, log });
    // The SDK's stdio entry takes both generations: a 2025 `initialize` or a 2026-07-28 request
    // (or `server/discover`) opens the connection, and one server from the factory serves it.
    // The shell's interpreter is loaded once the client has its tool list, not before: its first
    // command normally comes later, and the list sooner (docs/measurements.md, "Start-up").
    const afterToolsList = (): void => {
      runtime.prepareShell(context);
    };
    const connection = serveStdio(() => createMcpServer({ runtime, context, endpoint: "stdio", tools, apps, afterToolsList }).server, {
      transport,
      // One line: a schema error's message is a whole zod dump.
      onerror: (error) => log(`MCP: ${(error.message.split("\n")[0] ?? "").slice(0, 200)}`),
    });
    const toolList = tools.map((t) => t.name(runtime.names)).join(", ");
    log(`serving "${runtime.site.config.name}" (${pagesSummary(runtime.site.pages.values())}) over stdio; tools ${toolList}${args.watch ? "; watching for changes" : ""}`);
    afterStart();
    const signalled = await Promise.race([transport.closed.then(() => false), io.stopSignal.then(() => true)]);
    await connection.close();
    await stores.close();
    await runtime.close();
    await flushed(io.streams.stdout);
    // Stopped by a signal while the client still holds our stdin open (a supervisor, `timeout`, a
    // hung client): stop reading it, or the open pipe alone kept the process alive until the
    // client closed it (adversary round 17 F4).
    if (signalled) (io.streams.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    return 0;
  },
});

/** `--search-cache`: a whole number of searches, else the user's mistake. */
function wholeSearches(given: number): number {
  if (!Number.isInteger(given) || given < 0) throw new CliError(`--search-cache must be a whole number of searches (0 to keep none), got ${String(given)}`, 2);
  return given;
}

/** Resolves once what was written to `stdout` before has been handed to the system (or the stream has failed). */
function flushed(stdout: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stdout.write("", () => resolve()));
}
