// Its own file so that reading files inside the root (which honours the rules) and compiling
// the rules (which reads the ignore files inside the root) need not import each other.

export type IgnoredBy = "always" | "default" | "file";

/** A compiled set of ignore rules over repository-relative paths (`guides/setup.mdx`). */
export interface IgnoreRules {
  /** True when the repo-relative path is ignored. */
  ignores(relPath: string): boolean;
  /** Which rules leave an ignored path out: the ones no ignore file can take back (`always`), the
   *  platform's defaults an ignore file can take back (`default`), or an ignore file's own (`file`).
   *  For `check`'s message: an author who wrote no ignore file must not go looking for one. */
  excludedBy?(relPath: string): IgnoredBy | undefined;
  /** The patterns in effect (defaults first), for `--help`-style reporting. */
  readonly patterns: readonly string[];
  /** Where the ignore files that are links lead (repo-relative): configuration files as much as
   *  the ignore files, so that an edit of one reloads the rules (issue 25, F3). */
  readonly linkTargets?: readonly string[];
  /** The ignore files the rules were read from (`.svcignore`, `.mintignore`): one of them gone
   *  while serving keeps what it excluded excluded (`loadSite`). */
  readonly files?: readonly string[];
  /** Those of `files` that held no rule and no comment (0 bytes, or blank lines only): one emptied
   *  while serving keeps its last good rules until it has content again (`loadSite`), as
   *  `: > .svcignore` or `echo > .svcignore` is a rewrite begun. */
  readonly emptyFiles?: readonly string[];
  /** Where a CR alone splits a line of `files` (old Mac line ends): read as git reads it, one
   *  line, and `check` says so (`checkSite`). */
  readonly loneCrLines?: readonly { readonly file: string; readonly line: number }[];
}
