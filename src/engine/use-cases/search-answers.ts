import { LIMITS } from "../../limits.js";
import { type RequestContext, visibilityKey } from "../../vfs/request-context.js";
import { Lru } from "../search/lru.js";
import type { SearchHit } from "../search/search-index.js";
import type { ToolNames } from "../tool-names.js";
import type { SiteView } from "../../vfs/view.js";
import type { SearchResult } from "./search-result.js";

/**
 * A form an adapter derives from a search's answer (the MCP tool's result, the bridge's JSON of
 * it), named once as a constant so its type follows it: `answer.form(TOOL_RESULT, key, make)`.
 */
export interface AnswerForm<T> {
  readonly name: string;
  /** Never set: carries the form's type. */
  readonly type?: T;
}

export function answerForm<T>(name: string): AnswerForm<T> {
  return { name };
}

/**
 * One search's answer in every form it is given in, each written once. Agents ask the same few
 * questions over and over, and a server under load spent more on writing the same answer again
 * (the JSON of the tool result alone was a seventh of a worker's CPU in a profile under wrk; the
 * results a sixth of what a kept search allocated) than on the search the index had kept.
 * Everything in a `shared` one is frozen: it is given to every request that asks the same.
 */
export class SearchAnswer {
  private written: string | undefined;
  private readonly forms = new Map<AnswerForm<unknown>, { readonly key: string; readonly value: unknown }>();

  constructor(
    /** The index's kept hits it was written from: an answer is good while the index gives the same list. */
    readonly hits: readonly SearchHit[],
    /** The view of the reader it was written for (one per snapshot and what the reader may see): page times are the reader's. */
    readonly view: SiteView,
    readonly results: readonly SearchResult[],
    private readonly writeText: () => string,
  ) {}

  /**
   * Whether the answer may be given to more than one request: written from hits the index kept
   * (frozen). One that is not (`searchCache: 0`, or hits the index did not keep) is this request's
   * alone, and its forms need not be frozen against another's changes (freezing every object of
   * a result, twice, cost 1-2% of a worker's CPU per call under distinct questions, issue 23).
   */
  get shared(): boolean {
    return Object.isFrozen(this.hits);
  }

  /** The results as text (`searchText`), written on first use. */
  get text(): string {
    return (this.written ??= this.writeText());
  }

  /**
   * `form` of this answer, made once per `key` (what else it depends on, such as the commit the
   * docs were read at); a form made for another key is replaced.
   */
  form<T>(form: AnswerForm<T>, key: string, make: () => T): T {
    const known = this.forms.get(form);
    // The map holds, under each form, only values that form's `make` returned.
    if (known !== undefined && known.key === key) return known.value as T;
    const value = make();
    this.forms.set(form, { key, value });
    // Only a kept answer's forms are found again from their values. An answer written for one
    // request (unfrozen hits: `searchCache: 0`, or hits the index did not keep) is never asked
    // again, and an entry in this module's WeakMap kept each such answer with all its forms (its
    // text, its result, the JSON of it: ~60 KB) through every young-generation collection, as V8
    // clears a long-lived WeakMap's entries only in a full one: under wrk with distinct questions,
    // most of what a worker promoted to the old generation (issue 23).
    if (Object.isFrozen(this.hits) && typeof value === "object" && value !== null) MADE.set(value, { answer: this, key: `${form.name}\n${key}` });
    return value;
  }
}

/** Each object form to the answer and key it was made for (`derivedForm`). */
const MADE = new WeakMap<object, { readonly answer: SearchAnswer; readonly key: string }>();

/**
 * `form` of a value: kept on the answer `value` is a form of (the bridge's JSON of a search's
 * tool result), once per `value` and `key`; made afresh for any other value (a cut answer, another
 * tool's result).
 */
export function derivedForm<T>(value: object, form: AnswerForm<T>, key: string, make: () => T): T {
  const made = MADE.get(value);
  return made === undefined ? make() : made.answer.form(form, `${made.key}\n${key}`, make);
}

/** Whom and what an answer is for, besides the arguments. */
export interface AnswerScope {
  readonly request: RequestContext;
  /** The reader's view: one per snapshot of the site and what the reader may see. */
  readonly view: SiteView;
  readonly base: string;
  readonly names: ToolNames;
}

/**
 * The answer cache: one per runtime, owned by the search use case (`searchAnswer`), emptied when
 * the site changes (as the index's own result cache is). Keyed by what the reader may see (the
 * auth setting and the reader's key: `visibilityKey`) and the normalised arguments; an entry is
 * used only for the same reader's view (so the same snapshot of the site), base URL and tool
 * names, and while the index answers with the same kept hits, so it never gives a reader what
 * another may see. Hits the index did not keep (unfrozen: `searchCache: 0`) are never kept here
 * either. As many entries as the index keeps searches.
 */
export class SearchAnswers {
  private readonly kept = new Lru<string, { readonly scope: AnswerScope; readonly answer: SearchAnswer }>(LIMITS.search.cachedResults);

  /** The answer for `hits`, written by `write` unless kept. */
  answer(scope: AnswerScope, args: string, hits: readonly SearchHit[], write: () => SearchAnswer): SearchAnswer {
    if (!Object.isFrozen(hits)) return write();
    const key = `${visibilityKey(scope.request)}|${args}`;
    const known = this.kept.get(key);
    if (known !== undefined && known.answer.hits === hits && known.scope.view === scope.view && known.scope.base === scope.base && known.scope.names === scope.names) return known.answer;
    const answer = write();
    this.kept.set(key, { scope, answer });
    return answer;
  }

  /** Forget every answer (the site changed). */
  clear(): void {
    this.kept.clear();
  }
}
