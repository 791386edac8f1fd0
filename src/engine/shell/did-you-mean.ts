import Fuse from "fuse.js";
import type { SiteView } from "../../vfs/view.js";
import { normalize } from "../../vfs/view.js";

/** How many missing paths get suggestions, and how many suggestions each. */
const MAX_MISSING = 3;
const MAX_SUGGESTIONS = 3;

/**
 * Paths named in "no such file" messages. Each tool words it its own way (`cannot access
 * '/x'`, `‘/x’`, `can't read /x`, `/x: IO error...`); every variant ends in the same strerror.
 */
const MISSING_PATTERNS: readonly RegExp[] = [
  /(?:cannot access|cannot open|cannot statx|cannot stat) ['‘"]([^'’"]+)['’"](?: for reading)?: No such file or directory/g,
  /['‘]([^'’\n]+)['’]: No such file or directory/g,
  /can't read ([^\n:]+): No such file or directory/g,
  /(?:^|\n)(?:[\w-]+: )?([^\s:'‘’"][^\n:]*): No such file or directory/g,
];

/** tree reports a missing folder on stdout. */
const TREE_MISSING = /^(\S[^\n]*?) {2}\[error opening dir\]$/gm;

/** Missing paths mentioned in a command's diagnostics (absolute, resolved against `/`). */
export function missingPaths(stderr: string, stdout: string): string[] {
  const found = new Set<string>();
  for (const re of MISSING_PATTERNS) {
    for (const m of stderr.matchAll(re)) {
      const p = m[1]?.trim();
      if (p !== undefined && p !== "" && !p.includes(" ")) found.add(normalize(p.startsWith("/") ? p : `/${p}`));
    }
  }
  for (const m of stdout.matchAll(TREE_MISSING)) {
    const p = m[1] as string;
    found.add(normalize(p.startsWith("/") ? p : `/${p}`));
  }
  return [...found];
}

/**
 * Suggests visible paths close to a path that does not exist. Only the reader's view is
 * searched, so a suggestion never reveals a page the reader may not read.
 */
export class PathSuggester {
  private fuse: Fuse<string> | undefined;

  constructor(private readonly view: SiteView) {}

  private index(): Fuse<string> {
    this.fuse ??= new Fuse(this.view.getAllPaths().filter((p) => p !== "/"), {
      includeScore: true,
      ignoreLocation: true,
      threshold: 0.45,
    });
    return this.fuse;
  }

  /** Closest visible paths to `missing`, best first. */
  suggest(missing: string): string[] {
    const out: string[] = [];
    // A page named by its link (`/guides/setup`) is the file `/guides/setup.mdx`.
    for (const ext of [".mdx", ".md"]) {
      if (this.view.fileAt(`${missing}${ext}`) !== undefined) out.push(`${missing}${ext}`);
    }
    // Fuse finds candidates fast; edit distance on the whole path and on the last component
    // ranks them (Fuse's own score favours long paths that merely contain the query).
    const base = baseOf(missing);
    const candidates = new Set<string>();
    for (const h of this.index().search(missing, { limit: 30 })) candidates.add(h.item);
    if (base.length >= 3) for (const h of this.index().search(base, { limit: 30 })) candidates.add(h.item);
    const ranked = [...candidates]
      .map((p) => {
        // Case slips (`readme.md`) cost little; a path the typed one begins (a page link
        // without `.mdx`, a cut-off name) is a strong hint.
        const full = levenshtein(missing.toLowerCase(), p.toLowerCase()) / Math.max(missing.length, p.length);
        const b = baseOf(p);
        const last = levenshtein(base.toLowerCase(), b.toLowerCase()) / Math.max(base.length, b.length, 1);
        const stem = missing.toLowerCase().replace(/\.mdx?$/, "");
        const prefix = stem.length > 1 && p.toLowerCase().startsWith(stem) ? 0.3 : 0;
        return { p, full, last, score: 0.6 * full + 0.4 * last - prefix };
      })
      .filter((c) => c.full <= 0.34 || c.last <= 0.34 || c.score < 0.2)
      .sort((a, b) => a.score - b.score || a.p.length - b.p.length);
    for (const c of ranked) {
      if (!out.includes(c.p)) out.push(c.p);
      if (out.length >= MAX_SUGGESTIONS) break;
    }
    return out;
  }

  /** The hint added to a tool result when a command named paths that do not exist. */
  hintFor(stderr: string, stdout: string): string | undefined {
    const lines: string[] = [];
    for (const missing of missingPaths(stderr, stdout).slice(0, MAX_MISSING)) {
      if (this.view.fileAt(missing) !== undefined || this.view.isDir(missing)) continue;
      const suggestions = this.suggest(missing);
      if (suggestions.length > 0) lines.push(`${missing} does not exist. Did you mean: ${suggestions.join(", ")}?`);
    }
    return lines.length === 0 ? undefined : lines.join("\n");
  }
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Edit distance (insertions, deletions, substitutions). */
function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost));
    }
    prev = cur;
  }
  return prev[b.length] as number;
}
