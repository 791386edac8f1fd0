import { LIMITS } from "../../limits.js";
import { defineCommand } from "../command.js";
import { loadDocs, stderrLog } from "../load-docs.js";
import { openBrowser } from "../open-browser.js";
import { withDir, withState } from "../options.js";
import { serveHttp } from "../serve-http.js";
import { CliError } from "../io.js";
import { checkPortFree } from "../port-probe.js";

/**
 * `svc-mcp preview`: the whole site for people, with the agent's view beside it, on this
 * machine. It is `serve --http` (the same pages, MCP endpoints and sign-in) following edits, on
 * port 3000 like the hosted platform's local preview, and it opens the browser on it.
 */
export const previewCommand = defineCommand({
  command: "preview",
  describe: "Preview the site in the browser as people and agents see it (serve --http, watching, and open the browser)",
  builder: (y) =>
    withState(withDir(y))
      .option("port", { type: "number", default: 3000, describe: "Port (0 picks a free one)" })
      .option("host", { type: "string", default: "127.0.0.1", describe: "Address to listen on" })
      .option("open", { type: "boolean", default: true, describe: "Open the browser on the preview (--no-open to only print its address)" })
      .option("fetch-remote", { type: "boolean", default: true, describe: "Fetch API specs docs.json names by URL, in the background (--no-fetch-remote to stay offline)" }),
  run: async (args, io) => {
    const log = stderrLog(io);
    // Before the load: a busy port (3000 often is) was said only once the site was loaded.
    if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new CliError(`--port must be an integer from 0 to 65535; got ${args.port}`, 2);
    await checkPortFree(args.host, args.port);
    // One person reads a preview: a small pool of shell workers (a command in this thread that
    // never yields, or grows a value without bound, stalled every page until it ended: issue 25),
    // and the index is built in one go. Pages render in workers too, none kept from the one
    // person's second page while a slow first one renders. Watched from before the load reads
    // anything, as `serve` is (issue 25).
    const runtime = await loadDocs(io, args.dir, { shellWorker: { ...LIMITS.shellWorker.preview }, renderWorker: { reserveWorkers: 0 }, searchCache: LIMITS.search.cachedResults, indexSliceMs: Number.POSITIVE_INFINITY, watch: true });
    // The page renderer loads beside the watcher's first scan: the browser's first page finds it ready.
    const renderer = runtime.renderPool.start();
    await runtime.watch();
    await renderer;
    const onListening = (origin: string): void => {
      void runtime.whenIndexed();
      if (args["fetch-remote"]) void runtime.fetchRemoteSpecs(fetch);
      log(`preview: ${origin}/ (edits show as you save; the "Agent view" button shows what an agent gets)`);
      if (args.open) openBrowser(`${origin}/`, log);
    };
    try {
      return await serveHttp({ ...args, "trust-proxy": false }, io, runtime, log, onListening);
    } finally {
      await runtime.close();
    }
  },
});
