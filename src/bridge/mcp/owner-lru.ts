/**
 * Entries held by owners (callers), bounded per owner and in all, where one owner's excess
 * never pushes out another's entry first. Past an owner's own bound, its least recently used
 * entry goes. Past the overall bound, the least recently used entry of the owner holding the
 * most goes: a flood from a few addresses (or many) evicts its own entries, and an owner with
 * one entry loses it only once there are more owners than room. Used for MCP sessions, one table
 * per endpoint, so anonymous callers never evict a signed-in reader's session.
 */
export class OwnerLru<T> {
  /** Each owner's entries, least recently used first. */
  private readonly byOwner = new Map<string, Map<string, T>>();
  /** Owners by how many entries they hold; `most` is the highest count held. */
  private readonly byCount = new Map<number, Set<string>>();
  private most = 0;
  private total = 0;

  constructor(
    private readonly bounds: { readonly max: number; readonly maxPerOwner: number },
    /** Told of each entry pushed out (not of those removed with `delete`). */
    private readonly evicted: (key: string, value: T) => void,
  ) {}

  get size(): number {
    return this.total;
  }

  /** Mark an entry used (most recently used of its owner). */
  touch(owner: string, key: string): void {
    const entries = this.byOwner.get(owner);
    const value = entries?.get(key);
    if (entries === undefined || value === undefined) return;
    entries.delete(key);
    entries.set(key, value);
  }

  add(owner: string, key: string, value: T): void {
    let entries = this.byOwner.get(owner);
    if (entries === undefined) {
      entries = new Map();
      this.byOwner.set(owner, entries);
    }
    this.recount(owner, entries.size, entries.size + 1);
    entries.set(key, value);
    this.total++;
    if (entries.size > this.bounds.maxPerOwner) this.evictOldest(owner);
    while (this.total > this.bounds.max && this.most > 0) {
      const biggest = this.byCount.get(this.most)?.values().next().value;
      if (biggest === undefined) break;
      this.evictOldest(biggest);
    }
  }

  delete(owner: string, key: string): void {
    const entries = this.byOwner.get(owner);
    if (entries === undefined || !entries.has(key)) return;
    entries.delete(key);
    this.total--;
    this.recount(owner, entries.size + 1, entries.size);
    if (entries.size === 0) this.byOwner.delete(owner);
  }

  private evictOldest(owner: string): void {
    const oldest = this.byOwner.get(owner)?.entries().next().value;
    if (oldest === undefined) return;
    this.delete(owner, oldest[0]);
    this.evicted(oldest[0], oldest[1]);
  }

  private recount(owner: string, from: number, to: number): void {
    const was = this.byCount.get(from);
    was?.delete(owner);
    if (was?.size === 0) this.byCount.delete(from);
    if (to > 0) {
      let now = this.byCount.get(to);
      if (now === undefined) {
        now = new Set();
        this.byCount.set(to, now);
      }
      now.add(owner);
    }
    if (to > this.most) this.most = to;
    while (this.most > 0 && !this.byCount.has(this.most)) this.most--;
  }
}
