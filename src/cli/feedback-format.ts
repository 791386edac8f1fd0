import type { FeedbackEntry } from "../store/feedback/model.js";
import { formatTable } from "./table.js";

/** Columns of `feedback export --format csv`: every field any source carries. */
export const CSV_COLUMNS = ["id", "createdAt", "source", "status", "path", "comment", "helpful", "contact", "code", "filename", "lang"] as const;

/** Fields holding text from the public (widgets, agents); see `csvCell`. */
const UNTRUSTED = new Set<string>(["path", "comment", "contact", "code", "filename", "lang"]);

/** One CSV record (RFC 4180: CRLF line ends, quotes doubled). Absent fields are empty cells. */
export function csvRow(entry: FeedbackEntry): string {
  const record = entry as unknown as Record<string, unknown>;
  return `${CSV_COLUMNS.map((c) => csvCell(record[c], UNTRUSTED.has(c))).join(",")}\r\n`;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(",")}\r\n`;
}

/**
 * A cell. Text from the public that starts with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`:
 * spreadsheets would otherwise run it as a formula when the export is opened (CSV injection,
 * OWASP). `--format json` keeps the exact text.
 */
function csvCell(value: unknown, untrusted: boolean): string {
  if (value === undefined || value === null) return "";
  let text = typeof value === "string" ? value : String(value);
  if (untrusted && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `feedback list` as text: one line per entry, comments cut to one short line. */
export function formatEntries(entries: readonly FeedbackEntry[]): string {
  const rows = [["CREATED", "ID", "SOURCE", "STATUS", "PATH", "COMMENT"]];
  for (const e of entries) {
    const oneLine = e.comment.replace(/\s+/g, " ").trim();
    rows.push([e.createdAt, e.id, e.source, e.status, e.path, oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine]);
  }
  return formatTable(rows);
}
