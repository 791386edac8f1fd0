import { LIMITS } from "../../limits.js";
import { parseFilterDate } from "./dates.js";
import { type FieldIssue, quote } from "./issues.js";
import { type FeedbackSource, type FeedbackStatus, isSource, isStatus, SOURCES, STATUSES } from "./model.js";

/** Which entries of a project to list. Dates are milliseconds since the epoch (UTC). */
export interface FeedbackFilter {
  readonly projectId: string;
  /** Inclusive lower bound. */
  readonly dateFrom?: number;
  /** Exclusive upper bound: entries strictly before it. */
  readonly dateTo?: number;
  readonly source?: FeedbackSource;
  /** In STATUSES order, without duplicates; never all four (that is no filter). */
  readonly statuses?: readonly FeedbackStatus[];
}

/** One page request: the filter, the page size and where to continue. */
export interface FeedbackQuery extends FeedbackFilter {
  readonly limit: number;
  /** `nextCursor` of the previous page; absent for the first page. */
  readonly cursor?: string;
}

/** The query parameters of `GET /v1/analytics/{projectId}/feedback`, in documentation order. */
export const QUERY_PARAMS = ["dateFrom", "dateTo", "source", "status", "limit", "cursor"] as const;
export type QueryParam = (typeof QUERY_PARAMS)[number];

export type ParsedQuery =
  | { readonly ok: true; readonly query: Omit<FeedbackQuery, "projectId"> }
  | { readonly ok: false; readonly issues: readonly FieldIssue[] };

/**
 * Validate list parameters (`[name, value]` pairs as they arrive, repeats included) and report
 * every bad one at once. An empty value counts as not given: forms and templating send
 * `source=` for "any".
 */
export function parseFeedbackQuery(pairs: Iterable<readonly [string, string]>): ParsedQuery {
  const issues: FieldIssue[] = [];
  const values = new Map<QueryParam, string>();
  const counts = new Map<string, number>();
  for (const [name, value] of pairs) {
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (!(QUERY_PARAMS as readonly string[]).includes(name)) {
      if (counts.get(name) === 1) {
        issues.push({ code: "unknown_parameter", param: name, message: `unknown query parameter ${quote(name)}; known: ${QUERY_PARAMS.join(", ")}` });
      }
      continue;
    }
    if (value !== "") values.set(name as QueryParam, value);
  }
  for (const [name, count] of counts) {
    if (count < 2 || !(QUERY_PARAMS as readonly string[]).includes(name)) continue;
    const fix = name === "status" ? "list several statuses in one comma-separated value (status=pending,in_progress)" : "give it once";
    issues.push({ code: "invalid_parameter", param: name, message: `${name} is given ${count} times; ${fix}` });
    values.delete(name as QueryParam);
  }

  const dates: { dateFrom?: number; dateTo?: number } = {};
  for (const name of ["dateFrom", "dateTo"] as const) {
    const text = values.get(name);
    if (text === undefined) continue;
    const parsed = parseFilterDate(text);
    if (parsed.ok) dates[name] = parsed.ms;
    else issues.push({ code: "invalid_parameter", param: name, message: `${name} ${quote(text)}: ${parsed.reason}` });
  }
  if (dates.dateFrom !== undefined && dates.dateTo !== undefined && dates.dateTo <= dates.dateFrom) {
    issues.push({
      code: "invalid_parameter",
      param: "dateTo",
      message: `dateTo must be later than dateFrom: dateTo is exclusive, so dateFrom=2024-05-01&dateTo=2024-05-02 selects 1 May (got dateFrom=${values.get("dateFrom")}, dateTo=${values.get("dateTo")})`,
    });
  }

  let source: FeedbackSource | undefined;
  const sourceText = values.get("source");
  if (sourceText !== undefined) {
    if (isSource(sourceText)) source = sourceText;
    else issues.push({ code: "invalid_parameter", param: "source", message: `source ${quote(sourceText)} is not one of ${SOURCES.join(", ")}` });
  }

  const statuses = parseStatusList(values.get("status"), issues);

  let limit: number = LIMITS.feedback.defaultPageSize;
  const limitText = values.get("limit");
  if (limitText !== undefined) {
    const n = /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (Number.isInteger(n) && n >= LIMITS.feedback.minPageSize && n <= LIMITS.feedback.maxPageSize) limit = n;
    else {
      issues.push({
        code: "invalid_parameter",
        param: "limit",
        message: `limit must be an integer from ${LIMITS.feedback.minPageSize} to ${LIMITS.feedback.maxPageSize}; got ${quote(limitText)}`,
      });
    }
  }

  if (issues.length > 0) return { ok: false, issues };
  const cursor = values.get("cursor");
  return {
    ok: true,
    query: {
      ...dates,
      ...(source === undefined ? {} : { source }),
      ...(statuses === undefined ? {} : { statuses }),
      limit,
      ...(cursor === undefined ? {} : { cursor }),
    },
  };
}

/** `pending, in_progress` -> unique statuses in STATUSES order; all four (or none) -> no filter. */
function parseStatusList(text: string | undefined, issues: FieldIssue[]): FeedbackStatus[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const bad = items.filter((s) => !isStatus(s));
  if (bad.length > 0) {
    const list = bad.map((b) => quote(b)).join(", ");
    issues.push({
      code: "invalid_parameter",
      param: "status",
      message: `status ${list} ${bad.length === 1 ? "is" : "are"} not one of ${STATUSES.join(", ")} (comma-separated)`,
    });
    return undefined;
  }
  const set = STATUSES.filter((s) => items.includes(s));
  return set.length === 0 || set.length === STATUSES.length ? undefined : set;
}
