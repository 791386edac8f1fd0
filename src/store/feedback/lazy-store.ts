import type { FeedbackStore } from "./store.js";

/**
 * A FeedbackStore opened on first use. A stdio `serve` session offers `submit_feedback` but most
 * sessions never call it; they should not create a state folder and database just by starting.
 */
export class LazyFeedbackStore implements FeedbackStore {
  private store: FeedbackStore | undefined;

  constructor(private readonly open: () => FeedbackStore) {}

  private opened(): FeedbackStore {
    this.store ??= this.open();
    return this.store;
  }

  insert: FeedbackStore["insert"] = (entry) => this.opened().insert(entry);
  insertMany: FeedbackStore["insertMany"] = (entries) => this.opened().insertMany(entries);
  list: FeedbackStore["list"] = (query) => this.opened().list(query);
  get: FeedbackStore["get"] = (projectId, id) => this.opened().get(projectId, id);
  summary: FeedbackStore["summary"] = (filter) => this.opened().summary(filter);
  setStatus: FeedbackStore["setStatus"] = (projectId, id, status, now) => this.opened().setStatus(projectId, id, status, now);

  async close(): Promise<void> {
    await this.store?.close();
    this.store = undefined;
  }
}
