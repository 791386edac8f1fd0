import { type SectionTable, sectionCount, sectionHeading } from "./section-table.js";

/**
 * Pages made from one template (issue 24, thirty-seventh round): a node's, a type's or a model's
 * reference page, one of tens or hundreds written to the same outline (ComfyUI's 900 built-in node
 * pages, `## Inputs` / `## Outputs`; Baileys' TypeDoc pages; Mem0's one page per LLM provider).
 * Such a page documents one item in the words every item is documented in, so a question in words
 * ("extend an image beyond its borders", "remove the background from a photo") matched the node
 * pages' tables above the tutorial that answers it, as endpoint pages did before their weight.
 * Search gives them a weight below 1 (`RankingParams.templatePageWeight`) as it gives endpoint
 * pages theirs; a question naming the page's title gives it its full weight back (`PagePriors.lift`).
 *
 * A page's outline is its sections' headings in order, compared without case; a page with fewer
 * than two headings has none. A template is an outline shared by pages of at least
 * `RankingParams.templatePages` different titles: the same page in several versions (one title)
 * counts once, and translations have outlines of their own. Counted per access rule, and only
 * over pages every reader of which reads the same text (one variant, no other file before it on its
 * path), so text a reader may not read never decides how the pages it may read are weighed.
 */

/** `sections`' outline (see above), or undefined when it has fewer than two headings. */
export function outlineOf(sections: SectionTable): string | undefined {
  const n = sectionCount(sections);
  let out: string | undefined;
  let headings = 0;
  for (let k = 0; k < n; k++) {
    const heading = sectionHeading(sections, k).trim().toLowerCase();
    if (heading === "") continue;
    out = out === undefined ? heading : `${out}\u0000${heading}`;
    headings++;
  }
  return headings >= 2 ? out : undefined;
}

/** An outline's pages under one access rule: how many of them have each title. */
interface Group<T> {
  readonly rule: number;
  readonly outline: string;
  readonly titles: Map<string, number>;
  readonly members: Set<T>;
}

/**
 * The pages of each outline, kept as pages come and go: a sync that adds or removes a page says
 * again only for the outlines it touched whether they are a template's (`changed`), so an edit
 * on a site of 25,000 pages reads the pages of one or two outlines, not every page.
 */
export class TemplatePages<T> {
  private readonly groups = new Map<number, Map<string, Group<T>>>();
  private readonly of = new Map<T, { group: Group<T>; title: string }>();
  private readonly touched = new Set<Group<T>>();

  /** `item`, a page of `rule` written to `outline` (`outlineOf`) with title `title`. */
  add(item: T, rule: number, outline: string, title: string): void {
    let byOutline = this.groups.get(rule);
    if (byOutline === undefined) this.groups.set(rule, (byOutline = new Map()));
    let group = byOutline.get(outline);
    if (group === undefined) byOutline.set(outline, (group = { rule, outline, titles: new Map(), members: new Set() }));
    group.titles.set(title, (group.titles.get(title) ?? 0) + 1);
    group.members.add(item);
    this.of.set(item, { group, title });
    this.touched.add(group);
  }

  /** `item` gone (nothing for one never added). */
  remove(item: T): void {
    const at = this.of.get(item);
    if (at === undefined) return;
    this.of.delete(item);
    const { group, title } = at;
    const n = (group.titles.get(title) ?? 1) - 1;
    if (n === 0) group.titles.delete(title);
    else group.titles.set(title, n);
    group.members.delete(item);
    // An emptied group is let go by `changed` (it is touched), after its pages' weights are said.
    this.touched.add(group);
  }

  /** Each page of the outlines added to or removed from since the last call, and whether its
   *  outline is a template's (`minTitles` or more titles). */
  *changed(minTitles: number): Generator<[T, boolean]> {
    for (const group of this.touched) {
      const template = group.titles.size >= minTitles;
      for (const item of group.members) yield [item, template];
      if (group.members.size > 0) continue;
      const byOutline = this.groups.get(group.rule);
      byOutline?.delete(group.outline);
      if (byOutline?.size === 0) this.groups.delete(group.rule);
    }
    this.touched.clear();
  }
}
