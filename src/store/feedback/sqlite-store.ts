import { join } from "node:path";
import type { Statement } from "better-sqlite3";
import { LIMITS } from "../../limits.js";
import { GroupCommit } from "../group-commit.js";
import { RandomIds } from "../random-id.js";
import { type Db, openDatabase } from "../sqlite.js";
import { createCursorCodec, type CursorCodec, type KeysetPosition } from "./cursor.js";
import { FEEDBACK_MIGRATIONS } from "./migrations.js";
import { type FeedbackEntry, type FeedbackSource, type FeedbackStatus, type NewFeedback, toEntry } from "./model.js";
import type { FeedbackFilter, FeedbackQuery } from "./query.js";
import { FeedbackNotFoundError, type FeedbackPage, type FeedbackStore, type FeedbackSummary, InvalidTransitionError, type StatusChange } from "./store.js";
import { canTransition, TRANSITIONS } from "./transitions.js";
import { newEntry, newFeedbackId } from "./new-entry.js";
import { summaryOf } from "./summary.js";
import { filterOf, pageOf } from "./page.js";
import { FEEDBACK_COLUMNS, type FeedbackRow as Row, recordOf } from "./row.js";

/** The feedback database's file name inside the state directory. */
export const FEEDBACK_DB_FILE = "feedback.db";

/** Open (creating and migrating if needed) `<stateDir>/feedback.db`. */
export function openFeedbackStore(stateDir: string): SqliteFeedbackStore {
  const db = openDatabase(join(stateDir, FEEDBACK_DB_FILE), FEEDBACK_MIGRATIONS);
  db.pragma(`cache_size = -${LIMITS.feedback.cacheKiB}`);
  return new SqliteFeedbackStore(db);
}

/** The FeedbackStore over one SQLite file (WAL, synchronous=FULL; safe across processes). */
export class SqliteFeedbackStore implements FeedbackStore {
  private readonly ids = new RandomIds();
  private readonly codec: CursorCodec;
  private readonly insertStmt: Statement;
  private readonly selectById: Statement;
  private readonly updateStatus: Statement;
  private readonly listStatements = new Map<string, Statement>();
  private readonly writes: GroupCommit<NewFeedback, FeedbackEntry>;

  constructor(private readonly db: Db) {
    const secret = db.prepare("SELECT value FROM meta WHERE key = 'cursor_secret'").pluck().get() as Buffer | undefined;
    if (secret === undefined) throw new Error("feedback database has no cursor secret (meta.cursor_secret)");
    this.codec = createCursorCodec(secret);
    this.insertStmt = db.prepare(
      `INSERT INTO feedback (id, project_id, source, status, created_at, updated_at, path, comment, helpful, contact, code, filename, lang)
       VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectById = db.prepare(`SELECT ${FEEDBACK_COLUMNS} FROM feedback WHERE project_id = ? AND id = ?`);
    this.updateStatus = db.prepare("UPDATE feedback SET status = ?, updated_at = ? WHERE seq = ?");
    this.writes = new GroupCommit((items) => this.db.transaction(() => items.map((e) => newEntry(e, this.insertRow(e)))).immediate(), LIMITS.feedback.maxEntriesPerCommit);
  }

  insert(entry: NewFeedback): Promise<FeedbackEntry> {
    return this.writes.submit(entry);
  }

  async insertMany(entries: Iterable<NewFeedback>): Promise<number> {
    return this.db.transaction(() => {
      let count = 0;
      for (const e of entries) {
        this.insertRow(e);
        count++;
      }
      return count;
    }).immediate();
  }

  async list(query: FeedbackQuery): Promise<FeedbackPage> {
    const filter = filterOf(query);
    const after = query.cursor === undefined ? undefined : this.codec.decode(query.cursor, filter);
    const want = query.limit + 1;
    const stmt = this.listStatement(filter, after);
    const params = {
      project: filter.projectId,
      source: filter.source,
      from: filter.dateFrom,
      to: filter.dateTo,
      afterAt: after?.createdAt,
      afterSeq: after?.seq,
      limit: want,
    };
    let rows: Row[];
    if (filter.statuses === undefined) {
      rows = stmt.all(params) as Row[];
    } else {
      // One index range per status, merged: an IN list over the status index would need a sort
      // of every matching row before the LIMIT could apply.
      rows = filter.statuses.flatMap((status) => stmt.all({ ...params, status }) as Row[]);
      rows.sort((a, b) => b.created_at - a.created_at || b.seq - a.seq);
      rows.length = Math.min(rows.length, want);
    }
    return pageOf(rows, query.limit, filter, this.codec, (r) => toEntry(recordOf(r)));
  }

  /**
   * One pass over the filtered entries, grouped by day, source and status, and one over their
   * negative votes grouped by page. It reads every selected row (no index answers a GROUP BY
   * day): ~0.3 s per million entries, fine for a dashboard a person opens, and the date filter
   * narrows it.
   */
  async summary(filter: FeedbackFilter): Promise<FeedbackSummary> {
    const where = ["project_id = @project"];
    const params: Record<string, unknown> = { project: filter.projectId };
    if (filter.source !== undefined) {
      where.push("source = @source");
      params.source = filter.source;
    }
    if (filter.dateFrom !== undefined) {
      where.push("created_at >= @from");
      params.from = filter.dateFrom;
    }
    if (filter.dateTo !== undefined) {
      where.push("created_at < @to");
      params.to = filter.dateTo;
    }
    if (filter.statuses !== undefined) {
      where.push(`status IN (${filter.statuses.map((_, i) => `@status${i}`).join(", ")})`);
      filter.statuses.forEach((s, i) => (params[`status${i}`] = s));
    }
    const cond = where.join(" AND ");
    const groups = this.db.prepare(`SELECT created_at / 86400000 AS day, source, status, COUNT(*) AS n FROM feedback WHERE ${cond} GROUP BY day, source, status ORDER BY day`).all(params) as {
      day: number;
      source: FeedbackSource;
      status: FeedbackStatus;
      n: number;
    }[];
    const negative = this.db
      .prepare(`SELECT path, COUNT(*) AS count FROM feedback WHERE ${cond} AND helpful = 0 GROUP BY path ORDER BY count DESC, path LIMIT ${LIMITS.feedback.summaryPages}`)
      .all(params) as { path: string; count: number }[];
    return summaryOf(groups, negative);
  }

  async get(projectId: string, id: string): Promise<FeedbackEntry | undefined> {
    const row = this.selectById.get(projectId, id) as Row | undefined;
    return row === undefined ? undefined : toEntry(recordOf(row));
  }

  async setStatus(projectId: string, id: string, status: FeedbackStatus, now: number): Promise<StatusChange> {
    // IMMEDIATE takes the write lock before reading, so a concurrent change from another
    // process (the CLI while the server runs) cannot slip between the check and the update.
    return this.db
      .transaction((): StatusChange => {
        const row = this.selectById.get(projectId, id) as Row | undefined;
        if (row === undefined) throw new FeedbackNotFoundError(projectId, id);
        const previous = row.status;
        if (!canTransition(previous, status)) throw new InvalidTransitionError(previous, status, TRANSITIONS[previous]);
        if (previous !== status) this.updateStatus.run(status, now, row.seq);
        return { entry: toEntry(recordOf({ ...row, status })), previous };
      })
      .immediate();
  }

  async close(): Promise<void> {
    this.writes.flushAll();
    this.db.close();
  }

  /** Write one row; returns its new id. Bulk paths call only this (no result objects). */
  private insertRow(e: NewFeedback): string {
    const id = newFeedbackId(e.createdAt, this.ids);
    const snippet = e.source === "code_snippet" ? e : undefined;
    this.insertStmt.run(
      id,
      e.projectId,
      e.source,
      e.createdAt,
      e.createdAt,
      e.path,
      e.comment,
      e.source === "thumbs_only" || e.source === "contextual" ? (e.helpful ? 1 : 0) : null,
      e.source === "contextual" ? (e.contact ?? null) : null,
      snippet?.code ?? null,
      snippet?.filename ?? null,
      snippet?.lang ?? null,
    );
    return id;
  }

  /**
   * The statement for one filter shape, naming its index: without statistics SQLite may pick the
   * time index and filter, which degrades to a scan on deep pages of a rare source.
   * With a cursor, `dateTo` is left out: the cursor lies below it (it was issued for the same
   * filter), and a second upper bound would stop SQLite from seeking straight to the cursor.
   */
  private listStatement(f: FeedbackFilter, after: KeysetPosition | undefined): Statement {
    const bySource = f.source !== undefined;
    const byStatus = f.statuses !== undefined;
    const key = [bySource, byStatus, f.dateFrom !== undefined, f.dateTo !== undefined && after === undefined, after !== undefined]
      .map((b) => (b ? "1" : "0"))
      .join("");
    let stmt = this.listStatements.get(key);
    if (stmt === undefined) {
      const index = bySource && byStatus ? "feedback_by_source_status" : bySource ? "feedback_by_source" : byStatus ? "feedback_by_status" : "feedback_by_time";
      const where = ["project_id = @project"];
      if (bySource) where.push("source = @source");
      if (byStatus) where.push("status = @status");
      if (f.dateFrom !== undefined) where.push("created_at >= @from");
      if (after !== undefined) where.push("(created_at, seq) < (@afterAt, @afterSeq)");
      else if (f.dateTo !== undefined) where.push("created_at < @to");
      stmt = this.db.prepare(
        `SELECT ${FEEDBACK_COLUMNS} FROM feedback INDEXED BY ${index} WHERE ${where.join(" AND ")} ORDER BY created_at DESC, seq DESC LIMIT @limit`,
      );
      this.listStatements.set(key, stmt);
    }
    return stmt;
  }
}

