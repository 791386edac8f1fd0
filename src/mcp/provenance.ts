import { createHash } from "node:crypto";
import { posix } from "node:path";
import { z } from "zod";
import { LIMITS } from "../limits.js";
import type { SiteView } from "../vfs/view.js";
import type { DocsRuntime, ReaderState } from "../engine/runtime.js";
import { type RequestContext, visibilityKey } from "../vfs/request-context.js";
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

/** Reader classes whose shown commit is remembered (`ReaderCommits`): far more than a site has group combinations. */
const REMEMBERED_CLASSES = 4_096;

/**
 * The commit each class of reader is shown. The checkout's commit moves with every commit,
 * including one that touches only pages a reader may not read: shown as it is, a reader would
 * learn that restricted pages changed, and when. So a reader is shown the commit that was
 * current when what they see last changed: when the commit moves and nothing the reader sees
 * has changed since they were last shown one (their files, as their view has them: paths,
 * sizes, times; their navigation outline), they keep the one they had, whose checkout held the
 * same of what they may read. Kept per visibility class (readers who see the same), so two
 * readers who may read the same pages are shown the same commit.
 */
class ReaderCommits {
  private readonly shown = new Map<string, { readonly commit: string | undefined; readonly fingerprint: string }>();

  commitFor(visibility: string, head: string | undefined, fingerprint: () => string): string | undefined {
    const seen = this.shown.get(visibility);
    if (seen !== undefined && seen.commit === head) return head;
    const now = fingerprint();
    if (seen !== undefined && seen.fingerprint === now) return seen.commit;
    this.shown.delete(visibility);
    this.shown.set(visibility, { commit: head, fingerprint: now });
    while (this.shown.size > REMEMBERED_CLASSES) this.shown.delete(this.shown.keys().next().value as string);
    return head;
  }
}

const READER_COMMITS = new WeakMap<DocsRuntime, ReaderCommits>();
/** Each view's fingerprint, made once (a view never changes; a reload makes new ones). */
const FINGERPRINTS = new WeakMap<SiteView, string>();

/** What a reader sees, as a digest: every file of their view (path, size, time) and their outline. */
function viewFingerprint(state: Pick<ReaderState, "view" | "outline">): string {
  let digest = FINGERPRINTS.get(state.view);
  if (digest === undefined) {
    const hash = createHash("sha256");
    const files = [...state.view.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const f of files) hash.update(`${f.path}\0${f.size}\0${f.mtime.getTime()}\n`);
    const { outline } = state;
    hash.update(JSON.stringify({ ...outline, versionSegments: [...outline.versionSegments] }));
    digest = hash.digest("hex");
    FINGERPRINTS.set(state.view, digest);
  }
  return digest;
}

/**
 * The commit shown to a request's reader: the checkout's, unless it moved while nothing they
 * may read changed (`ReaderCommits`), so provenance tells a reader nothing of restricted pages.
 */
export async function readerCommit(runtime: DocsRuntime, request: RequestContext, state: Pick<ReaderState, "view" | "outline">): Promise<string | undefined> {
  const head = await currentCommit(runtime);
  let commits = READER_COMMITS.get(runtime);
  if (commits === undefined) READER_COMMITS.set(runtime, (commits = new ReaderCommits()));
  return commits.commitFor(visibilityKey(request), head, () => viewFingerprint(state));
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
