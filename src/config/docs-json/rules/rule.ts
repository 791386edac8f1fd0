import type { IgnoredBy } from "../../ignore-rule-set.js";
import type { ResolveEntry } from "../entries.js";
import type { NavModel } from "../nav-model.js";
import type { Stages } from "../../stages.js";

/** What the rules know about the repository's files (only in `svc-mcp check`, which loads them). */
export interface PageFiles {
  /** The file of a page path (`/guides/setup` -> `guides/setup.mdx`), also `/x` -> `x/index.mdx`. */
  fileOf(pagePath: string): string | undefined;
  /** The file a page path would have if the ignore rules did not leave it out, and which rules do. */
  ignoredFileOf?(pagePath: string): { readonly file: string; readonly by: IgnoredBy | undefined } | undefined;
  /** The file of a page path that exists but was skipped (invalid front matter, too big), and why. */
  skippedFileOf?(pagePath: string): { readonly file: string; readonly why: string } | undefined;
  /** Whether a repository-relative file exists (spec files). */
  exists(relPath: string): boolean;
}

export interface Finding {
  /** JSON path the finding is about; its position is looked up (the key's, with `at: "key"`). */
  readonly path: string;
  readonly message: string;
  /** Rule identifier, as listed in docs/docs-json.md. */
  readonly code: string;
  readonly severity?: "error" | "warning";
  readonly at?: "key" | "value";
}

export interface RuleContext {
  /** docs.json with `$ref`s resolved (not yet known to be valid: read it defensively). */
  readonly doc: unknown;
  readonly model: NavModel;
  /** Present in `svc-mcp check`; rules that need files are skipped without it. */
  readonly files: PageFiles | undefined;
  readonly resolveEntry: ResolveEntry;
  report(finding: Finding): void;
}

/** One validation rule beyond the schema. Rules are listed in `rules/index.ts`. */
export interface Rule {
  /** The codes this rule reports with. */
  readonly codes: readonly string[];
  /** True when the rule needs the repository's files (run by `check`, not on every reload). */
  readonly needsFiles?: boolean;
  /** A rule that walks every entry may do it in stages (a generator yielding between them), so
   *  that a reload while serving gives the thread back meanwhile (`validationStages`). */
  check(ctx: RuleContext): void | Stages<void>;
}
