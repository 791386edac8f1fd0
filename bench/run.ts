import type { BenchRow } from "./bench.js";
import { SUITES } from "./suites.js";

/** `npm run bench [-- name...]`: run the suites and print one table (also as JSON with --json). */
const args = process.argv.slice(2);
const json = args.includes("--json");
const only = args.filter((a) => !a.startsWith("--"));
const rows: BenchRow[] = [];
for (const suite of SUITES) {
  if (only.length > 0 && !only.includes(suite.name)) continue;
  process.stderr.write(`running ${suite.name}...\n`);
  rows.push(...(await suite.run((m) => process.stderr.write(`  ${m}\n`))));
}

const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
if (json) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  const table = [["area", "metric", "svc-mcp", "baseline", "target", "ok"]];
  for (const r of rows) {
    table.push([
      r.area,
      r.metric,
      `${fmt(r.value)} ${r.unit}`,
      r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.name})` : "",
      r.target ?? "",
      r.ok === undefined ? "" : r.ok ? "yes" : "NO",
    ]);
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  process.stdout.write(`${line(table[0]!)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n`);
  for (const row of table.slice(1)) process.stdout.write(`${line(row)}\n`);
}
