import { LIMITS } from "../limits.js";
import type { Diagnostic } from "./diagnostic.js";

/**
 * The lines for findings printed one a line (`check`'s text output, a reload's log), at most
 * `LIMITS.config.maxFindingsOfAKind` of one code and severity, each kind past it counted in one
 * line after them: `... and 65,436 more "duplicate-page" warnings <hint>`. Before (adversary round
 * 62), a navigation that repeated a page in 65,536 groups printed 65,544 "listed twice" lines,
 * to a terminal or, while serving, to the log. The order of the lines printed is kept.
 */
export function cappedFindingLines(diagnostics: Iterable<Diagnostic>, line: (d: Diagnostic) => string, hint: string): string[] {
  const max = LIMITS.config.maxFindingsOfAKind;
  const seen = new Map<string, { code: string; severity: string; count: number }>();
  const out: string[] = [];
  for (const d of diagnostics) {
    const code = d.code ?? "";
    const key = `${d.severity}\u0000${code}`;
    const kind = seen.get(key) ?? { code, severity: d.severity, count: 0 };
    seen.set(key, kind);
    if (++kind.count <= max) out.push(line(d));
  }
  for (const { code, severity, count } of seen.values()) {
    if (count <= max) continue;
    const more = (count - max).toLocaleString("en-US");
    out.push(`... and ${more} more ${code === "" ? "" : `"${code}" `}${severity === "error" ? "errors" : "warnings"} ${hint}`);
  }
  return out;
}
