import type { SiteSettings, Subject } from "../store/state/state-store.js";
import { ALL_ACCESS, type Reader } from "../vfs/access.js";

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
