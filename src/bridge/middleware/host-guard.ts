import type { MiddlewareHandler } from "hono";
import type { BridgeEnv } from "../context.js";
import { errorForPath } from "./origin-policy.js";

/** The refusal of a request without `Host` past the socket layer (an HTTP/1.0 one). */
const MISSING_HOST = "the request is HTTP/1.0 without a Host header; this server answers only requests whose Host names it: Host header missing";

/**
 * DNS-rebinding protection of a server bound to loopback: a page on `attacker.example` whose
 * name the attacker then points at 127.0.0.1 is same-origin with itself, so the browser lets it
 * read whatever this server answers; only the `Host` header (`attacker.example:PORT`) gives it
 * away. So every request, on every route (MCP, OAuth, pages, the preview's calls, media,
 * assets, unknown paths), must name one of `allowedHosts` (the loopback names, and the
 * `--public-url` host); any other is `403 forbidden_host`, in the path's error shape (JSON-RPC
 * on the MCP endpoints, the API's JSON elsewhere, HTML routes included: see docs/bridge.md).
 * A request in absolute form (`GET http://evil.example/x HTTP/1.1`) names its host in its target,
 * which RFC 9112 (3.2.2) puts before the `Host` header and which the request's URL, and so every
 * URL this server writes from it (OAuth metadata, `WWW-Authenticate`, the server card), is built
 * from: that authority must be allowed too (adversary round 34: it was served, and its host
 * written into the OAuth endpoints).
 * A request without `Host` at all can only be HTTP/1.0 here (the socket layer refuses an HTTP/1.1
 * one: `answerMissingHost`). It names no host, so it is refused as that one is, `400 bad_request`
 * saying the header is missing, and its connection closed: the client's fix is the same, and
 * `403 forbidden_host` with `Host ""` read as if an empty name had been sent and refused.
 */
export function hostGuard(allowedHosts: readonly string[]): MiddlewareHandler<BridgeEnv> {
  const hosts = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return async (c, next) => {
    const header = c.req.header("host");
    if (header === undefined) return errorForPath(c.req.path, 400, "bad_request", MISSING_HOST, { connection: "close" });
    const target = new URL(c.req.url).host;
    for (const given of [header, target]) {
      if (!hosts.has(hostnameOf(given))) return errorForPath(c.req.path, 403, "forbidden_host", `Host ${JSON.stringify(given)} is not served here`);
    }
    await next();
    return undefined;
  };
}

/** `example.com:8080` -> `example.com`; `[::1]:3000` -> `[::1]`. */
function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}
