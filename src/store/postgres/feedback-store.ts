import { createCursorCodec, type CursorCodec } from "../feedback/cursor.js";
import { type FeedbackEntry, type FeedbackStatus, type NewFeedback, toEntry } from "../feedback/model.js";
import { newEntry, newFeedbackId } from "../feedback/new-entry.js";
import type { FeedbackFilter, FeedbackQuery } from "../feedback/query.js";
import { FeedbackNotFoundError, type FeedbackPage, type FeedbackStore, type FeedbackSummary, InvalidTransitionError, type StatusChange } from "../feedback/store.js";
import { type SummaryGroup, summaryOf } from "../feedback/summary.js";
import { LIMITS } from "../../limits.js";
import { canTransition, TRANSITIONS } from "../feedback/transitions.js";
import { RandomIds } from "../random-id.js";
import type { PgDb, PgQueryable } from "./db.js";
import { filterOf, pageOf } from "../feedback/page.js";
import { FEEDBACK_COLUMNS, type FeedbackRow as Row, recordOf } from "../feedback/row.js";
import { appendAll } from "../../arrays.js";

const INSERT_COLUMNS = "(id, project_id, source, status, created_at, updated_at, path, comment, helpful, contact, code, filename, lang)";
/** Rows per INSERT in `insertMany`: 13 parameters each, under PostgreSQL's 65,535 per statement. */
const ROWS_PER_INSERT = 1_000;

/**
 * The FeedbackStore in PostgreSQL, shared by every instance. Each `insert` is its own committed
 * statement (a 2xx means the row is durable: `synchronous_commit` is on by default); the pool
 * runs concurrent inserts side by side instead of batching them as the SQLite store must.
 */
export class PgFeedbackStore implements FeedbackStore {
  private readonly ids = new RandomIds();

  private constructor(
    private readonly db: PgDb,
    private readonly codec: CursorCodec,
    private readonly onClose: () => Promise<void>,
  ) {}

  static async open(db: PgDb, onClose: () => Promise<void> = async () => {}): Promise<PgFeedbackStore> {
    const { rows } = await db.query<{ value: Buffer }>("SELECT value FROM feedback_meta WHERE key = 'cursor_secret'");
    const secret = rows[0]?.value;
    if (secret === undefined) throw new Error("feedback database has no cursor secret (feedback_meta.cursor_secret)");
    return new PgFeedbackStore(db, createCursorCodec(secret), onClose);
  }

  async insert(entry: NewFeedback): Promise<FeedbackEntry> {
    const id = newFeedbackId(entry.createdAt, this.ids);
    await this.db.query(`INSERT INTO feedback ${INSERT_COLUMNS} VALUES ${placeholders(1)}`, rowValues(id, entry));
    return newEntry(entry, id);
  }

  async insertMany(entries: Iterable<NewFeedback>): Promise<number> {
    return this.db.transaction(async (q) => {
      let count = 0;
      let batch: unknown[] = [];
      const flush = async (q: PgQueryable): Promise<void> => {
        const rows = batch.length / 13;
        if (rows > 0) await q.query(`INSERT INTO feedback ${INSERT_COLUMNS} VALUES ${placeholders(rows)}`, batch);
        batch = [];
      };
      for (const e of entries) {
        appendAll(batch, rowValues(newFeedbackId(e.createdAt, this.ids), e));
        count++;
        if (count % ROWS_PER_INSERT === 0) await flush(q);
      }
      await flush(q);
      return count;
    });
  }

  async list(query: FeedbackQuery): Promise<FeedbackPage> {
    const filter = filterOf(query);
    const after = query.cursor === undefined ? undefined : this.codec.decode(query.cursor, filter);
    const params: unknown[] = [filter.projectId];
    const where = ["project_id = $1"];
    const add = (sql: string, ...values: unknown[]) => {
      where.push(sql.replace(/\?/g, () => `$${params.push(values.shift())}`));
    };
    if (filter.source !== undefined) add("source = ?", filter.source);
    if (filter.statuses !== undefined) add("status = ANY(?)", filter.statuses);
    if (filter.dateFrom !== undefined) add("created_at >= ?", filter.dateFrom);
    if (filter.dateTo !== undefined) add("created_at < ?", filter.dateTo);
    if (after !== undefined) add("(created_at, seq) < (?, ?)", after.createdAt, after.seq);
    params.push(query.limit + 1);
    const { rows } = await this.db.query<Row>(
      `SELECT ${FEEDBACK_COLUMNS} FROM feedback WHERE ${where.join(" AND ")} ORDER BY created_at DESC, seq DESC LIMIT $${params.length}`,
      params,
    );
    return pageOf(rows, query.limit, filter, this.codec, (r) => toEntry(recordOf(r)));
  }

  /** Same figures as the SQLite store's (`summaryOf`), grouped by the database. */
  async summary(filter: FeedbackFilter): Promise<FeedbackSummary> {
    const params: unknown[] = [filter.projectId];
    const where = ["project_id = $1"];
    const add = (sql: string, value: unknown) => where.push(sql.replace("?", `$${params.push(value)}`));
    if (filter.source !== undefined) add("source = ?", filter.source);
    if (filter.dateFrom !== undefined) add("created_at >= ?", filter.dateFrom);
    if (filter.dateTo !== undefined) add("created_at < ?", filter.dateTo);
    if (filter.statuses !== undefined) add("status = ANY(?)", filter.statuses);
    const cond = where.join(" AND ");
    const [groups, negative] = await Promise.all([
      this.db.query<SummaryGroup>(
        `SELECT created_at / 86400000 AS day, source, status, COUNT(*) AS n FROM feedback WHERE ${cond} GROUP BY day, source, status ORDER BY day`,
        params,
      ),
      this.db.query<{ path: string; count: number }>(
        `SELECT path, COUNT(*) AS count FROM feedback WHERE ${cond} AND helpful = false GROUP BY path ORDER BY count DESC, path COLLATE "C" LIMIT ${LIMITS.feedback.summaryPages}`,
        params,
      ),
    ]);
    return summaryOf(groups.rows, negative.rows);
  }

  async get(projectId: string, id: string): Promise<FeedbackEntry | undefined> {
    const { rows } = await this.db.query<Row>(`SELECT ${FEEDBACK_COLUMNS} FROM feedback WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return rows[0] === undefined ? undefined : toEntry(recordOf(rows[0]));
  }

  async setStatus(projectId: string, id: string, status: FeedbackStatus, now: number): Promise<StatusChange> {
    // FOR UPDATE: a concurrent change from another instance waits, then sees this one's status.
    return this.db.transaction(async (q): Promise<StatusChange> => {
      const { rows } = await q.query<Row>(`SELECT ${FEEDBACK_COLUMNS} FROM feedback WHERE project_id = $1 AND id = $2 FOR UPDATE`, [projectId, id]);
      const row = rows[0];
      if (row === undefined) throw new FeedbackNotFoundError(projectId, id);
      const previous = row.status;
      if (!canTransition(previous, status)) throw new InvalidTransitionError(previous, status, TRANSITIONS[previous]);
      if (previous !== status) await q.query("UPDATE feedback SET status = $1, updated_at = $2 WHERE seq = $3", [status, now, row.seq]);
      return { entry: toEntry(recordOf({ ...row, status })), previous };
    });
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/** `($1, ..., $13), ($14, ...)` for `rows` rows; status is always 'pending' for a new entry. */
function placeholders(rows: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) out.push(`(${Array.from({ length: 13 }, (_, i) => `$${r * 13 + i + 1}`).join(", ")})`);
  return out.join(", ");
}

function rowValues(id: string, e: NewFeedback): unknown[] {
  const snippet = e.source === "code_snippet" ? e : undefined;
  return [
    id,
    e.projectId,
    e.source,
    "pending",
    e.createdAt,
    e.createdAt,
    e.path,
    e.comment,
    e.source === "thumbs_only" || e.source === "contextual" ? e.helpful : null,
    e.source === "contextual" ? (e.contact ?? null) : null,
    snippet?.code ?? null,
    snippet?.filename ?? null,
    snippet?.lang ?? null,
  ];
}

