import type { MiddlewareHandler } from "hono";
import type { BridgeEnv } from "../context.js";
import { errorForPath } from "./origin-policy.js";

/**
 * DNS-rebinding protection of a server bound to loopback: a page on `attacker.example` whose
 * name the attacker then points at 127.0.0.1 is same-origin with itself, so the browser lets it
 * read whatever this server answers; only the `Host` header (`attacker.example:PORT`) gives it
 * away. So every request, on every route (MCP, OAuth, pages, the preview's calls, media,
 * assets, unknown paths), must name one of `allowedHosts` (the loopback names, and the
 * `--public-url` host); any other is `403 forbidden_host`, in the path's error shape (JSON-RPC
 * on the MCP endpoints, the API's JSON elsewhere, HTML routes included: see docs/bridge.md).
 */
export function hostGuard(allowedHosts: readonly string[]): MiddlewareHandler<BridgeEnv> {
  const hosts = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return async (c, next) => {
    const given = c.req.header("host") ?? "";
    if (!hosts.has(hostnameOf(given))) return errorForPath(c.req.path, 403, "forbidden_host", `Host ${JSON.stringify(given)} is not served here`);
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
