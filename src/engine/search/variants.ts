import { LIMITS } from "../../limits.js";
import { type Access, accessKey } from "../../vfs/access.js";
import type { Page } from "../../vfs/page.js";
import type { SiteFile } from "../../vfs/site-file.js";
import { type Expanded, expandIncludes, importsMdx } from "./includes.js";

/**
 * A page as readers with different rights see it. Inlined text keeps the access of the file it
 * came from (`includes.ts`): a reader who may not read an imported snippet gets the page without
 * it, in its words, sections, anchors, snippets and scores; a snippet inside a restricted one is
 * reached only through it. So a page that inlines files with rules other than its own is indexed
 * once per distinct outcome, each variant with the condition that picks it.
 *
 * The outcomes are the leaves of a decision tree: expanding asks, file by file in reading order,
 * whether the reader may read the file's rule; the answers given so far decide which files are
 * reached next. Each leaf records the rules it asked about and the answers (its condition);
 * leaves are disjoint and cover every reader, and a rule a leaf never asked about (a snippet
 * inside one left out) does not split it. Files with the page's own rule are always inlined: a
 * reader of the page may read them.
 */

/** Whether a reader may read a rule: one answer of the decision tree. */
interface Answer {
  readonly access: Access;
  readonly readable: boolean;
}

/** One way a page reads: its inlined body and the answers that lead to it. */
export interface Variant {
  /** The body with what this variant inlines, or undefined when the page imports no MDX. */
  readonly expanded: Expanded | undefined;
  /** The rules asked about and the answer each needs. */
  readonly condition: readonly Answer[];
}

/** A page's variants: the first is what a reader of everything sees (its condition all true). */
export interface PageVariants {
  readonly variants: readonly Variant[];
  /** Every file any variant inlined or left out, and imports no file answered: the page is
   *  expanded again when one of them changes. */
  readonly uses: readonly SiteFile[];
  readonly missing: readonly string[];
  /** Whether `variants` holds every outcome; when not, a reader matching none of them gets its
   *  own, made when it first searches (`readerVariant`). */
  readonly complete: boolean;
}

/**
 * The variants of a page (`imports`: whether its body imports MDX, when the caller knows): every
 * outcome, up to `LIMITS.search.maxPageVariants` of them, and always the one every reader of the
 * page reads (no file of another rule inlined). Past the limit the other outcomes are left to
 * `readerVariant`: what a reader gets never depends on how many outcomes other readers have.
 */
export function pageVariants(page: Page, fileAt: (path: string) => SiteFile | undefined, imports: boolean = importsMdx(page.body)): PageVariants {
  // Most pages import no MDX: one variant, the page as written.
  if (!imports) return { variants: [{ expanded: undefined, condition: [] }], uses: [], missing: [], complete: true };
  const uses = new Map<string, SiteFile>();
  const missing = new Set<string>();
  const variants: Variant[] = [];
  // Depth first: a run answers "yes" to every rule not fixed yet and records the ones it asked;
  // each of those, answered "no" after the same earlier answers, is a branch still to explore.
  const pending: Map<string, Answer>[] = [new Map()];
  while (pending.length > 0 && variants.length < LIMITS.search.maxPageVariants) {
    const fixed = pending.pop() as Map<string, Answer>;
    const asked = new Map(fixed);
    const fresh: [string, Access][] = [];
    const expanded = expandAs(page, fileAt, { uses, missing }, (key, access) => {
      const known = asked.get(key);
      if (known !== undefined) return known.readable;
      asked.set(key, { access, readable: true });
      fresh.push([key, access]);
      return true;
    });
    variants.push({ expanded, condition: [...asked.values()] });
    for (let i = fresh.length - 1; i >= 0; i--) {
      const branch = new Map(fixed);
      fresh.forEach(([key, access], j) => {
        if (j <= i) branch.set(key, { access, readable: j < i });
      });
      pending.push(branch);
    }
  }
  const complete = pending.length === 0;
  if (!complete && !variants.some((v) => v.condition.every((a) => !a.readable))) variants.push(readerVariant(page, fileAt, () => false, { uses, missing }));
  return { variants, uses: [...uses.values()], missing: [...missing], complete };
}

/**
 * The variant of a page a reader gets (`readable`: whether it may read an access rule), with the
 * answers it took as its condition: the leaf of the decision tree that reader reaches. Files it
 * used are added to `seen` when given.
 */
export function readerVariant(
  page: Page,
  fileAt: (path: string) => SiteFile | undefined,
  readable: (access: Access) => boolean,
  seen?: { readonly uses: Map<string, SiteFile>; readonly missing: Set<string> },
): Variant {
  const asked = new Map<string, Answer>();
  const expanded = expandAs(page, fileAt, seen, (key, access) => {
    let known = asked.get(key);
    if (known === undefined) asked.set(key, (known = { access, readable: readable(access) }));
    return known.readable;
  });
  return { expanded, condition: [...asked.values()] };
}

/**
 * The page expanded with `answer` deciding each file of a rule other than the page's own. Of an
 * author's page shown with an operation's reference, the author's part only: the reference's
 * descriptions are Markdown, on its HTML page too, and inline nothing (adversary round 55 F4).
 */
function expandAs(
  page: Page,
  fileAt: (path: string) => SiteFile | undefined,
  seen: { readonly uses: Map<string, SiteFile>; readonly missing: Set<string> } | undefined,
  answer: (key: string, access: Access) => boolean,
): Expanded | undefined {
  const own = accessKey(page.file.access);
  const authored = page.authored;
  const mine = expandIncludes(authored ?? page, fileAt, (file) => {
    const key = accessKey(file.access);
    return key === own || answer(key, file.access);
  });
  const expanded = mine === undefined || authored === undefined ? mine : { ...mine, body: `${mine.body}${page.body.slice(authored.body.length)}` };
  for (const f of expanded?.uses ?? []) seen?.uses.set(f.path, f);
  for (const p of expanded?.missing ?? []) seen?.missing.add(p);
  return expanded;
}

/** A variant's condition as the index keeps it: rule ids (`AccessTable`) and the answer each needs. */
export type Condition = readonly { readonly rule: number; readonly readable: boolean }[];

/**
 * Which variant a reader gets, from one flag per rule id (1: it may read the rule): the one whose
 * condition holds (the leaves are disjoint), or -1 when its outcome is not indexed yet (a page
 * whose variants are not `complete`).
 */
export function pickVariant(conditions: readonly Condition[], readable: Uint8Array): number {
  for (let i = 0; i < conditions.length; i++) {
    if ((conditions[i] as Condition).every((c) => (readable[c.rule] === 1) === c.readable)) return i;
  }
  return -1;
}
