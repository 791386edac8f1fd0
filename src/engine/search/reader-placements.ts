import type { PagePlacement } from "../../config/site-config.js";
import { LIMITS } from "../../limits.js";
import { folderPlacement } from "../../vfs/folder-placement.js";
import { navPlacement } from "../../vfs/site.js";

/** What one reader class has of navigation: the pages it may read (undefined: all of them), and
 *  the places of pages outside navigation made from them so far, by page path. */
interface ClassPlaces {
  readonly nav: ReadonlyMap<string, PagePlacement> | undefined;
  readonly byPath: Map<string, PagePlacement | undefined>;
}

/**
 * Where a page outside navigation belongs for one reader class (`folderPlacement`): read off the
 * navigation pages that class may read, as if the others were not there. Read off every listed
 * page, a public page beside a `groups: [staff]` page listed only in `v2` was a `v2` page to an
 * anonymous reader, for whom `v2` does not exist, and a `version: "v1"` search lost it (security
 * finding F1 of round 64): the reader's view must be the site with what it may not read deleted.
 * A navigation page is one a class may read when it may read any file of its path (the rules
 * `SearchIndex` keeps per navigation page); an entry no file answers is kept, as it is on the
 * site without the restricted parts. Kept per class (its `ReaderClass.key`, a flag per access
 * rule) while the navigation and its pages' rules are, so the same page has the same placement
 * object for a class across syncs (the twin tables compare them by identity).
 */
export class ReaderPlacements {
  private navPages: ReadonlyMap<string, PagePlacement> = new Map();
  private navRules: ReadonlyMap<string, readonly number[]> = new Map();
  private readonly byClass = new Map<string, ClassPlaces>();

  /** A new navigation, or new rules of its pages: every class's places are made again. */
  reset(navPages: ReadonlyMap<string, PagePlacement>, navRules: ReadonlyMap<string, readonly number[]>): void {
    this.navPages = navPages;
    this.navRules = navRules;
    this.byClass.clear();
  }

  /**
   * The place of the page at `path` for the class `classKey` (undefined: a reader of everything),
   * given `placement`, its place for a reader of everything (navigation's, else its folder's over
   * every navigation page).
   */
  of(classKey: string | undefined, path: string, placement: PagePlacement | undefined): PagePlacement | undefined {
    if (classKey === undefined || navPlacement(this.navPages, path) !== undefined) return placement;
    const places = this.classPlaces(classKey);
    if (places.nav === undefined) return placement;
    if (places.byPath.has(path)) return places.byPath.get(path);
    const own = folderPlacement(places.nav, path);
    places.byPath.set(path, own);
    return own;
  }

  private classPlaces(classKey: string): ClassPlaces {
    let places = this.byClass.get(classKey);
    if (places !== undefined) return places;
    const readable = (rules: readonly number[] | undefined): boolean => rules === undefined || rules.some((rule) => classKey[rule] === "1");
    const nav = [...this.navPages].filter(([path]) => readable(this.navRules.get(path)));
    places = { nav: nav.length === this.navPages.size ? undefined : new Map(nav), byPath: new Map() };
    // Few classes search a site; bounded all the same, as their branches are.
    if (this.byClass.size >= LIMITS.search.maxReaderClasses) this.byClass.delete(this.byClass.keys().next().value as string);
    this.byClass.set(classKey, places);
    return places;
  }
}
