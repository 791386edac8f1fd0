import { toPagePath } from "../../site-config.js";
import { parseOperationEntry } from "../../openapi/entry.js";
import { childPath } from "../json-path.js";
import type { Rule } from "./rule.js";

/** Paths the MCP server answers on; navigation cannot use them. */
export const RESERVED_PATHS = ["/mcp", "/authed/mcp"] as const;

/** The reserved site path a link or page entry would occupy, or undefined (external links never do). */
export function reservedPathOf(link: string): string | undefined {
  const s = link.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(s) || s.startsWith("//")) return undefined;
  let p = toPagePath(s.replace(/[?#].*$/, ""));
  // `mcp/index` is served at `/mcp`.
  if (p.endsWith("/index")) p = p.slice(0, -"/index".length) || "/";
  // The OAuth flow lives under `/authed/mcp/`, so everything below it is taken too.
  if ((RESERVED_PATHS as readonly string[]).includes(p) || p.startsWith("/authed/mcp/")) return p;
  return undefined;
}

/**
 * `/mcp` and `/authed/mcp` (with the OAuth flow under it) are reserved: no page or navigation
 * link should use them. A warning, not an error: the hosted platform deploys such a site (a real
 * one keeps editing its `mcp.mdx` page, listed in its navigation), whose page is simply not
 * reached while the MCP server answers there; the page is served like any other here. A
 * redirect from one never applies, for the same reason, and real sites keep such redirects from
 * before their docs had an MCP server.
 */
export const reservedPathsRule: Rule = {
  codes: ["reserved-path"],
  check({ doc, model, report }) {
    const flag = (path: string, link: unknown): void => {
      if (typeof link !== "string") return;
      const reserved = reservedPathOf(link);
      if (reserved === undefined) return;
      report({ path, code: "reserved-path", severity: "warning", message: `"${reserved}" is reserved for the MCP server; use another path` });
    };
    const flagRedirect = (path: string, link: unknown): void => {
      if (typeof link !== "string") return;
      const reserved = reservedPathOf(link);
      if (reserved === undefined) return;
      report({ path, code: "reserved-path", severity: "warning", message: `"${reserved}" is served by the MCP server, so this redirect never applies` });
    };
    for (const entry of model.entries) {
      if (parseOperationEntry(entry.entry) === undefined) flag(entry.path, entry.entry);
    }
    for (const el of model.elements) {
      flag(childPath(el.path, "href"), el.value.href);
      // Global anchors written on a language or a version (as multi-language sites do).
      const own = (el.value.global as { anchors?: unknown } | null | undefined)?.anchors;
      if ((el.kind === "language" || el.kind === "version") && Array.isArray(own)) {
        own.forEach((a, i) => flag(`${el.path}.global.anchors[${i}].href`, (a as { href?: unknown } | null)?.href));
      }
    }
    const d = doc as { navigation?: { global?: { anchors?: unknown } }; redirects?: unknown } | undefined;
    const anchors = d?.navigation?.global?.anchors;
    if (Array.isArray(anchors)) {
      anchors.forEach((a, i) => flag(`navigation.global.anchors[${i}].href`, (a as { href?: unknown } | null)?.href));
    }
    if (Array.isArray(d?.redirects)) {
      d.redirects.forEach((r, i) => flagRedirect(`redirects[${i}].source`, (r as { source?: unknown } | null)?.source));
    }
  },
};
