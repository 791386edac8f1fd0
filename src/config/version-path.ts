// Its own file so that the site config, which carries version paths, and the code that derives
// them from the config's page placements need not import each other.

/** Where a version's pages live: `/v3/...`, `/docs/2025-06-18/...`. */
export interface VersionPath {
  /** The path segment that tells the version's pages apart (`v3`, `2025-06-18`). */
  readonly segment: string;
  /** The pages' common path up to and including that segment (`/v3`, `/docs/2025-06-18`). */
  readonly prefix: string;
}
