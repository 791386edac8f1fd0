import { LIMITS } from "../../limits.js";
import { finiteDataSized } from "../finite-data.js";

/**
 * The schema nodes one generated page may walk, shared by every walker that renders its schemas:
 * the field lists (`schemaFields`, `fieldOf`, `typeLabel`), `allOf` merges (`mergeAllOf`), the
 * example values (`exampleValue`) and the request the code examples write (`exampleRequest`).
 * Each walker asked for its own bound before, so a page paid it once per use: eight schemas each
 * with a property of every other, used by 25 query parameters, a body and a response, made each of
 * a 28 KB spec's 20 pages walk 20,000 example values per parameter, and building the search
 * index took 49 s of CPU and 3.2 GB (issue 25). A count, never a time: the same page is cut at
 * the same place on every run. Once spent, every walker does a constant amount of work per call
 * (objects and arrays come out empty, field lists end, labels read `…`) and the page says so
 * (`CUT_NOTE`).
 */
/**
 * What a page's budget refused, for the note it carries (`cutNote`): its schemas (field lists,
 * labels, the example objects built from them), a data value of the spec (an example, a default),
 * a code sample, or a description. The note was worded for schemas whatever was cut, so a page
 * whose one long code sample was left out said its fields were not all listed.
 */
export type CutPart = "schemas" | "data" | "samples" | "descriptions" | "lists";

export class SchemaBudget {
  private left: number;
  private readonly refusedParts = new Set<CutPart>();

  constructor(readonly max: number) {
    this.left = max;
  }

  /** Take one node; false (and the page is cut) once all are taken. */
  take(part: CutPart = "schemas"): boolean {
    if (this.left <= 0) {
      this.refusedParts.add(part);
      return false;
    }
    this.left--;
    return true;
  }

  /**
   * Take what writing `text` costs: a node per `LIMITS.api.schemaTextCharsPerNode` characters
   * (shorter texts are free, as most descriptions are). A node counts the same whatever text it
   * carries, so one 30 KB description on eight schemas that each hold all eight was written once
   * per node: a 45 KB spec made pages of 12 MB and `serve` took 4 GB (adversary round 15). False
   * (the text is left out, the page is cut) when fewer are left.
   */
  takeText(text: string, part: CutPart = "schemas"): boolean {
    const cost = Math.floor(text.length / LIMITS.api.schemaTextCharsPerNode);
    if (cost === 0) return true;
    if (cost > this.left) {
      this.refusedParts.add(part);
      return false;
    }
    this.left -= cost;
    return true;
  }

  /**
   * Take what writing one entry of a list costs (`LIMITS.api.listEntryNodes`, and its `text` as
   * `takeText` charges it): a server, an operation, a message, a channel parameter, a protocol's
   * bindings. Lists scale with the spec, and a channel page of AsyncAPI lists every server of the
   * spec when it names none: 1,000 servers on 2,000 pages were written free (adversary round 62b).
   * False (the entry and the rest of its list are left out, the page is cut) when too few are left.
   */
  takeEntry(text = ""): boolean {
    const cost = LIMITS.api.listEntryNodes + Math.floor(text.length / LIMITS.api.schemaTextCharsPerNode);
    if (cost > this.left) {
      this.refusedParts.add("lists");
      return false;
    }
    this.left -= cost;
    return true;
  }

  /**
   * What is left, and a way to spend it as a walk that started with as much spent it: a part of a
   * page rendered once for every page that reaches it with the same budget left (a message shared
   * by 100 channels, `messageSection`) is charged on each as if rendered there. Exact: every
   * walker's work depends only on what is left.
   */
  get remaining(): number {
    return this.left;
  }

  /** Spend as a walk did that started with `remaining` and ended with `left`, refusing `parts`. */
  replay(left: number, parts: readonly CutPart[]): void {
    this.left = Math.min(this.left, left);
    for (const p of parts) this.refusedParts.add(p);
  }

  /**
   * A data value of the spec (an example, a default, an enum entry) as the page may write it:
   * finite (`finiteData`), within what the page has left of its text (and `maxDataChars`), and
   * taken from it. Each value had its own bound, so one 100,000-character string shared by 100
   * parameter examples made a 110 KB spec's page 70 MB (adversary round 3).
   */
  data(value: unknown): unknown {
    // Long strings and keys are charged as `takeText` charges text; the nodes of a value
    // `exampleValue` built were charged as it built them.
    const text = { left: Math.max(0, this.left), per: LIMITS.api.schemaTextCharsPerNode };
    const out = finiteDataSized(value, LIMITS.api.maxDataChars, text);
    if (out.cut) this.refusedParts.add("data");
    this.left = Math.min(this.left, text.left);
    return out.value;
  }

  /** Whether some walker was refused a node: the page does not show everything. */
  get cut(): boolean {
    return this.refusedParts.size > 0;
  }

  /** What was refused, in the order `CutPart` names them. */
  get cutParts(): readonly CutPart[] {
    return (["schemas", "data", "samples", "descriptions", "lists"] as const).filter((p) => this.refusedParts.has(p));
  }

  /** Nodes taken so far. */
  get spent(): number {
    return this.max - this.left;
  }
}

/**
 * The budget of one page of a spec with `pages` pages: `LIMITS.api.maxPageSchemaNodes`, less when
 * the spec's pages together would take more than `maxSpecSchemaNodes` (an adversary writes many
 * small operations instead of one large one), never below `minPageSchemaNodes`. It depends only on
 * the spec, not on which pages were rendered before: a page reads the same whenever it is read.
 */
export function pageSchemaBudget(pages: number): SchemaBudget {
  const { maxPageSchemaNodes, maxSpecSchemaNodes, minPageSchemaNodes } = LIMITS.api;
  const share = Math.floor(maxSpecSchemaNodes / Math.max(1, pages));
  return new SchemaBudget(Math.min(maxPageSchemaNodes, Math.max(minPageSchemaNodes, share)));
}
