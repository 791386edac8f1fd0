/**
 * The feedback entry as the API serves it, and the values a new entry is made from. One place
 * for the spec's table "Feedback entry": which fields an entry carries depends on its source.
 */

/** Spec: source enum, in the spec's order. */
export const SOURCES = ["code_snippet", "contextual", "agent", "thumbs_only"] as const;
export type FeedbackSource = (typeof SOURCES)[number];

/** Spec: status enum. Every new entry starts `pending`. */
export const STATUSES = ["pending", "in_progress", "resolved", "dismissed"] as const;
export type FeedbackStatus = (typeof STATUSES)[number];

export function isSource(value: string): value is FeedbackSource {
  return (SOURCES as readonly string[]).includes(value);
}

export function isStatus(value: string): value is FeedbackStatus {
  return (STATUSES as readonly string[]).includes(value);
}

/** Fields every entry carries, in the spec's order. */
interface EntryBase {
  readonly id: string;
  readonly path: string;
  readonly comment: string;
  /** ISO 8601 UTC with milliseconds (`2024-05-01T09:30:00.000Z`), set by the server. */
  readonly createdAt: string;
  readonly status: FeedbackStatus;
}

/** A feedback entry exactly as the API returns it: the per-source fields and no others. */
export type FeedbackEntry =
  | (EntryBase & { readonly source: "thumbs_only" })
  | (EntryBase & { readonly source: "agent" })
  | (EntryBase & { readonly source: "contextual"; readonly helpful: boolean; readonly contact?: string })
  | (EntryBase & {
      readonly source: "code_snippet";
      readonly code: string;
      /** null when the code block has no file name (most blocks have none). */
      readonly filename: string | null;
      /** null when the code block has no language tag. */
      readonly lang: string | null;
    });

/** What the source-specific part of a new entry holds. */
export type FeedbackDetails =
  /** A page rating. `helpful` is kept for aggregate figures; the API shows the vote as the
   *  comment (the spec's table gives `thumbs_only` entries no `helpful` field). */
  | { readonly source: "thumbs_only"; readonly helpful: boolean }
  | { readonly source: "agent" }
  | { readonly source: "contextual"; readonly helpful: boolean; readonly contact?: string | undefined }
  | { readonly source: "code_snippet"; readonly code: string; readonly filename: string | null; readonly lang: string | null };

/** A validated entry to store. The caller (the server) sets `createdAt`. */
export type NewFeedback = FeedbackDetails & {
  readonly projectId: string;
  readonly path: string;
  readonly comment: string;
  /** Milliseconds since the epoch (UTC). */
  readonly createdAt: number;
};

/** A stored entry's columns, as every store implementation holds them. */
export interface FeedbackRecord {
  readonly id: string;
  readonly source: FeedbackSource;
  readonly status: FeedbackStatus;
  readonly createdAt: number;
  readonly path: string;
  readonly comment: string;
  readonly helpful: boolean | null;
  readonly contact: string | null;
  readonly code: string | null;
  readonly filename: string | null;
  readonly lang: string | null;
}

/** The API form of a stored entry: the fields its source carries, in a stable order. */
export function toEntry(r: FeedbackRecord): FeedbackEntry {
  const base = { id: r.id, path: r.path, comment: r.comment, createdAt: new Date(r.createdAt).toISOString() };
  switch (r.source) {
    case "contextual":
      return r.contact === null
        ? { ...base, source: r.source, status: r.status, helpful: r.helpful === true }
        : { ...base, source: r.source, status: r.status, helpful: r.helpful === true, contact: r.contact };
    case "code_snippet":
      return { ...base, source: r.source, status: r.status, code: r.code ?? "", filename: r.filename, lang: r.lang };
    case "thumbs_only":
    case "agent":
      return { ...base, source: r.source, status: r.status };
  }
}

/** The comment a page rating carries: the vote, as text. */
export function ratingComment(helpful: boolean): string {
  return helpful ? "helpful" : "not helpful";
}
