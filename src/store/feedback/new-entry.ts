import { RandomIds } from "../random-id.js";
import { type FeedbackEntry, type NewFeedback, toEntry } from "./model.js";

/**
 * New public ids: `fb_`, the creation time (10 base32 characters, milliseconds) and 10 random
 * base32 characters (50 bits). The time prefix makes ids sort by creation and, above all, makes
 * the unique index append-only: random ids scatter inserts over the whole index, which at a
 * million rows doubled the bulk seeding time by spilling cache pages. The time is public in
 * `createdAt` anyway; the random half keeps ids unguessable.
 */
const TIME_CHARS = 10;
const RANDOM_CHARS = 10;

/** A new entry's public id. */
export function newFeedbackId(createdAt: number, random: RandomIds): string {
  return `fb_${RandomIds.base32Of(Math.max(0, createdAt), TIME_CHARS)}${random.base32(RANDOM_CHARS)}`;
}

/** The entry a new row holds (what the insert wrote; no read back). */
export function newEntry(e: NewFeedback, id: string): FeedbackEntry {
  const snippet = e.source === "code_snippet" ? e : undefined;
  return toEntry({
    id,
    source: e.source,
    status: "pending",
    createdAt: e.createdAt,
    path: e.path,
    comment: e.comment,
    helpful: e.source === "thumbs_only" || e.source === "contextual" ? e.helpful : null,
    contact: e.source === "contextual" ? (e.contact ?? null) : null,
    code: snippet?.code ?? null,
    filename: snippet?.filename ?? null,
    lang: snippet?.lang ?? null,
  });
}

