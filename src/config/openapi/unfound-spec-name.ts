import { posix } from "node:path";
import { isRemoteSpec } from "./spec-source.js";

/**
 * The spec sources a front matter spec name may still denote when the load searched the
 * repository for it and found no one file (`frontMatterSpecFile`: none, or several): only those
 * no repository path finds, the remote ones docs.json names and the paths leaving the repository
 * (never read, said so at the page). Matched against the local specs loaded for other pages, a
 * page's reference would depend on what those pages name, and show a file only their readers may
 * read (adversary round 47 F4: `secret.json GET /gadgets` on a public page found the spec a staff
 * page names by its path). `searched` false (no load resolved the names): every source, as
 * docs.json's entries are matched.
 */
export function sourcesForUnfoundName(sources: readonly string[], searched: boolean): string[] {
  return searched ? sources.filter((s) => isRemoteSpec(s) || leavesRepository(s)) : [...sources];
}

function leavesRepository(source: string): boolean {
  const rel = posix.normalize(source);
  return rel === ".." || rel.startsWith("../");
}
