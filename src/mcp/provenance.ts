import { createHash } from "node:crypto";
import { posix } from "node:path";
import { z } from "zod";
import { LIMITS } from "../limits.js";
import type { SiteView } from "../vfs/view.js";
import type { DocsRuntime, ReaderState } from "../engine/runtime.js";
import { GitHead } from "./git-head.js";
import { isoTime } from "./iso-times.js";

/** The `_meta` key of a tool result's provenance (a prefix of our own, as MCP asks of `_meta` keys). */
export const PROVENANCE_META_KEY = "svc-mcp/provenance";

/**
 * How long a client may reuse a list, a skill or a tool result before asking again: one figure
 * for all of them. The watcher serves an edit once its file has settled (`LIMITS.load.writeSettleMs`); lists and
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

/** Views whose shown commit is remembered (`ViewCommits`): far more than a site's readers see
 *  apart at once (one per visibility class at most, and readers who see the same share one). */
const REMEMBERED_VIEWS = 4_096;
/** Bits of the set of views forgotten (`ForgottenViews`): 512 KiB; past a million views
 *  forgotten, about one new view in seven is taken for a forgotten one (shown no commit). */
const FORGOTTEN_BITS = 1 << 22;

/**
 * The commit shown with each view. The checkout's commit moves with every commit, including one
 * that touches only pages a reader may not read: shown as it is, a reader would learn that
 * restricted pages changed, and when. So a reader is shown the commit that was current when
 * what they see became what it is: the commit current when their view (their files as their
 * view has them: paths, sizes, times; their navigation outline, as `viewFingerprint` digests
 * it) was first seen. Kept by view, not by reader: readers who see the same are shown the same
 * commit, however many classes of readers there are.
 *
 * At most `capacity` views are remembered, the least recently shown forgotten first. A view
 * forgotten and seen again is shown no commit (never the commit then current, which could have
 * moved with pages its readers may not read): the forgotten views are kept as a set with no
 * false negatives (`ForgottenViews`); a view taken for a forgotten one by mistake is shown no
 * commit too.
 */
export class ViewCommits {
  private readonly shown = new Map<string, string | undefined>();
  private readonly forgotten: ForgottenViews;

  constructor(
    private readonly capacity: number = REMEMBERED_VIEWS,
    forgottenBits: number = FORGOTTEN_BITS,
  ) {
    this.forgotten = new ForgottenViews(forgottenBits);
  }

  /** The commit shown with the view `fingerprint` (a hex digest), `head` the checkout's now. */
  commitFor(fingerprint: string, head: string | undefined): string | undefined {
    if (this.shown.has(fingerprint)) {
      const commit = this.shown.get(fingerprint);
      this.shown.delete(fingerprint);
      this.shown.set(fingerprint, commit);
      return commit;
    }
    if (this.forgotten.has(fingerprint)) return undefined;
    this.shown.set(fingerprint, head);
    while (this.shown.size > this.capacity) {
      const oldest = this.shown.keys().next().value as string;
      this.shown.delete(oldest);
      this.forgotten.add(oldest);
    }
    return head;
  }
}

/** A set of hex digests with no false negatives (a Bloom filter, four probes taken from the digest). */
class ForgottenViews {
  private readonly bits: Uint32Array;

  constructor(private readonly size: number) {
    this.bits = new Uint32Array(Math.ceil(size / 32));
  }

  add(digest: string): void {
    for (const i of this.probes(digest)) this.bits[i >>> 5] = (this.bits[i >>> 5] as number) | (1 << (i & 31));
  }

  has(digest: string): boolean {
    return this.probes(digest).every((i) => ((this.bits[i >>> 5] as number) & (1 << (i & 31))) !== 0);
  }

  private probes(digest: string): number[] {
    return [0, 8, 16, 24].map((at) => Number.parseInt(digest.slice(at, at + 8), 16) % this.size);
  }
}

const VIEW_COMMITS = new WeakMap<DocsRuntime, ViewCommits>();
/** Each view's fingerprint, made once (a view never changes; a reload makes new ones). */
const FINGERPRINTS = new WeakMap<SiteView, string>();

/** What a reader sees, as a digest: every file of their view (path, size, time) and their outline. */
function viewFingerprint(state: Pick<ReaderState, "view" | "outline">): string {
  let digest = FINGERPRINTS.get(state.view);
  if (digest === undefined) {
    const hash = createHash("sha256");
    // Made at a reader's first answer (the first search's, on a 25,000-page site ~0.05 s of it):
    // the files are sorted only when they are not in order already, and hashed a batch of lines
    // at a time (the digest of the lines is that of their concatenation), not a call per file.
    let files = [...state.view.files];
    for (let i = 1; i < files.length; i++) {
      if ((files[i - 1] as { path: string }).path < (files[i] as { path: string }).path) continue;
      files = files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      break;
    }
    let lines = "";
    for (const f of files) {
      lines += `${f.path}\0${f.size}\0${f.mtime.getTime()}\n`;
      if (lines.length < 1 << 16) continue;
      hash.update(lines);
      lines = "";
    }
    hash.update(lines);
    const { outline } = state;
    hash.update(JSON.stringify({ ...outline, versionSegments: [...outline.versionSegments] }));
    digest = hash.digest("hex");
    FINGERPRINTS.set(state.view, digest);
  }
  return digest;
}

/**
 * The commit shown to a request's reader: the checkout's when their view was first seen
 * (`ViewCommits`), so provenance tells a reader nothing of restricted pages.
 */
export async function readerCommit(runtime: DocsRuntime, state: Pick<ReaderState, "view" | "outline">): Promise<string | undefined> {
  const head = await currentCommit(runtime);
  let commits = VIEW_COMMITS.get(runtime);
  if (commits === undefined) VIEW_COMMITS.set(runtime, (commits = new ViewCommits()));
  return commits.commitFor(viewFingerprint(state), head);
}

/** A result's provenance from its commit and the modification times of what it read. */
export function provenanceOf(commit: string | undefined, times: readonly Date[]): Provenance {
  let newest: number | undefined;
  for (const t of times) newest = newest === undefined ? t.getTime() : Math.max(newest, t.getTime());
  return {
    ...(commit !== undefined ? { commit } : {}),
    ...(newest !== undefined ? { lastModified: isoTime(new Date(newest)) } : {}),
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
    if (seen.has(path)) continue;
    // A folder's time from the view's sorted files (`folderTime`): this thread makes no folders for it.
    const time = view.fileAt(path)?.mtime ?? view.folderTime(path);
    if (time === undefined) continue;
    seen.add(path);
    reads.push({ path, lastModified: time.toISOString() });
    if (reads.length === LIMITS.mcp.maxProvenanceReads) break;
  }
  return reads.length > 0 ? reads : [{ path: "/", lastModified: (view.folderTime("/") as Date).toISOString() }];
}
