import { closeSync, read } from "node:fs";
import { promisify } from "node:util";
import { openInsideRoot } from "../../../config/inside-root.js";
import { mediaTypeOf } from "../../../config/media-types.js";
import { unservedPath } from "../../../config/served-path.js";
import { LIMITS } from "../../../limits.js";
import type { DocsRuntime } from "../../../engine/runtime.js";
import { mayRead, type RequestContext } from "../../../vfs/request-context.js";
import { matchesIfNoneMatch } from "../../middleware/entity-tag.js";
import { apiErrorResponse } from "../../middleware/http-errors.js";
import { MediaTags } from "./media-tags.js";
import { type MediaTurnKeeper, MediaTurns } from "./media-turns.js";

const readAt = promisify(read);

/** What the media route keeps between requests: the files' tags, and each caller's transfers. */
export interface SiteMediaState {
  readonly tags: MediaTags;
  /** This process's, or the primary's for every worker of `--workers N` (`RemoteMediaTurns`). */
  readonly turns: MediaTurnKeeper;
}

/** A new, empty `SiteMediaState` (one per app), its callers' turns kept by `turns` (this process's own by default). */
export function newSiteMediaState(turns: MediaTurnKeeper = new MediaTurns()): SiteMediaState {
  return { tags: new MediaTags(), turns };
}

/** The request for a medium, as far as the route looks at it. */
export interface MediaRequest {
  readonly ifNoneMatch?: string | undefined;
  /** A HEAD request: the headers only. */
  readonly head: boolean;
  /** Who asks (an address, an IPv6 /64, a token), for the per-caller bound. */
  readonly caller: string;
  /** Aborts when the client hung up. */
  readonly signal?: AbortSignal;
}

/** The headers a medium is sent with: a policy that runs nothing (an SVG opened on its own cannot run a script). */
function mediaHeaders(type: string, size: number, tag: string | undefined): Record<string, string> {
  return {
    "Content-Type": type,
    "Content-Length": String(size),
    // No tag when the file changed while it was hashed (`MediaTags.tagOf`): nothing to keep it by.
    ...(tag !== undefined ? { ETag: tag, "Cache-Control": "no-cache" } : { "Cache-Control": "no-store" }),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };
}

/**
 * An image (or other medium) of the repository at its path (`/images/logo.png`), as pages link
 * to them. Only those types, only files inside the docs root that the ignore rules keep
 * (`openInsideRoot`: no link leads out), never a dot-file or one in a dot-folder
 * (`unservedPath`), a link only to another medium (finding 46: `b.png -> guides/staff.mdx` served
 * a restricted page's bytes), and only to a reader who may read a page without
 * rules (on a fully authenticated site, a signed-in one): a medium carries no front matter.
 * Tagged by content once per version of the file (`MediaTags`), sent from disk a piece at a
 * time as the socket takes it, a bounded number at once per caller (`MediaTurns`: past it,
 * `429 too_many_media`). Undefined when the path is no such file (the caller answers as for any
 * missing page).
 */
export async function siteMedia(runtime: DocsRuntime, state: SiteMediaState, urlPath: string, context: RequestContext, request: MediaRequest): Promise<Response | undefined> {
  const type = mediaTypeOf(urlPath);
  if (type === undefined || !mayRead(context, {})) return undefined;
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath).replace(/^\/+/, "");
  } catch {
    return undefined;
  }
  if (unservedPath(rel) !== undefined) return undefined;
  const turn = await state.turns.take(request.caller, request.signal);
  if (!turn.ok) {
    const { held } = state.turns.limits;
    const message = turn.reason === "full" ? `too many media requests of this client: at most ${held} sent or waiting at once per client (an address, an IPv6 /64 or a token); wait for them to finish, then ask again` : "the client hung up before its turn";
    return apiErrorResponse(turn.reason === "full" ? 429 : 503, turn.reason === "full" ? "too_many_media" : "client_gone", message, { "Retry-After": "2", "Cache-Control": "no-store" });
  }
  const opened = openInsideRoot(runtime.site.root, rel, { ignore: runtime.ignore, maxBytes: LIMITS.preview.maxMediaBytes });
  if (!opened.ok) {
    turn.release();
    return undefined;
  }
  if (opened.real !== rel && mediaTypeOf(opened.real) === undefined) {
    closeQuietly(opened.fd);
    turn.release();
    return undefined;
  }
  const done = (): void => {
    closeQuietly(opened.fd);
    turn.release();
  };
  let tag: string | undefined;
  try {
    tag = await state.tags.tagOf(opened);
  } catch {
    done();
    return undefined;
  }
  // Revalidated by content: a browser keeps its copy and is answered 304 while the bytes are the same.
  if (tag !== undefined && matchesIfNoneMatch(request.ifNoneMatch, tag)) {
    done();
    return new Response(null, { status: 304, headers: { ETag: tag, "Cache-Control": "no-cache" } });
  }
  const headers = mediaHeaders(type, opened.size, tag);
  if (request.head || opened.size === 0) {
    done();
    return new Response(request.head ? null : new Uint8Array(0), { headers });
  }
  return new Response(fileBody(opened.fd, opened.size, done), { headers });
}

/**
 * The file's first `size` bytes, read a piece at a time when the socket asks for more (never
 * the whole file in memory); `done` once, at the end, on an error or when the client hangs up.
 */
function fileBody(fd: number, size: number, done: () => void): ReadableStream<Uint8Array> {
  let position = 0;
  let reading = false;
  let ended = false;
  let finished = false;
  // The file is closed once, and only when no read of it is under way: its number could be another file's after.
  const end = (): void => {
    ended = true;
    if (reading || finished) return;
    finished = true;
    done();
  };
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        if (ended) return;
        reading = true;
        let piece: Uint8Array;
        try {
          const buffer = Buffer.allocUnsafe(Math.min(LIMITS.preview.mediaChunkBytes, size - position));
          const { bytesRead } = await readAt(fd, buffer, 0, buffer.length, position);
          if (bytesRead === 0) throw new Error("the file shrank while it was being sent");
          piece = new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
        } catch (error) {
          reading = false;
          end();
          controller.error(error);
          return;
        }
        reading = false;
        // The client hung up while this piece was read.
        if (ended) return end();
        position += piece.length;
        controller.enqueue(piece);
        if (position >= size) {
          end();
          controller.close();
        }
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  );
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}
