import { LIMITS } from "../../limits.js";

/**
 * API pages' articles (an operation's or channel's HTML, descriptions rendered) kept between
 * requests: each request rendered them again (issue 25), descriptions in the render workers.
 * An article is kept for the site version it was made from (a reload brings a new site, and
 * every article is dropped), per page's facts (`ApiPageInfo`: which page the reader gets at a
 * path, the site's or a generated one behind a file they may not read) and per reader's view of
 * it (what the playground shows this reader, the one part of an article that varies by reader),
 * so a reader never gets what was made for another. Bounded by characters, least recently used
 * first.
 */
export class ApiArticles {
  private site: object | undefined;
  private pageIds = new WeakMap<object, number>();
  private serial = 0;
  /** Kept articles by `<page id> <view>`, in use order (oldest first). */
  private readonly kept = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number = LIMITS.preview.apiArticleChars) {}

  /** The article kept for (`site`, `page`, `view`), else `make`'s, kept when it is a string (an answer such as a 503 is not). */
  async get<T>(site: object, page: object, view: string, make: () => Promise<string | T>): Promise<string | T> {
    if (site !== this.site) {
      this.site = site;
      this.pageIds = new WeakMap();
      this.kept.clear();
      this.chars = 0;
    }
    let id = this.pageIds.get(page);
    if (id === undefined) this.pageIds.set(page, (id = ++this.serial));
    const key = `${id} ${view}`;
    const kept = this.kept.get(key);
    if (kept !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const made = await make();
    // Made from another site version than the one now kept (a reload while it rendered): not kept.
    if (typeof made !== "string" || made.length > this.maxChars || site !== this.site || this.kept.has(key)) return made;
    this.kept.set(key, made);
    this.chars += made.length;
    for (const [k, html] of this.kept) {
      if (this.chars <= this.maxChars) break;
      this.kept.delete(k);
      this.chars -= html.length;
    }
    return made;
  }

  /** Articles kept now. */
  get size(): number {
    return this.kept.size;
  }
}
