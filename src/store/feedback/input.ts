import { z } from "zod";
import { LIMITS } from "../../limits.js";
import { type FieldIssue, quote } from "./issues.js";
import { type FeedbackDetails, type FeedbackStatus, ratingComment, STATUSES } from "./model.js";

/**
 * What docs-site widgets and agents send, validated once here for every way in (HTTP
 * ingestion, the MCP tool). Unknown fields are refused: a misspelt `comments` silently dropped
 * would lose the user's text.
 */

const L = LIMITS.feedback;

/**
 * A page path as entries store it: `/guides/setup`. Widgets send `location.pathname`; agents
 * often send the docs filesystem's file path (`guides/setup.mdx`). Both become the same key: a
 * leading slash, no trailing slash, no `.md`/`.mdx`, no query or fragment, single slashes.
 */
export function normalizePagePath(raw: string): { ok: true; path: string } | { ok: false; reason: string } {
  const text = raw.trim();
  if (text === "") return { ok: false, reason: "must not be empty" };
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return { ok: false, reason: `must be a page path such as /guides/setup, not a URL; got ${quote(text)}` };
  // C0 controls and DEL never occur in a path; they would corrupt CSV exports and terminals.
  if (/[\u0000-\u001f\u007f]/.test(text)) return { ok: false, reason: "must not contain control characters" };
  const path = `/${text.replace(/[?#].*$/s, "")}`.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1").replace(/(.)\.mdx?$/i, "$1");
  if (path.length > L.maxPathChars) return { ok: false, reason: `must be at most ${L.maxPathChars} characters` };
  return { ok: true, path };
}

const pagePath = z.string().transform((value, ctx) => {
  const r = normalizePagePath(value);
  if (r.ok) return r.path;
  ctx.addIssue({ code: "custom", message: `path ${r.reason}` });
  return z.NEVER;
});

const text = (max: number) => z.string().trim().min(1).max(max);

/** Forms send an empty field as `""` or `null`; both mean "not given". Other strings are trimmed. */
const blankToNull = (v: unknown): unknown => (typeof v === "string" ? (v.trim() === "" ? null : v.trim()) : v);

/** An optional text; absent, `null` and blank all become null. */
const optionalText = (max: number) =>
  z.preprocess(blankToNull, z.string().max(max).nullable().optional()).transform((v) => v ?? null);

export const RatingBody = z.strictObject({ path: pagePath, helpful: z.boolean() });
export const ContextualBody = z.strictObject({
  path: pagePath,
  helpful: z.boolean(),
  comment: text(L.maxCommentChars),
  contact: z.preprocess(blankToNull, z.email().max(L.maxContactChars).nullable().optional()).transform((v) => v ?? undefined),
});
export const CodeSnippetBody = z.strictObject({
  path: pagePath,
  comment: text(L.maxCommentChars),
  // Not trimmed: indentation is part of the code. Still, an all-blank snippet is not one.
  code: z.string().max(L.maxCodeChars).regex(/\S/),
  filename: optionalText(L.maxFilenameChars),
  lang: optionalText(L.maxLangChars),
});
export const AgentInput = z.strictObject({ path: pagePath, feedback: text(L.maxCommentChars) });
export const StatusBody = z.strictObject({ status: z.enum(STATUSES) });

/** A validated submission: the entry's path, comment and source-specific fields. */
export type Submission = FeedbackDetails & { readonly path: string; readonly comment: string };

export type Parsed = { readonly ok: true; readonly value: Submission } | { readonly ok: false; readonly issues: readonly FieldIssue[] };

/** Page rating (`thumbs_only`): `{path, helpful}`. */
export function parseRating(raw: unknown): Parsed {
  return parseWith(RatingBody, raw, (b) => ({ source: "thumbs_only", path: b.path, helpful: b.helpful, comment: ratingComment(b.helpful) }));
}

/** Contextual feedback: `{path, helpful, comment, contact?}`. */
export function parseContextual(raw: unknown): Parsed {
  return parseWith(ContextualBody, raw, (b) => ({
    source: "contextual",
    path: b.path,
    helpful: b.helpful,
    comment: b.comment,
    ...(b.contact === undefined ? {} : { contact: b.contact }),
  }));
}

/** Code-snippet feedback: `{path, comment, code, filename?, lang?}`. */
export function parseCodeSnippet(raw: unknown): Parsed {
  return parseWith(CodeSnippetBody, raw, (b) => ({
    source: "code_snippet",
    path: b.path,
    comment: b.comment,
    code: b.code,
    filename: b.filename,
    lang: b.lang,
  }));
}

/** Agent feedback (the `submit_feedback` tool): `{path, feedback}`. */
export function parseAgentFeedback(raw: unknown): Parsed {
  return parseWith(AgentInput, raw, (b) => ({ source: "agent", path: b.path, comment: b.feedback }));
}

/** A status change (`PATCH .../feedback/{id}`): `{status}`. */
export function parseStatusChange(raw: unknown): { ok: true; value: FeedbackStatus } | { ok: false; issues: readonly FieldIssue[] } {
  return parseWith(StatusBody, raw, (b) => b.status);
}

function parseWith<S extends z.ZodType, T>(schema: S, raw: unknown, build: (value: z.output<S>) => T): { ok: true; value: T } | { ok: false; issues: readonly FieldIssue[] } {
  const fields = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, issues: [{ code: "invalid_parameter", param: "body", message: `expected a JSON object with the fields ${fields.join(", ")}` }] };
  }
  const result = schema.safeParse(raw, { reportInput: true });
  const schemaIssues = result.success ? [] : result.error.issues.flatMap((i) => toFieldIssues(i, raw, fields));
  const textIssues = Object.entries(raw).flatMap(([param, value]) => {
    const issue = typeof value === "string" && !schemaIssues.some((i) => i.param === param) ? loneSurrogateIssue(param, value) : undefined;
    return issue === undefined ? [] : [issue];
  });
  if (result.success && textIssues.length === 0) return { ok: true, value: build(result.data) };
  return { ok: false, issues: [...schemaIssues, ...textIssues] };
}

/**
 * A field holding half a UTF-16 surrogate pair (JSON lets `"\ud800"` through): no UTF-8 store
 * keeps it, so the entry was answered with the text as sent and stored with U+FFFD in its place
 * (three of them, in SQLite), and the submitter was shown what nobody would read (adversary
 * round 58, F11). Refused, naming the field, rather than changed behind the caller's back.
 */
function loneSurrogateIssue(param: string, value: string): FieldIssue | undefined {
  const lone = LONE_SURROGATE.exec(value);
  if (lone === null) return undefined;
  const unit = value.charCodeAt(lone.index).toString(16);
  return { code: "invalid_parameter", param, message: `${param} must be text: it holds \\u${unit} at character ${lone.index}, half of a surrogate pair, which no store keeps` };
}

/** A high surrogate not followed by a low one, or a low one not after a high one (matched by UTF-16 code unit: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const EXPECTED: Record<string, string> = { boolean: "a boolean (true or false)", string: "a string" };

function toFieldIssues(issue: z.core.$ZodIssue, raw: unknown, fields: readonly string[]): FieldIssue[] {
  const param = issue.path.map(String).join(".");
  const given = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)[param] : undefined;
  if (issue.code !== "unrecognized_keys" && given === undefined) return [{ code: "missing_parameter", param, message: `${param} is required` }];
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => ({ code: "unknown_parameter", param: key, message: `unknown field ${quote(key)}; allowed: ${fields.join(", ")}` }));
    case "invalid_type":
      return [{ code: "invalid_parameter", param, message: `${param} must be ${EXPECTED[issue.expected] ?? issue.expected}; got ${quote(given)}` }];
    case "invalid_value":
      return [{ code: "invalid_parameter", param, message: `${param} must be one of ${issue.values.map(String).join(", ")}; got ${quote(given)}` }];
    case "too_small":
      return [{ code: "invalid_parameter", param, message: `${param} must not be empty` }];
    case "too_big":
      return [{ code: "invalid_parameter", param, message: `${param} must be at most ${String(issue.maximum)} characters` }];
    case "invalid_format":
      if (issue.format === "email") return [{ code: "invalid_parameter", param, message: `${param} must be an e-mail address; got ${quote(given)}` }];
      return [{ code: "invalid_parameter", param, message: `${param} must not be blank` }];
    default:
      return [{ code: "invalid_parameter", param, message: issue.message }];
  }
}
