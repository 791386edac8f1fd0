/**
 * The field schema of the search index: which fields each kind of unit has, in what order
 * (the order of a unit's term sequence and of its packed frequencies), and how each is weighted.
 * The generic index (`inverted-index.ts`, `postings-codec.ts`) knows only that a unit has
 * `FIELDS_PER_UNIT` fields; which text goes in which field is the site indexer's (`search-index.ts`),
 * and the weights are ranking's defaults (`RANKING`), read from here.
 */

/** One field: its name, its BM25F weight (how much one occurrence counts) and its length
 *  normalisation `b` (titles are short and equally informative whatever their length, bodies
 *  are not). */
export interface FieldSpec {
  readonly name: string;
  readonly weight: number;
  readonly b: number;
}

/** A section field also counts summed over its page, with its own `b`: pages differ in length
 *  far more than sections. */
export interface SectionFieldSpec extends FieldSpec {
  readonly pageB: number;
}

/** Page fields: describe the whole page. */
export const PAGE_FIELDS = [
  { name: "title", weight: 3, b: 0.3 },
  /** description and `keywords` front matter */
  { name: "meta", weight: 1.5, b: 0.5 },
  /** navigation breadcrumbs and path words */
  { name: "context", weight: 0.75, b: 0.3 },
] as const satisfies readonly FieldSpec[];

/** Section fields: one heading-level chunk of a page. */
export const SECTION_FIELDS = [
  /** the heading with its parent headings */
  { name: "heading", weight: 2, b: 0.3, pageB: 0.3 },
  { name: "body", weight: 1, b: 0.75, pageB: 0.7 },
  { name: "code", weight: 0.5, b: 0.5, pageB: 0.6 },
] as const satisfies readonly SectionFieldSpec[];

/** Fields per unit, the same for both kinds (one packed frequency per posting holds them all). */
export const FIELDS_PER_UNIT = 3;

// Both kinds must fill the same number of fields: the codec packs exactly that many.
const sameWidth: typeof PAGE_FIELDS.length extends typeof FIELDS_PER_UNIT ? (typeof SECTION_FIELDS.length extends typeof FIELDS_PER_UNIT ? true : never) : never = true;
void sameWidth;

/** The text of a unit's fields, by name: what the site indexer fills in. */
export type FieldTexts<F extends readonly FieldSpec[]> = { readonly [K in F[number]["name"]]: string };

/** Field texts in schema order. */
export function inSchemaOrder<F extends readonly FieldSpec[]>(schema: F, texts: FieldTexts<F>): string[] {
  return schema.map((f) => (texts as Record<string, string>)[f.name] as string);
}
