import type { Diagnostic } from "../config/diagnostic.js";
import { visibleText } from "../config/visible-text.js";

/** `1 page`, `2 pages`. */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

/**
 * `75 pages, +84 generated from API specs`: the pages from files, then those generated from API
 * specs, as `check` counts them (a log that said "loading 862 pages" then "serving 1108 pages"
 * left the reader to guess where the rest came from).
 */
export function pagesSummary(pages: Iterable<{ readonly generated: boolean }>): string {
  let files = 0;
  let generated = 0;
  for (const page of pages) {
    if (page.generated) generated++;
    else files++;
  }
  return `${plural(files, "page")}${generated > 0 ? `, +${generated} generated from API specs` : ""}`;
}

/** A word as the shell reads it back: quoted only when it has to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * One line for what loading the docs found, instead of a line per finding before every `fs` or
 * `search` answer (13 to 33 on real sites): `12 warnings in docs.json; run \`svc-mcp check\` for
 * details`. `dir` is the `--dir` the user gave, repeated in the suggested command.
 */
export function diagnosticsSummary(diagnostics: readonly Diagnostic[], dir: string | undefined): string | undefined {
  if (diagnostics.length === 0) return undefined;
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  const counts = [errors > 0 ? plural(errors, "error") : "", warnings > 0 ? plural(warnings, "warning") : ""].filter((c) => c !== "").join(" and ");
  const files = [...new Set(diagnostics.map((d) => d.file))];
  const where =
    files.length === 1 ? visibleText(files[0] as string) : files.includes("docs.json") ? `docs.json and ${plural(files.length - 1, "other file")}` : plural(files.length, "file");
  const check = dir === undefined || dir === "." ? "svc-mcp check" : `svc-mcp check --dir ${shellWord(dir)}`;
  // "for details", not "to see them": check also checks what loading does not (pages outside
  // the navigation, ...), so its count can be higher.
  return `${counts} in ${where}; run \`${check}\` for details`;
}
