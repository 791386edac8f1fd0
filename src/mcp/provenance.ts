import { posix } from "node:path";
import { z } from "zod";
import { LIMITS } from "../limits.js";
import type { SiteView } from "../vfs/view.js";
import type { DocsRuntime } from "../engine/runtime.js";
import { GitHead } from "./git-head.js";

/** The `_meta` key of a tool result's provenance (a prefix of our own, as MCP asks of `_meta` keys). */
export const PROVENANCE_META_KEY = "svc-mcp/provenance";

/**
 * How long a client may reuse a list, a skill or a tool result before asking again: one figure
 * for all of them. The watcher serves an edit within `LIMITS.load.watchDebounceMs`; lists and
 * skills are announced by `list_changed` then, tool results are not, so a result may be up to
 * this old when a client reuses it. A minute covers an agent's run of calls on one question.
 */
export const RESULT_TTL_MS = 60_000;

/** Where what a result says was read from: the checkout's commit and how old the pages are. */
export const provenanceSchema = z.object({
  commit: z.string().optional().describe("The git commit the docs folder's checkout was at when the result was made (absent outside a git checkout)."),
  lastModified: z.string().optional().describe("The newest modification time (ISO 8601) of the pages and files the result read."),
  ttlMs: z.number().describe("How long the result may be reused, in milliseconds, before asking again."),
});

export type Provenance = z.infer<typeof provenanceSchema>;

/**
 * The commit of a runtime's checkout, read again at most once per watcher debounce (so it is as
 * fresh as the pages it comes with) and at every reload; requests in between share one read.
 */
export class CommitCache {
  private value: Promise<string | undefined> | undefined;
  private readAt = 0;
  private readonly head: GitHead;

  constructor(
    runtime: DocsRuntime,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.head = new GitHead(runtime.site.root);
    runtime.onChange(() => {
      this.value = undefined;
    });
  }

  current(): Promise<string | undefined> {
    const now = this.clock();
    if (this.value === undefined || now - this.readAt >= LIMITS.load.watchDebounceMs) {
      this.value = this.head.commit();
      this.readAt = now;
    }
    return this.value;
  }
}

/** One cache per runtime: kept as long as the runtime, which holds its reload listener. */
const COMMITS = new WeakMap<DocsRuntime, CommitCache>();

/** The commit the runtime's docs folder is at (undefined outside a git checkout). */
export function currentCommit(runtime: DocsRuntime): Promise<string | undefined> {
  let cache = COMMITS.get(runtime);
  if (cache === undefined) {
    cache = new CommitCache(runtime);
    COMMITS.set(runtime, cache);
  }
  return cache.current();
}

/** A result's provenance from its commit and the modification times of what it read. */
export function provenanceOf(commit: string | undefined, times: readonly Date[]): Provenance {
  let newest: number | undefined;
  for (const t of times) newest = newest === undefined ? t.getTime() : Math.max(newest, t.getTime());
  return {
    ...(commit !== undefined ? { commit } : {}),
    ...(newest !== undefined ? { lastModified: new Date(newest).toISOString() } : {}),
    ttlMs: RESULT_TTL_MS,
  };
}

/** One path a shell command read, with its modification time (a folder's: its newest visible file's). */
export interface ShellRead {
  readonly path: string;
  readonly lastModified: string;
}

/**
 * What a command line read, as far as its words say: each word that names a file or folder the
 * reader sees (`cat /a.mdx`, `rg -l x /guides`), in order, without repeats; none named is `/`,
 * where every command starts. Read from the words, not from the shell (which runs in a worker
 * and reports only output): a path built at run time (`$(...)`, a glob) is covered by the folder
 * named with it or by `/`. Only the reader's view is consulted, so a restricted file is never
 * named and a folder's time is that of the files the reader sees in it.
 */
export function shellReads(command: string, view: SiteView): ShellRead[] {
  const seen = new Set<string>();
  const reads: ShellRead[] = [];
  for (const word of command.split(/[\s;|&<>()`]+/)) {
    const bare = word.replace(/^['"]+|['"]+$/g, "");
    if (!bare.startsWith("/")) continue;
    const path = posix.normalize(bare).replace(/(.)\/+$/, "$1");
    if (seen.has(path) || (view.fileAt(path) === undefined && !view.isDir(path))) continue;
    seen.add(path);
    reads.push({ path, lastModified: view.mtimeOf(path).toISOString() });
    if (reads.length === LIMITS.mcp.maxProvenanceReads) break;
  }
  return reads.length > 0 ? reads : [{ path: "/", lastModified: view.mtimeOf("/").toISOString() }];
}
