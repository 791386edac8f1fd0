/**
 * A map that keeps about its `capacity` most recently used entries, for caches read far more
 * often than written (the section texts of hits, the scopes of searches). A hit only marks its
 * entry; entries move only when one is added past capacity (second chance): the oldest goes,
 * unless it was read since it was last passed over, in which case it moves to the back unmarked
 * and the next oldest is asked. An entry read at least once in each pass over the map stays.
 * `Lru` moves an entry on every hit (a delete and an insert in a `Map`): with a search's ten hits
 * each reading a section of a 4,096-entry map, that was ~2% of a distinct question's CPU on spree
 * (issue 23).
 */
export class SecondChance<K, V> {
  private readonly entries = new Map<K, { value: V; read: boolean }>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.read = true;
    return entry.value;
  }

  set(key: K, value: V): void {
    const had = this.entries.get(key);
    if (had !== undefined) {
      had.value = value;
      had.read = true;
      return;
    }
    if (this.capacity <= 0) return;
    // Room first, then the new entry: made room for after, it would come round unmarked
    // behind the entries moved back and be the one to go. Ends: each entry moved loses its
    // mark, so at most one pass over the map.
    while (this.entries.size >= this.capacity) {
      const [oldest, entry] = this.entries.entries().next().value as [K, { value: V; read: boolean }];
      this.entries.delete(oldest);
      if (entry.read) {
        entry.read = false;
        this.entries.set(oldest, entry);
      }
    }
    this.entries.set(key, { value, read: false });
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
