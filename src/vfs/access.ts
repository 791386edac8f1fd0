/**
 * Who may read what. Every per-reader view (filesystem, search, skills) asks `canRead` and
 * nothing else, so the rule lives in exactly one place.
 */

/** How a site authenticates its readers (a site setting, `auth.mode` in docs.json or `--auth`). */
export type AuthMode = "public" | "partial" | "full";

/** Access rule of one file, from its front matter. */
export interface Access {
  /** `groups` front matter: only readers in at least one of these groups may read the file. */
  readonly groups?: readonly string[];
  /** `public: true`: anyone may read the file, even on a fully authenticated site. */
  readonly public?: boolean;
}

/** A reader of the docs: an anonymous visitor, a signed-in user, or a client credential. */
export interface Reader {
  /** Whether the reader signed in (or holds a token). */
  readonly authenticated: boolean;
  /** Groups the reader belongs to. */
  readonly groups: ReadonlySet<string>;
  /** Client credentials read "what an authenticated user with access to all pages reads". */
  readonly allGroups: boolean;
}

export const ANONYMOUS: Reader = Object.freeze({
  authenticated: false,
  groups: new Set<string>(),
  allGroups: false,
});

/** A reader with the given groups, as `--groups a,b` describes a local preview. */
export function readerWithGroups(groups: readonly string[]): Reader {
  if (groups.length === 0) return ANONYMOUS;
  return { authenticated: true, groups: new Set(groups), allGroups: false };
}

/** Everything: an authenticated reader in every group (client credentials, `svc-mcp check`). */
export const ALL_ACCESS: Reader = Object.freeze({
  authenticated: true,
  groups: new Set<string>(),
  allGroups: true,
});

/**
 * The one visibility rule.
 * - `public: true` pages are readable by everyone.
 * - A page with `groups` is readable only by readers in one of them (or with all groups).
 * - Any other page is readable by everyone, except on a fully authenticated site, where it
 *   needs a signed-in reader.
 */
export function canRead(access: Access, reader: Reader, mode: AuthMode): boolean {
  if (access.public === true) return true;
  if (access.groups !== undefined && access.groups.length > 0) {
    if (reader.allGroups) return true;
    return access.groups.some((g) => reader.groups.has(g));
  }
  return mode !== "full" || reader.authenticated;
}

/** A stable text for a rule (`groups` order kept: it is what the author wrote). */
export function accessKey(access: Access): string {
  return JSON.stringify([access.groups ?? null, access.public === true]);
}

/** A stable key for caching per-reader views: readers with the same key see the same files. */
export function readerKey(reader: Reader): string {
  if (reader.allGroups) return "*";
  const groups = [...reader.groups].sort().join(",");
  return `${reader.authenticated ? "a" : "-"}:${groups}`;
}

/**
 * Whether every reader who may read `outer` may also read `inner`, whatever the site's mode: what
 * a page may show of another file's content (an MDX page showing the operation it documents).
 */
export function readersCover(outer: Access, inner: Access): boolean {
  if (inner.public === true) return true;
  if (inner.groups !== undefined && inner.groups.length > 0) {
    const groups = outer.groups ?? [];
    return outer.public !== true && groups.length > 0 && groups.every((g) => inner.groups?.includes(g) === true);
  }
  // A page without rules needs sign-in on a fully authenticated site; a public one does not.
  return outer.public !== true;
}

/** The groups a rule restricts its readers to; undefined when it restricts nobody (no `groups`, or `public: true`). */
export function restrictingGroups(access: Access | undefined): readonly string[] | undefined {
  return access?.groups !== undefined && access.public !== true ? access.groups : undefined;
}

/** The access rule front matter (or an operation's `x-svc.metadata`, read as front matter) sets. */
export function accessOfMeta(meta: { readonly groups?: readonly string[]; readonly public?: boolean }): Access {
  return { ...(meta.groups !== undefined ? { groups: meta.groups } : {}), ...(meta.public === true ? { public: true } : {}) };
}

/**
 * A key equal for two rules exactly when `canRead` lets the same readers read both, whatever the
 * reader and the site's mode: whoever reads one file of a class reads every file of it. What a
 * page may state about its class (how many pages it holds) tells its readers nothing they cannot
 * read themselves.
 */
export function accessClass(access: Access): string {
  if (access.public === true) return "public";
  if (access.groups === undefined || access.groups.length === 0) return "site";
  // As JSON: a group name may hold any character, so no separator joins two lists alike (adversary
  // round 46 F4: `["a\nb"]` and `["a", "b"]` were one class).
  return `groups:${JSON.stringify([...new Set(access.groups)].sort())}`;
}
