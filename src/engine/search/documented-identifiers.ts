import { LIMITS } from "../../limits.js";
import type { DocumentsLift } from "./ranking.js";
import { forEachContentLine, normalizeNewlines } from "./sections.js";

/**
 * Which identifiers a page documents, and which a question names (issue 24, twenty-seventh
 * round). A page documents `ANONYMIZED_TELEMETRY` when it gives it a place of its own: a whole
 * heading (`## ANONYMIZED_TELEMETRY`), the first cell of a table row (`| 402 | Payment Required |`)
 * or the name of a Mintlify field (`<ParamField body="user_id">`, `<ResponseField name="runId">`).
 * A page that merely mentions it in prose or code does not. When the question names such an
 * identifier, the page written about it is what was asked for, and its score is lifted
 * (`RankingParams.documentsWeight`): BM25 counts the identifier once on the reference page and as
 * often on every guide quoting it in an example.
 *
 * An identifier is a word no sentence writes: joined by `_` (`user_id`, `_meta`), lower camelCase
 * (`schemaTask`), joined by `-` or `.` with a capital or a digit (`X-API-Key`, `gpt-4o`), or an
 * HTTP status code (100-599). Plain words (`install`, `Webhooks`) are headings of guides as much
 * as of references, so a heading naming one says nothing more than the title part already does.
 * Compared case-insensitively: questions write `anonymized_telemetry` as often as the page's case.
 */

const UNDERSCORED = /^_*[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)*_*$/;
const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const JOINED = /^[A-Za-z0-9]+(?:[-.][A-Za-z0-9]+)+$/;
const STATUS = /^[1-5]\d\d$/;

/** Whether `word` (as written, its case kept) is an identifier in the sense above. */
export function isIdentifier(word: string): boolean {
  if (word.includes("_")) return UNDERSCORED.test(word) && /[A-Za-z0-9]/.test(word);
  if (CAMEL.test(word)) return true;
  if (JOINED.test(word)) return /[A-Z0-9]/.test(word) && /[A-Za-z]/.test(word);
  return STATUS.test(word);
}

/** A candidate name without the markup around it: `` `user_id` ``, `**402**`, `createClient()`. */
function bare(text: string): string {
  return text
    .trim()
    .replace(/^[`*_~]+(?=[A-Za-z0-9_])|(?<=[A-Za-z0-9_])[`*~]+$/g, "")
    .replace(/^`|`$/g, "")
    .replace(/\(\)$/, "")
    .trim();
}

const HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
/**
 * No identifier is longer: a heading line, a cell or a field tag past it is not read. Why: the
 * heading pattern tries its end at every space of the line (a heading of a million spaces, which
 * `hostile-text.test.ts` indexes, never finished), and a tag's attributes were scanned from every
 * `<ParamField` to the next `>` (many unclosed ones: the square of the page's length). Deciding by
 * length keeps the work a page's length times a constant.
 */
const MAX_NAME = 256;
const MAX_HEADING_LINE = 2 * MAX_NAME;
const MAX_TAG = 4 * MAX_NAME;
const ROW = /^[ \t]*\|([^|]*)\|/;
const SEPARATOR = /^[ \t]*\|?[ \t:-]+\|/;
// A field component's name: the attribute the platform shows as the field's title.
const FIELD_TAG = /<(?:ParamField|ResponseField)\b/g;
const FIELD_NAME = /\s(?:name|path|query|body|header|cookie)=(?:"([^"]{0,256})"|'([^']{0,256})'|\{["'`]([^"'`]{0,256})["'`]\})/;

/**
 * The identifiers `body` documents, lowercased, each once, in the order first met; at most
 * `LIMITS.search.maxDocumentedIdentifiers` (a generated table of thousands of rows gains nothing
 * past the first rows' worth of memory). Fenced code is not read: a heading or table in an
 * example documents nothing of this page.
 */
export function documentedIdentifiers(body: string): readonly string[] {
  if (!body.includes("#") && !body.includes("|") && !body.includes("Field")) return [];
  const out = new Set<string>();
  const max = LIMITS.search.maxDocumentedIdentifiers;
  const add = (candidate: string): void => {
    if (candidate.length > MAX_NAME) return;
    const name = bare(candidate);
    if (out.size < max && isIdentifier(name)) out.add(name.toLowerCase());
  };
  const prose: string[] = [];
  const fields = body.includes("Field");
  // Lines as the sections read them: a CRLF page's lines kept their `\r`, which no heading pattern
  // end takes (484 of one real site's 1,210 pages documented none of their headings).
  forEachContentLine(normalizeNewlines(body).split("\n"), (line, code) => {
    if (code) return;
    if (fields) prose.push(line);
    // A heading holds a `#`, a table row a `|`: most lines hold neither, and skip the regexes
    // (every prose line of every page passes here).
    if (!line.includes("#") && !line.includes("|")) return;
    const heading = line.length <= MAX_HEADING_LINE ? HEADING.exec(line) : null;
    if (heading !== null) add(heading[1] as string);
    else if (!SEPARATOR.test(line)) {
      const row = ROW.exec(line);
      if (row !== null) add(row[1] as string);
    }
  });
  // Over the lines joined: Mintlify's style writes a tag's attributes one a line.
  const text = prose.join("\n");
  if (fields && text.includes("Field")) {
    // Each tag's attributes up to its `>` (found once for every tag before it) and at most MAX_TAG.
    let close = -1;
    for (const tag of text.matchAll(FIELD_TAG)) {
      const start = tag.index;
      if (close < start) close = text.indexOf(">", start);
      if (close === -1) break;
      const attribute = FIELD_NAME.exec(text.slice(start, Math.min(close, start + MAX_TAG)));
      if (attribute !== null) add((attribute[1] ?? attribute[2] ?? attribute[3]) as string);
    }
  }
  return [...out];
}

/** The identifiers `query` names, lowercased, each once (words as written, punctuation around them left out). */
export function queryIdentifiers(query: string): readonly string[] {
  const out = new Set<string>();
  for (const raw of query.split(/\s+/)) {
    const word = raw.replace(/^[^A-Za-z0-9_]+|[^A-Za-z0-9_]+$/g, "");
    if (word !== "" && isIdentifier(word)) out.add(word.toLowerCase());
  }
  return [...out];
}

/**
 * The index's table of which page units document which identifier (`documentedIdentifiers` of
 * each unit's text), and the lift a question naming some of them gives (`PagePriors.documents`).
 */
export class DocumentedUnits {
  private readonly units = new Map<string, Set<number>>();
  private stamps = new Uint32Array(0);
  private stamp = 0;

  /** Record that unit `id` documents `identifiers`. */
  add(id: number, identifiers: readonly string[]): void {
    for (const name of identifiers) {
      let set = this.units.get(name);
      if (set === undefined) this.units.set(name, (set = new Set()));
      set.add(id);
    }
  }

  /** Forget unit `id`, which documented `identifiers`. */
  remove(id: number, identifiers: readonly string[]): void {
    for (const name of identifiers) {
      const set = this.units.get(name);
      if (set === undefined) continue;
      set.delete(id);
      if (set.size === 0) this.units.delete(name);
    }
  }

  /** The lift for a question naming `identifiers`, over units below `size`; undefined when no
   *  unit documents any of them (most questions: nothing is stamped, and ranking reads nothing). */
  lift(identifiers: readonly string[], weight: number, size: number): DocumentsLift | undefined {
    if (weight === 1 || identifiers.length === 0 || this.units.size === 0) return undefined;
    const sets = identifiers.flatMap((name) => this.units.get(name) ?? []);
    if (sets.length === 0) return undefined;
    if (this.stamps.length < size) this.stamps = new Uint32Array(Math.max(size, 2 * this.stamps.length));
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    for (const set of sets) for (const id of set) this.stamps[id] = this.stamp;
    return { stamps: this.stamps, stamp: this.stamp, weight };
  }
}
