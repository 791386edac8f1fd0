import type { FeedbackStore } from "./store.js";

/**
 * A FeedbackStore opened on first use. A stdio `serve` session offers `submit_feedback` but most
 * sessions never call it; they should not create a state folder and database just by starting.
 */
export class LazyFeedbackStore implements FeedbackStore {
  private store: Promise<FeedbackStore> | undefined;

  constructor(private readonly open: () => Promise<FeedbackStore>) {}

  private opened(): Promise<FeedbackStore> {
    this.store ??= this.open();
    return this.store;
  }

  insert: FeedbackStore["insert"] = async (entry) => (await this.opened()).insert(entry);
  insertMany: FeedbackStore["insertMany"] = async (entries) => (await this.opened()).insertMany(entries);
  list: FeedbackStore["list"] = async (query) => (await this.opened()).list(query);
  get: FeedbackStore["get"] = async (projectId, id) => (await this.opened()).get(projectId, id);
  summary: FeedbackStore["summary"] = async (filter) => (await this.opened()).summary(filter);
  setStatus: FeedbackStore["setStatus"] = async (projectId, id, status, now) => (await this.opened()).setStatus(projectId, id, status, now);

  async close(): Promise<void> {
    const store = this.store;
    this.store = undefined;
    await (await store?.catch(() => undefined))?.close();
  }
}
