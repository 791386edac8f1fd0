import { LIMITS } from "../../../limits.js";
import type { DocsRuntime } from "../../../engine/runtime.js";
import { type RequestContext, visibilityKey } from "../../../vfs/request-context.js";
import type { Site } from "../../../vfs/site.js";
import type { SiteFile } from "../../../vfs/site-file.js";
import { navigationOfSite } from "../../../vfs/site-nav.js";
import { SiteView } from "../../../vfs/view.js";
import { apiErrorResponse } from "../../middleware/http-errors.js";

/** One open stream: whose it is, what its reader saw last, how to tell it of a change, how to end it. */
interface Listener {
  readonly caller: string;
  /** Its reader now: the site's auth setting and the reader's sign-in are read again at each change. */
  readonly contextNow: () => Promise<RequestContext>;
  /** What its reader could see when it was last told (or opened). */
  seen: ReaderSight;
  readonly send: () => void;
  readonly end: () => void;
}

/**
 * What a reader of the preview can see of a snapshot: its view's files (each reader's variant),
 * its navigation, and the site's name and API settings the frame and API pages show. Two sights
 * are compared file by file (`sameSight`), never by a site-wide counter.
 */
interface ReaderSight {
  /** The kind of reader it is of (`visibilityKey`). */
  readonly key: string;
  readonly files: readonly SiteFile[];
  readonly frame: string;
}

export interface ReloadLimits {
  /** Open streams per process (`LIMITS.preview.maxReloadStreams`). */
  readonly maxStreams: number;
  /** Open streams per caller (`LIMITS.preview.maxReloadStreamsPerCaller`). */
  readonly maxPerCaller: number;
}

/**
 * Live reload: `GET /_svc/preview/events` is a server-sent event stream on which a reload of the
 * docs (an edit, as the MCP tools follow edits) sends `event: change` only to the streams whose
 * reader sees something different: another file in their view (a page, a snippet's inlined text,
 * their variant of a spec), another navigation, another site name. An edit to a page a reader may
 * not read tells that reader nothing, not even when (issue: adversary finding, a timing leak to
 * anonymous readers). The event says nothing about what changed; each open page asks for itself
 * again and redraws when its own answer changed (src/web/preview/live.ts).
 *
 * Bounded per caller (an address, an IPv6 /64, a token: the bridge's callers): one more stream
 * past `maxPerCaller` is refused with 429; when the process holds `maxStreams`, the oldest
 * stream of the caller holding the most is ended (its page reconnects), so no caller's tabs
 * push out another's.
 */
export class ReloadStreams {
  /** Open streams of each caller, oldest first. */
  private readonly byCaller = new Map<string, Set<Listener>>();
  private count = 0;
  /** The latest sight of each kind of reader (`visibilityKey`), with the snapshot it is of. */
  private readonly sights = new Map<string, { readonly site: Site; readonly sight: ReaderSight }>();
  private readonly unsubscribe: () => void;
  /** Announcements in progress, in order. */
  private told: Promise<void> = Promise.resolve();

  constructor(
    private readonly runtime: DocsRuntime,
    private readonly limits: ReloadLimits = { maxStreams: LIMITS.preview.maxReloadStreams, maxPerCaller: LIMITS.preview.maxReloadStreamsPerCaller },
  ) {
    this.unsubscribe = runtime.onChange((change) => {
      // In order: a later change is never told before an earlier one.
      this.told = this.told.then(() => this.announce(change.site, change.previous)).catch(() => undefined);
    });
  }

  /** Open streams, over all callers. */
  get size(): number {
    return this.count;
  }

  /** A new stream for `context`'s reader, counted against `caller`; 429 past the caller's bound. */
  stream(context: RequestContext, caller: string, contextNow: () => Promise<RequestContext> = () => Promise.resolve(context)): Response {
    const mine = this.byCaller.get(caller);
    if (mine !== undefined && mine.size >= this.limits.maxPerCaller) {
      return apiErrorResponse(
        429,
        "too_many_streams",
        `too many live-reload streams: at most ${this.limits.maxPerCaller} open at once per client (an address, an IPv6 /64 or a token); close a preview tab before opening another`,
        { "Cache-Control": "no-store" },
      );
    }
    const encoder = new TextEncoder();
    let listener: Listener | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let ended = false;
        const write = (text: string): void => {
          if (ended) return;
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            end();
          }
        };
        // A comment now and then keeps proxies from closing an idle stream (`reloadHeartbeatMs`).
        const heartbeat = setInterval(() => write(": ping\n\n"), LIMITS.preview.reloadHeartbeatMs);
        heartbeat.unref();
        const end = (): void => {
          if (ended) return;
          ended = true;
          clearInterval(heartbeat);
          if (listener !== undefined) this.remove(listener);
          try {
            controller.close();
          } catch {
            // Already closed: the client went away.
          }
        };
        // No data beyond the event: a counter of changes would count the ones this reader may not see.
        listener = { caller, contextNow, seen: this.sightOf(this.runtime.site, context), send: () => write("event: change\ndata: \n\n"), end };
        this.add(listener);
        // `retry`: how long a page waits before reconnecting (after the server restarted, say).
        write("retry: 1000\nevent: ready\ndata: \n\n");
      },
      cancel: () => listener?.end(),
    });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
    });
  }

  /** Resolves when every change so far has been told (tests). */
  settled(): Promise<void> {
    return this.told;
  }

  /** Stop listening to the runtime and end every stream. */
  close(): void {
    this.unsubscribe();
    for (const set of [...this.byCaller.values()]) for (const listener of [...set]) listener.end();
  }

  private add(listener: Listener): void {
    let set = this.byCaller.get(listener.caller);
    if (set === undefined) {
      set = new Set();
      this.byCaller.set(listener.caller, set);
    }
    set.add(listener);
    this.count++;
    if (this.count > this.limits.maxStreams) this.shed();
  }

  private remove(listener: Listener): void {
    const set = this.byCaller.get(listener.caller);
    if (set === undefined || !set.delete(listener)) return;
    this.count--;
    if (set.size === 0) this.byCaller.delete(listener.caller);
  }

  /** The process is full: the oldest stream of the caller holding the most goes. */
  private shed(): void {
    let most: Set<Listener> | undefined;
    for (const set of this.byCaller.values()) if (most === undefined || set.size > most.size) most = set;
    most?.values().next().value?.end();
  }

  /** After a reload: tell each stream whose reader's sight changed (each kind of reader compared once per sight it had). */
  private async announce(site: Site, previous: Site): Promise<void> {
    const verdicts = new Map<ReaderSight, boolean>();
    for (const set of [...this.byCaller.values()]) {
      for (const listener of [...set]) {
        // Read now: a site switched to `auth: full`, or a reader signed out, sees less from now on.
        const context = await listener.contextNow();
        if (!set.has(listener)) continue;
        // A reader who now sees as another kind (the auth setting changed, they signed out) is
        // compared with what that kind saw before this change: the change tells them only of
        // this edit, never of the setting through an edit they may not read.
        const before = listener.seen.key === visibilityKey(context) ? listener.seen : this.sightOf(previous, context);
        const now = this.sightOf(site, context);
        listener.seen = now;
        let differs = verdicts.get(before);
        if (differs === undefined) {
          differs = !sameSight(before, now);
          verdicts.set(before, differs);
        }
        if (differs) listener.send();
      }
    }
  }

  /** What the context's reader sees of `site`: one object per kind of reader and snapshot, shared by their streams. */
  private sightOf(site: Site, context: RequestContext): ReaderSight {
    const key = visibilityKey(context);
    const known = this.sights.get(key);
    if (known?.site === site) return known.sight;
    // The reader's files as the runtime's views show them (variants included; the generated
    // skill aside: it is made from the navigation and outline, which the frame covers).
    const view = new SiteView(site, context.reader, context.authMode);
    const sight = { key, files: view.files, frame: JSON.stringify([site.config.name, site.api?.settings ?? null, navigationOfSite(site, { context })]) };
    this.sights.set(key, { site, sight });
    // A handful of kinds read a site; past the bound the oldest kind's sight is made again when next asked.
    if (this.sights.size > LIMITS.preview.navigationTrees) this.sights.delete(this.sights.keys().next().value as string);
    return sight;
  }
}

/** Whether a reader would see the same thing in both: the same files (path, bytes, time) and frame. */
function sameSight(a: ReaderSight, b: ReaderSight): boolean {
  if (a === b) return true;
  if (a.frame !== b.frame || a.files.length !== b.files.length) return false;
  for (let i = 0; i < a.files.length; i++) {
    const x = a.files[i] as SiteFile;
    const y = b.files[i] as SiteFile;
    if (x === y) continue;
    if (x.path !== y.path || x.mtime.getTime() !== y.mtime.getTime() || x.text !== y.text) return false;
  }
  return true;
}
