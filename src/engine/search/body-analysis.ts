import { LIMITS } from "../../limits.js";
import { blockUnitsOf } from "./block-units.js";
import { documentedIdentifiers } from "./documented-identifiers.js";
import { KnownSections, type KnownUnit } from "./known-sections.js";
import { mayHaveReferenceList, referenceLists } from "./reference-lists.js";
import { isErrorResponse, NO_PRINT, textPrint } from "./repeated-sections.js";
import { type SectionTable, sectionTable, type StoredSection } from "./section-table.js";
import { type KeyedSection, normalizeNewlines, splitSections, splitSectionsReusing, type SplitSection } from "./sections.js";
import { longTables } from "./table-rows.js";
import { Analyzer } from "./terms.js";
import { IdBuffer, Vocabulary } from "./vocabulary.js";

/**
 * A page body's analysis as plain data (issue 22): its sections' places and the term ids of each
 * section's three texts, in the ids of the vocabulary it was made with. It depends on the body
 * alone, so worker threads make it (`analysis-pool.ts`) and the index, on its thread, maps the ids
 * to its own vocabulary in page order (`LocalTerms`): ids, postings and results are the same as
 * when one thread does everything. Section texts are not kept: only their fingerprint
 * (`RepeatedSections`) and their terms are needed to index them.
 */
export interface BodyAnalysis {
  /** Its sections as the index keeps them (`section-table.ts`), made where the body is analysed:
   *  sent from a worker as an object per section (its heading, anchor and parents each a string
   *  of their own), 50,000 distinct pages' ~800,000 sections were made again on the index's thread
   *  by the message's deserializer and all held until their pages were indexed (issue 22). */
  readonly table: SectionTable;
  /** Per section, its `textPrint` (`NO_PRINT`: no text): what `RepeatedSections` needs of it. */
  readonly prints: Float64Array;
  /** Per section, 1 when it is an API's error response (`isErrorResponse`), else 0. */
  readonly errorResponses: Uint8Array;
  /** Per section, the term ids of its heading (with its parents), its prose and its code, one
   *  after another; `ends[3 * i + k]` is where text `k` of section `i` ends in `ids`. */
  readonly ids: Int32Array;
  readonly ends: Int32Array;
  /** The identifiers it documents (`documentedIdentifiers`), lowercased. */
  readonly documents: readonly string[];
}

/**
 * Split and tokenize a body as the index does. Endpoint pages (`api`) are not split into
 * reference-list items: the field lists an API reference renders are its boilerplate. With
 * `known`, sections written the same in a body analysed before with it are not split or
 * tokenized again (`KnownSections`); the analysis is the same.
 */
export function analyseBody(body: string, api: boolean, analyzer: Analyzer, buf: IdBuffer = new IdBuffer(), known?: KnownSections): BodyAnalysis {
  const normal = normalizeNewlines(body);
  const tables = normal.includes("|");
  const lists = !api && mayHaveReferenceList(normal);
  const split: readonly (KeyedSection | { readonly heading: string; readonly parents: readonly string[]; readonly anchor: string; readonly start: number; readonly reused: readonly KnownUnit[] })[] =
    known?.consult(normal.length) !== true ? splitSections(body) : splitSectionsReusing(body, known.forBody(tables, lists));
  const ends: number[] = [];
  const sections: StoredSection[] = [];
  const prints: number[] = [];
  buf.clear();
  for (const s of split) {
    if (api && (isSpecPointer(body, s) || isSchemeList(body, s))) continue;
    const heading = new HeadingIds(analyzer, buf, [...s.parents, s.heading].join("\n"));
    if ("reused" in s) {
      for (const u of s.reused) {
        heading.append();
        ends.push(buf.length);
        buf.append(u.ids, 0, u.prose);
        ends.push(buf.length);
        buf.append(u.ids, u.prose, u.ids.length);
        ends.push(buf.length);
        sections.push({ heading: s.heading, parents: s.parents, anchor: s.anchor, start: s.start + u.from, end: s.start + u.to });
        prints.push(u.print ?? NO_PRINT);
      }
      continue;
    }
    // A long table's rows and a reference list's items are units of their own (a section's
    // units stay within it, so a section at a time gives the units the whole list gives).
    let units: readonly SplitSection[] = [s];
    if (tables) units = blockUnitsOf(normal, units, longTables);
    if (lists) units = blockUnitsOf(normal, units, referenceLists);
    const keep: KnownUnit[] | undefined = s.key === undefined ? undefined : [];
    for (const u of units) {
      // Tokens never run across a line break, so the heading field's ids are its parts' ids in turn,
      // and a section indexed whole in one field (repeated boilerplate) is these three in a row.
      // A section's units (its table rows, its list items) all have its heading and parents.
      heading.append();
      const from = buf.length;
      ends.push(from);
      analyzer.appendTermIds(u.prose, buf);
      const prose = buf.length - from;
      ends.push(buf.length);
      analyzer.appendTermIds(u.code, buf);
      ends.push(buf.length);
      const print = textPrint(u);
      sections.push({ heading: u.heading, parents: u.parents, anchor: u.anchor, start: u.start, end: u.end });
      prints.push(print ?? NO_PRINT);
      keep?.push({ from: u.start - s.start, to: u.end - s.start, print, ids: buf.copyFrom(from), prose });
    }
    if (keep !== undefined) known?.keep(s.key as string, keep);
  }
  return { table: sectionTable(sections), prints: Float64Array.from(prints), errorResponses: Uint8Array.from(sections, (s) => (isErrorResponse(s) ? 1 : 0)), ids: buf.copy(), ends: Int32Array.from(ends), documents: documentedIdentifiers(body) };
}

/**
 * Whether a section of an endpoint page is the `## Source` line its page was generated with
 * (`render-page.ts`: "Generated from `/openapi.yaml`: `jq '.["paths"]["/users"]["get"]' ...`"):
 * left out of search. It is for the shell (where the operation is in the spec file), and its
 * words are the operation's path, which the page's context field already holds: indexed, every
 * endpoint page whose path a question named had a hit at `#source` with that line as its snippet
 * (a Korean site's "kakao alimtalk template review" answered by four `#source` lines).
 */
function isSpecPointer(body: string, s: { readonly heading: string; readonly start: number }): boolean {
  return s.heading === "Source" && startsWith(body, s.start, "Generated from ");
}

/**
 * Whether a section of an endpoint page is the `## Authentication` list of its security schemes
 * (`render-page.ts`: "- `pat`: Bearer token (...). A personal access token..."): left out of
 * search. Every endpoint page of an API repeats it word for word; a question about tokens or
 * keys is answered by the site's authentication guide, which 200 copies would crowd out.
 */
function isSchemeList(body: string, s: { readonly heading: string; readonly start: number }): boolean {
  return s.heading === "Authentication" && startsWith(body, s.start, "- `");
}

/** Whether the body, from `at` past blank space, starts with `text`. */
function startsWith(body: string, at: number, text: string): boolean {
  while (at < body.length && (body[at] === "\n" || body[at] === "\r" || body[at] === " ")) at++;
  return body.startsWith(text, at);
}

/**
 * The term ids of a section's heading field (its parents' and its own heading, a line each),
 * appended to `buf` once per unit of the section: tokenized for the first, copied for the others
 * (a long table's rows, each a unit, tokenized the same heading again and again).
 */
class HeadingIds {
  private ids: Int32Array | undefined;
  /** Where the first unit's heading ids are in `buf`, once appended (`to` -1 before). */
  private from = 0;
  private to = -1;

  constructor(
    private readonly analyzer: Analyzer,
    private readonly buf: IdBuffer,
    private readonly text: string,
  ) {}

  append(): void {
    if (this.to === -1) {
      this.from = this.buf.length;
      this.analyzer.appendTermIds(this.text, this.buf);
      this.to = this.buf.length;
      return;
    }
    // Copied out only when a second unit asks: most sections are one unit.
    this.ids ??= this.buf.copyRange(this.from, this.to);
    this.buf.append(this.ids, 0, this.ids.length);
  }
}

/**
 * The terms of a vocabulary another thread assigns (a worker's, `analysis-pool.ts`), mapped to
 * the index's vocabulary as they are first met. The index meets them in page order, so the
 * index's ids come out in the order one thread would have assigned them.
 */
export class LocalTerms {
  private readonly terms: string[] = [];
  private map = new Int32Array(1024).fill(-1);

  /** Terms the other vocabulary assigned since the last call, in id order. */
  learn(terms: readonly string[]): void {
    for (const t of terms) this.terms.push(t);
  }

  /** The index's id of a local id (assigning it in `vocabulary` when first met). */
  global(local: number, vocabulary: Vocabulary): number {
    if (local >= this.map.length) {
      const next = new Int32Array(Math.max(this.map.length * 2, local + 1)).fill(-1);
      next.set(this.map);
      this.map = next;
    }
    let id = this.map[local] as number;
    if (id === -1) {
      id = vocabulary.id(this.terms[local] as string);
      this.map[local] = id;
    }
    return id;
  }
}

/** `analyseBody` with a vocabulary of its own, telling which terms it assigned since last asked:
 *  what a worker runs, and the index's own thread when no worker is used. */
export class BodyAnalyzer {
  private readonly vocabulary = new Vocabulary();
  private readonly analyzer = new Analyzer(this.vocabulary);
  private readonly buf = new IdBuffer();
  private readonly known = new KnownSections(LIMITS.search.knownSectionChars);
  private told = 0;

  analyse(body: string, api: boolean): BodyAnalysis {
    return analyseBody(body, api, this.analyzer, this.buf, this.known);
  }

  /** Terms assigned since the last call, in id order (for `LocalTerms.learn`). */
  newTerms(): string[] {
    const terms = this.vocabulary.state().slice(this.told);
    this.told = this.vocabulary.size;
    return terms;
  }
}
