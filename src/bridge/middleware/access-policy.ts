import type { SiteSettings, Subject } from "../../store/state/state-store.js";
import { ALL_ACCESS, type Reader } from "../../vfs/access.js";

/**
 * Whether the MCP endpoints answer (spec "States and transitions"): fully public docs serve
 * without enabling; docs with any authentication start disabled until the owner runs
 * `svc-mcp mcp enable`. An explicit `svc-mcp mcp disable` turns off a public site's server too.
 */
export function mcpAvailable(settings: SiteSettings): boolean {
  if (settings.mcp !== undefined) return settings.mcp === "enabled";
  return settings.authMode === "public";
}

/**
 * The reader a token speaks for. A client credential reads "what an authenticated user with
 * access to all pages reads"; a person reads ungrouped pages plus their groups' pages (their
 * current groups: `svc-mcp users` changes apply at the next request).
 */
export function readerForSubject(subject: Subject): Reader {
  if (subject.kind === "credential") return ALL_ACCESS;
  return { authenticated: true, groups: new Set(subject.groups), allGroups: false };
}

/** A stable name for whom a session belongs to: a session is never served to anyone else. */
export function principalOf(subject: Subject | undefined): string {
  if (subject === undefined) return "anonymous";
  return subject.kind === "credential" ? `credential:${subject.clientId}` : `user:${subject.name}`;
}

/** The rules in force for a setting, in words (`svc-mcp mcp status`, docs/bridge.md's table). */
export function describeAccess(settings: SiteSettings): { readonly server: string; readonly mcp: string; readonly authed: string } {
  const server =
    settings.mcp === "enabled"
      ? "enabled"
      : settings.mcp === "disabled"
        ? "disabled (enable with `svc-mcp mcp enable`)"
        : settings.authMode === "public"
          ? "enabled (fully public docs need no enabling)"
          : "disabled: docs with authentication start disabled (enable with `svc-mcp mcp enable`)";
  const mcp =
    settings.authMode === "full"
      ? "no sign-in; only pages marked `public: true`"
      : "no sign-in; pages without `groups`, and pages marked `public: true`";
  const authed =
    settings.authMode === "full"
      ? "bearer token required; a person reads ungrouped pages, `public: true` pages and their groups' pages; a client credential reads every page"
      : "bearer token required; a person reads public pages and their groups' pages; a client credential reads every page";
  return { server, mcp, authed };
}
