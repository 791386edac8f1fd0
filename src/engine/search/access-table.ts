import { type Access, accessKey } from "../../vfs/access.js";

/** What a reader may read in the index: one flag per rule (1: readable), and their key. */
export interface ReaderClass {
  readonly readable: Uint8Array;
  readonly key: string;
}

/**
 * The distinct access rules of what the index holds (pages and the files they inline), each
 * with a small id. What a reader may read in the index is then one flag per rule: readers with
 * the same flags see the same pages and variants, so they share statistics (a reader class),
 * whatever their groups, auth mode or credential. Ids are never reused.
 */
export class AccessTable {
  private readonly ids = new Map<string, number>();
  private readonly rules: Access[] = [];

  /** The id of a rule, assigning the next one if it is new. */
  id(access: Access): number {
    const key = accessKey(access);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.rules.length;
      this.ids.set(key, id);
      this.rules.push(access);
    }
    return id;
  }

  get size(): number {
    return this.rules.length;
  }

  /** The rules in id order (what the persistent cache keeps, `site-cache.ts`). */
  state(): readonly Access[] {
    return this.rules;
  }

  /** Take the rules of a `state()`, keeping their ids (an empty table only). */
  restore(rules: readonly Access[]): void {
    if (this.rules.length > 0) throw new Error("an access table is restored only while empty");
    for (const access of rules) this.id(access);
  }

  /**
   * One flag per rule (1: `canRead` accepts it) and their key, or undefined when the reader may
   * read every rule (the common case, answered without allocating).
   */
  classOf(canRead: (access: Access) => boolean): ReaderClass | undefined {
    let first = -1;
    for (let i = 0; i < this.rules.length; i++) {
      if (!canRead(this.rules[i] as Access)) {
        first = i;
        break;
      }
    }
    if (first === -1) return undefined;
    const readable = new Uint8Array(this.rules.length);
    let key = "";
    for (let i = 0; i < this.rules.length; i++) {
      readable[i] = i < first || (i > first && canRead(this.rules[i] as Access)) ? 1 : 0;
      key += readable[i] === 1 ? "1" : "0";
    }
    return { readable, key };
  }
}
