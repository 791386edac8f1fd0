import { existsSync } from "node:fs";
import { knownSiteName, rememberSiteName } from "../store/site-names.js";
import { projectIdFromName, resolveStateDir } from "../store/state-dir.js";
import { DocsRuntime, type RuntimeOptions } from "../engine/runtime.js";
import { SiteCache } from "../engine/site-cache.js";
import { type KeepOptions, VariantMemory } from "../engine/variant-memory.js";
import { variantTimesFile } from "../store/variant-times-file.js";
import { resolveCache } from "../store/cache-dir.js";
import { diagnosticsSummary } from "./diagnostics-summary.js";
import type { CliIO } from "./io.js";
import { folderAsNamed, siteLoadOptions } from "./load-options.js";
import { emptyFolderMessage, noDocsJsonMessage } from "../config/no-docs-json.js";
import { terminalText } from "../config/visible-text.js";
import { resolveDir } from "./options.js";

/** The CLI's log: `svc-mcp: <message>` lines on stderr (stdout is the answer, or the protocol). */
export function stderrLog(io: CliIO): (message: string) => void {
  // Messages name repository files (a page whose render ran over its time): control characters
  // escaped, as `check` writes them, so a name cannot rewrite the terminal.
  return (message) => io.stderr(`svc-mcp: ${terminalText(message)}\n`);
}

/** What `loadDocs` takes besides the runtime's options. */
export interface LoadDocsOptions {
  /** Keep variant times across starts (`VariantMemory`), with the state `--state` names (a server). */
  readonly keepTimes?: { readonly state?: string | undefined } & KeepOptions;
}

/**
 * Load the docs for a command that answers from them (`serve`, `search`, `fs`). What the load
 * found wrong is one line with the command that lists it (`check`), not a line per finding.
 * (Kept apart from load-options.ts: `check` and `nav` import that, and must not load the runtime.)
 */
export async function loadDocs(io: CliIO, dir: string | undefined, options: Omit<RuntimeOptions, "root" | "log" | "load" | "timesMemory"> & LoadDocsOptions = {}): Promise<DocsRuntime> {
  const root = resolveDir(io, dir);
  const log = stderrLog(io);
  const { keepTimes, ...runtimeOptions } = options;
  // A server keeps each reader class's time across its restarts (security.md row 160), read
  // before the load dates anything: in the `--state` folder when one is named, else in the state
  // home, not the default project folder, which is named once the load has read the site's name
  // (`variantTimesFile`).
  const timesFile = keepTimes !== undefined ? variantTimesFile(root, { state: keepTimes.state, cwd: io.cwd, env: io.env }) : undefined;
  const timesMemory = timesFile !== undefined ? VariantMemory.open(timesFile, root, log, keepTimes) : undefined;
  // Parsed pages and the search index kept across starts, in the user's cache folder (never the docs').
  const cache = resolveCache(io.env, root, (message) => log(`warning: ${message}`));
  const siteCache = cache !== undefined ? new SiteCache({ dir: cache.dir, seal: cache.seal, root, log }) : undefined;
  // A docs.json that names no site serves under the name this folder was last served under (site-names.ts).
  const knownName = knownSiteName(io.env, root);
  const load = { ...siteLoadOptions(io, root), ...(knownName !== undefined ? { knownName } : {}) };
  const runtime = await DocsRuntime.load({ ...runtimeOptions, root, log, load, ...(siteCache !== undefined ? { siteCache } : {}), ...(timesMemory !== undefined ? { timesMemory } : {}) });
  // Kept once the project has state (made by a state command or a server's first use): a start
  // that keeps none (stdio with no feedback sent) writes nothing to the state home.
  const { name, named } = runtime.site.config;
  if (named === true && existsSync(resolveStateDir(projectIdFromName(name), { cwd: io.cwd, env: io.env }))) rememberSiteName(io.env, root, name);
  const summary = diagnosticsSummary(runtime.site.diagnostics, dir);
  if (summary !== undefined) log(summary);
  // No docs.json and not one page: a `--dir` (or an editor's config) naming the wrong folder,
  // which was served as a working server of nothing, or searched with "No results", unsaid.
  if (!runtime.site.config.present && runtime.site.pages.size === 0) {
    log(`warning: ${emptyFolderMessage(folderAsNamed(dir))}`);
  } else if (!runtime.site.config.present) {
    // Pages and no docs.json: served (a folder of notes is a site), but the user is told why it
    // has no name and no navigation, and how to give it them; the words `check` says it in.
    log(`warning: ${noDocsJsonMessage(folderAsNamed(dir))}`);
  }
  return runtime;
}
