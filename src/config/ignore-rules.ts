import ignore, { type Ignore } from "ignore";
import type { IgnoredBy, IgnoreRules } from "./ignore-rule-set.js";
import { ignoreFileText } from "./ignore-file-text.js";
import { NO_IGNORE_RULES, readBytesInsideRoot } from "./inside-root.js";
import { LoadStoppedError } from "./load-stopped.js";

/** Ignore files read from the repository root, in order. `.mintignore` is the predecessor's name. */
export const IGNORE_FILES = [".svcignore", ".mintignore"] as const;

/** Always left out, whatever the ignore files say (a `!.git/` there serves nothing of it):
 *  version control, dependencies, dot-folders (`.github`, `.vscode`, `.cache`...). */
const ALWAYS_PATTERNS = [".git/", "node_modules/", ".*/"];

/**
 * Left out unless an ignore file takes one back (`!README.md`): what the hosted platform leaves out
 * of every build ("Default ignored patterns" of its `.mintignore` page), the repository's own notes
 * and build output. The folders only at the root: real sites keep sections named `build` deeper
 * (`en/cloud/use-dify/build/agent`, `agents/build/tools`) and the platform serves them.
 */
const PLATFORM_PATTERNS = ["/build/", "/dist/", "/coverage/", "/tmp/", "/temp/", "README.md", "LICENSE.md", "CHANGELOG.md", "CONTRIBUTING.md"];

/** The `.svcignore` line that serves a file only the platform's defaults leave out: its folder
 *  (`!/build/`: no line can take back a file whose folder is left out) or the file itself. */
export function takeBackLine(relPath: string): string {
  const folder = relPath.split("/")[0] as string;
  return relPath.includes("/") && PLATFORM_PATTERNS.includes(`/${folder}/`) ? `!/${folder}/` : `!/${relPath}`;
}

/** Why an ignored file is left out, in a `check` message. */
export function ignoredWhy(relPath: string, by: IgnoredBy | undefined): string {
  if (by === "always") return `${relPath} is never served (version control, dependencies and dot-folders are left out)`;
  if (by === "default") return `${relPath} is left out by default, as the hosted platform leaves it out (a line \`${takeBackLine(relPath)}\` in .svcignore serves it)`;
  return `${relPath} is excluded by the ignore file (.svcignore or .mintignore)`;
}

/**
 * Build the rules from the contents of the ignore files (gitignore semantics, via `ignore`).
 * `texts` are the ignore files' contents, in `IGNORE_FILES` order; missing files are omitted.
 */
export function compileIgnoreRules(texts: readonly string[]): IgnoreRules {
  const always: Ignore = ignore({ allowRelativePaths: true }).add(ALWAYS_PATTERNS);
  const ig: Ignore = ignore({ allowRelativePaths: true }).add(PLATFORM_PATTERNS);
  const patterns = [...ALWAYS_PATTERNS, ...PLATFORM_PATTERNS];
  const own: Ignore = ignore({ allowRelativePaths: true });
  for (const text of texts) {
    ig.add(text);
    own.add(text);
    for (const line of text.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed !== "" && !trimmed.startsWith("#")) patterns.push(trimmed);
    }
  }
  return {
    ignores: (relPath) => relPath !== "" && (always.ignores(relPath) || ig.ignores(relPath)),
    excludedBy: (relPath) => {
      if (relPath === "") return undefined;
      if (always.ignores(relPath)) return "always";
      if (!ig.ignores(relPath)) return undefined;
      return own.ignores(relPath) ? "file" : "default";
    },
    patterns,
  };
}

/** The root's ignore rules, or the first ignore file that exists but cannot be read, and why. */
export type ReadIgnoreRules =
  | { readonly ok: true; readonly rules: IgnoreRules }
  /** `readable`: the rules of the ignore files that could be read, and the defaults; `fix`: what
   *  the author does about it (`make it readable`, `save it as UTF-8`). */
  | { readonly ok: false; readonly file: string; readonly message: string; readonly fix: string; readonly readable: IgnoreRules };

/**
 * Read the root's ignore files and compile them. An absent file is the normal case; one that
 * exists but cannot be read (permission denied, a folder, a link outside the root or to nowhere)
 * or whose bytes are no UTF-8 text (`ignoreFileText`: saved as UTF-16) is no rules at all: taken
 * as absent, or as rules that match nothing, it would serve every file it excludes.
 */
export function readIgnoreRules(root: string): ReadIgnoreRules {
  const texts: string[] = [];
  const linkTargets: string[] = [];
  const files: string[] = [];
  const emptyFiles: string[] = [];
  const loneCrLines: { file: string; line: number }[] = [];
  let failed: { file: string; message: string; fix: string } | undefined;
  for (const name of IGNORE_FILES) {
    const read = readBytesInsideRoot(root, name, { ignore: NO_IGNORE_RULES });
    if (!read.ok) {
      if (read.reason !== "missing") failed ??= { file: name, message: read.message, fix: "make it readable, or remove it" };
      continue;
    }
    const decoded = ignoreFileText(read.bytes);
    // Its link target is a configuration file whatever its bytes: saved again as UTF-8, it reloads.
    if (read.real !== name) linkTargets.push(read.real);
    if (!decoded.ok) {
      failed ??= { file: name, message: decoded.message, fix: "save it as UTF-8, or remove it" };
      continue;
    }
    texts.push(decoded.text);
    files.push(name);
    if (decoded.blank) emptyFiles.push(name);
    if (decoded.loneCrLine !== undefined) loneCrLines.push({ file: name, line: decoded.loneCrLine });
  }
  const compiled = compileIgnoreRules(texts);
  const rules = {
    ...compiled,
    ...(linkTargets.length > 0 ? { linkTargets } : {}),
    ...(files.length > 0 ? { files } : {}),
    ...(emptyFiles.length > 0 ? { emptyFiles } : {}),
    ...(loneCrLines.length > 0 ? { loneCrLines } : {}),
  };
  return failed === undefined ? { ok: true, rules } : { ok: false, ...failed, readable: rules };
}

/** Rules that ignore what either ignores: a broken ignore file's last good rules with what the
 *  readable ones exclude now (a new exclusion applies at once; nothing excluded comes back). */
export function eitherIgnores(a: IgnoreRules, b: IgnoreRules): IgnoreRules {
  const linkTargets = [...new Set([...(a.linkTargets ?? []), ...(b.linkTargets ?? [])])];
  const files = [...new Set([...(a.files ?? []), ...(b.files ?? [])])];
  return {
    ignores: (relPath) => a.ignores(relPath) || b.ignores(relPath),
    excludedBy: (relPath) => a.excludedBy?.(relPath) ?? b.excludedBy?.(relPath),
    patterns: [...new Set([...a.patterns, ...b.patterns])],
    ...(linkTargets.length > 0 ? { linkTargets } : {}),
    ...(files.length > 0 ? { files } : {}),
  };
}

/**
 * `readIgnoreRules`, where an ignore file that cannot be read stops the load (`LoadStoppedError`):
 * at start-up there are no last good rules to keep (a reload keeps them: `loadSite`).
 */
export function loadIgnoreRules(root: string): IgnoreRules {
  const read = readIgnoreRules(root);
  if (!read.ok) throw new LoadStoppedError(`cannot read ${read.file}: ${read.message}; the files it excludes would be served, so nothing is (${read.fix})`);
  return read.rules;
}
