import type { PagePlacement } from "../../config/site-config.js";

/**
 * Twin keys as numbers (`TwinRules.keys`, `version-twins.ts`): equal key texts get one number,
 * so folding compares numbers, not strings. A key is numbered by its text up to its last `/`
 * (its head: a folder's, for a path key) and the rest (its tail: a page's file name), each pair
 * of texts one key, so the keys of a folder's pages are numbered without making their texts: a
 * site's first fold numbers the keys of every page unit (25,000 on a site of 35 versions x 4
 * languages), and making, hashing and collecting five strings per unit was most of its time.
 */
export class TwinKeys {
  /** By head, the numbers of the keys by tail. */
  private readonly heads = new Map<string, Map<string, number>>();
  /** By languages (`String(placement.languages)`), the numbers of title keys by title (`titleId`). */
  private readonly titles = new Map<string, Map<string, number>>();
  /** By folder (a page path up to its last `/`), the shapes of its pages' keys (`FolderShape`). */
  private readonly folders = new Map<string, FolderShape[]>();
  private count = 0;

  /** How many numbers were given: every number is below it. */
  get size(): number {
    return this.count;
  }

  /** The numbers of the keys whose text starts with `text` (up to and including its last `/`). */
  head(text: string): Map<string, number> {
    let tails = this.heads.get(text);
    if (tails === undefined) this.heads.set(text, (tails = new Map()));
    return tails;
  }

  /** The number of the key `head`'s text + `tail` (`tail` holds no `/`), given one the first time. */
  of(head: Map<string, number>, tail: string): number {
    let id = head.get(tail);
    if (id === undefined) head.set(tail, (id = this.count++));
    return id;
  }

  /** The number of the key `key`. */
  id(key: string): number {
    const at = key.lastIndexOf("/");
    return this.of(this.head(key.slice(0, at + 1)), key.slice(at + 1));
  }

  /** The number of the title key of `title` in `languages` (`t`, languages, title): one lookup per page. */
  titleId(languages: string, title: string): number {
    let byTitle = this.titles.get(languages);
    if (byTitle === undefined) this.titles.set(languages, (byTitle = new Map()));
    let id = byTitle.get(title);
    if (id === undefined) byTitle.set(title, (id = this.id(`t\u0000${languages}\u0000${title}`)));
    return id;
  }

  /**
   * The shape of the keys of pages in `folder` (ending with `/`) with `placement`'s versions,
   * languages and products: `make` makes it the first time (`FolderShape`), undefined when the
   * folder's keys cannot be numbered that way.
   */
  shapeOf(folder: string, placement: PagePlacement | undefined, make: () => FolderShape | undefined): FolderShape | undefined {
    let shapes = this.folders.get(folder);
    if (shapes === undefined) this.folders.set(folder, (shapes = []));
    for (const shape of shapes) if (sameNames(shape.versions, placement?.versions) && sameNames(shape.languages, placement?.languages) && sameNames(shape.products, placement?.products)) return shape.usable ? shape : undefined;
    const made = make();
    shapes.push(made ?? { versions: placement?.versions, languages: placement?.languages, products: placement?.products, usable: false, keys: [], cls: this.head(""), language: -1, languageText: "", isOrdinary: () => false });
    return made;
  }
}

/**
 * The keys of the pages of one folder and placement, but for their file names: each key's head
 * (`TwinKeys.head`), in the order `twinInfo` makes them. A page whose file name is ordinary (it
 * names no language or version the keys drop: `isOrdinary`) has these keys with its file name as
 * each one's tail.
 */
export interface FolderShape {
  readonly versions: readonly string[] | undefined;
  readonly languages: readonly string[] | undefined;
  readonly products: readonly string[] | undefined;
  /** False when the folder's keys are not numbered through the shape (then made one by one). */
  readonly usable: boolean;
  readonly keys: readonly Map<string, number>[];
  readonly cls: Map<string, number>;
  /** Where the `l` key is among `keys` (0), or -1 without one. */
  readonly language: number;
  /** `String(placement.languages)`, for the title key. */
  readonly languageText: string;
  /** Whether a file name leaves the keys as the shape says (no language or version named by it). */
  readonly isOrdinary: (name: string) => boolean;
}

/** Whether two lists of names are equal, name by name. */
function sameNames(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
