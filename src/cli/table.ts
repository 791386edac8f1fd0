import { maxOf } from "../arrays.js";
/** Left-aligned columns separated by two spaces, the first row a header; no trailing spaces. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => maxOf(rows.map((r) => (r[i] ?? "").length)));
  return `${rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n")}\n`;
}
