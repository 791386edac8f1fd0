import type { Migration } from "../sqlite.js";

/**
 * Schema of `feedback.db`. Append new versions; never edit a released one.
 *
 * - `seq` (the rowid) is the insertion order: it breaks ties between entries created in the
 *   same millisecond and is the second half of every keyset position. It never leaves the
 *   server except inside signed cursors; `id` is the public identifier (random, so ids from
 *   separate stores never collide and say nothing about volume).
 * - `created_at` is milliseconds since the epoch, UTC.
 * - One index per filter shape, each ending in `created_at` (and the implicit rowid), so every
 *   combination of filters is one index range scan in exactly the page order: no sort, no
 *   scan of rows the filter rejects, at any depth.
 * - `meta.cursor_secret` keys the cursor HMAC; created here so every process sharing the file
 *   signs and checks cursors with the same secret.
 */
export const FEEDBACK_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value BLOB NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO meta (key, value) VALUES ('cursor_secret', randomblob(32));

      CREATE TABLE feedback (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('code_snippet', 'contextual', 'agent', 'thumbs_only')),
        status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'resolved', 'dismissed')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        path TEXT NOT NULL,
        comment TEXT NOT NULL,
        helpful INTEGER CHECK (helpful IN (0, 1)),
        contact TEXT,
        code TEXT,
        filename TEXT,
        lang TEXT
      );
      CREATE INDEX feedback_by_time ON feedback (project_id, created_at);
      CREATE INDEX feedback_by_source ON feedback (project_id, source, created_at);
      CREATE INDEX feedback_by_status ON feedback (project_id, status, created_at);
      CREATE INDEX feedback_by_source_status ON feedback (project_id, source, status, created_at);
    `,
  },
];
