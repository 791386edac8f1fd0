import { createHash } from "node:crypto";
import { readBytesInsideRoot } from "../../../config/inside-root.js";
import { mediaTypeOf } from "../../../config/media-types.js";
import { unservedPath } from "../../../config/served-path.js";
import { LIMITS } from "../../../limits.js";
import type { DocsRuntime } from "../../../engine/runtime.js";
import { mayRead, type RequestContext } from "../../../vfs/request-context.js";
import { entityTag, matchesIfNoneMatch } from "../../middleware/entity-tag.js";

/**
 * An image (or other medium) of the repository at its path (`/images/logo.png`), as pages link
 * to them. Only those types, only files inside the docs root that the ignore rules keep
 * (`readBytesInsideRoot`: no link leads out), never a dot-file or one in a dot-folder
 * (`unservedPath`), a link only to another medium (finding 46: `b.png -> guides/staff.mdx` served
 * a restricted page's bytes), and only to a reader who may read a page without rules (on a fully
 * authenticated site, a signed-in one): a medium carries no front matter.
 * Sent with a policy that runs nothing (an SVG opened on its own cannot run a script).
 * Undefined when the path is no such file (the caller answers as for any missing page).
 */
export function siteMedia(runtime: DocsRuntime, urlPath: string, context: RequestContext, ifNoneMatch?: string): Response | undefined {
  const type = mediaTypeOf(urlPath);
  if (type === undefined || !mayRead(context, {})) return undefined;
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath).replace(/^\/+/, "");
  } catch {
    return undefined;
  }
  if (unservedPath(rel) !== undefined) return undefined;
  const read = readBytesInsideRoot(runtime.site.root, rel, { ignore: runtime.ignore, maxBytes: LIMITS.preview.maxMediaBytes });
  if (!read.ok || (read.real !== rel && mediaTypeOf(read.real) === undefined)) return undefined;
  // Revalidated by content: a browser keeps its copy and is answered 304 while the bytes are the same.
  const tag = entityTag(createHash("sha256").update(read.bytes).digest("hex"));
  if (matchesIfNoneMatch(ifNoneMatch, tag)) return new Response(null, { status: 304, headers: { ETag: tag, "Cache-Control": "no-cache" } });
  return new Response(new Uint8Array(read.bytes), {
    headers: {
      "Content-Type": type,
      "Content-Length": String(read.bytes.length),
      ETag: tag,
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
}
