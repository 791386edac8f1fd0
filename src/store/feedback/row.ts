import type { FeedbackRecord, FeedbackStatus } from "./model.js";

/** A `feedback` row as both engines read it: `helpful` is 0 or 1 in SQLite, a boolean in PostgreSQL. */
export interface FeedbackRow {
  seq: number;
  id: string;
  source: FeedbackRecord["source"];
  status: FeedbackStatus;
  created_at: number;
  path: string;
  comment: string;
  helpful: boolean | 0 | 1 | null;
  contact: string | null;
  code: string | null;
  filename: string | null;
  lang: string | null;
}

/** The columns of a `FeedbackRow`, for SELECT lists. */
export const FEEDBACK_COLUMNS = "seq, id, source, status, created_at, path, comment, helpful, contact, code, filename, lang";

/** The record a row holds. */
export function recordOf(r: FeedbackRow): FeedbackRecord {
  return {
    id: r.id,
    source: r.source,
    status: r.status,
    createdAt: r.created_at,
    path: r.path,
    comment: r.comment,
    helpful: r.helpful === null ? null : r.helpful === true || r.helpful === 1,
    contact: r.contact,
    code: r.code,
    filename: r.filename,
    lang: r.lang,
  };
}
