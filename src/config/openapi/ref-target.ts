import { LIMITS } from "../../limits.js";
import type { IgnoreRules } from "../ignore-rule-set.js";
import { readInsideRoot } from "../inside-root.js";
import { unservedPath } from "../served-path.js";

/**
 * What a spec's `$ref` may read (issue 25, finding 43). Whatever a `$ref` reaches is copied into
 * generated pages, so it may reach only a file the site would serve (inside the root, not ignored:
 * `readInsideRoot` checks those; and not what `refusedByPath` names) that every reader of the
 * referring spec may read (`RefReaders`, decided by the site from `canRead`'s rule). One rule for
 * OpenAPI and AsyncAPI, local specs and the files their `$ref`s read in turn.
 */

/** An access rule as front matter or `x-svc` `metadata` writes it (`Access` of `vfs/access.ts`,
 *  which this layer does not import). */
export interface PartRule {
  readonly groups?: readonly string[];
  readonly public?: boolean;
}

/** Who reads the spec being loaded, as the site decides it (`canRead`'s rule): unset, no file or
 *  part has readers of its own to compare (tests, benchmarks). */
export interface RefReaders {
  /** Whether every reader of the spec may read a repository file (repo-relative, `/`-separated). */
  file(rel: string): boolean;
  /** Whether every reader of the spec may read a part of another spec restricted by this rule. */
  part(rule: PartRule): boolean;
}

/** A decision `RefReaders` made while loading a spec: its result depends on it, so a spec loaded
 *  before is reused only while every decision is still the same (`sameRefDecisions`). */
export type RefDecision = { readonly rel: string; readonly allowed: boolean } | { readonly rule: PartRule; readonly allowed: boolean };

/** Why a repository path is no file the site serves, whatever the reader (`unservedPath`). */
export function refusedByPath(rel: string): string | undefined {
  return unservedPath(rel);
}

/** Whether `readers` decides as it did when these decisions were made. */
export function sameRefDecisions(decisions: readonly RefDecision[] | undefined, readers: RefReaders | undefined): boolean {
  if (decisions === undefined || decisions.length === 0) return true;
  return decisions.every((d) => (readers === undefined ? true : "rel" in d ? readers.file(d.rel) : readers.part(d.rule)) === d.allowed);
}

/** A repository file a spec's `$ref` read, or tried to (no `text`): the spec's result depends on
 *  what it holds, at any depth of `$ref` and through a link (`real`), as much as on the spec's own
 *  text (issue 25, F2). */
export interface RefFile {
  readonly rel: string;
  readonly real?: string;
  readonly text?: string;
}

/** Read a `$ref`'d file as the resolver does (`dereference.ts`), inside the root and the ignore rules. */
export function readRefFile(root: string, rel: string, ignore: IgnoreRules): ReturnType<typeof readInsideRoot> {
  return readInsideRoot(root, rel, { maxBytes: LIMITS.load.maxSpecBytes, ignore });
}

/** Whether every file a spec's `$ref`s read reads the same now (where it leads, its text): a spec
 *  loaded before is reused only then. */
export function sameRefFiles(files: readonly RefFile[] | undefined, root: string, ignore: IgnoreRules): boolean {
  return (files ?? []).every((f) => {
    const read = readRefFile(root, f.rel, ignore);
    return read.ok ? read.real === f.real && read.text === f.text : f.text === undefined;
  });
}
