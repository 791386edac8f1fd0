import { LIMITS } from "../../limits.js";
import { type BodyKey, bodyKeyOf } from "../../vfs/body-key.js";
import type { Page } from "../../vfs/page.js";
import { AnalysisFeed, analysisWorkers, type BodyToAnalyse, bodyToAnalyse } from "./analysis-feed.js";
import { isApiPage } from "./endpoint-page.js";
import { BodyImports } from "./body-imports.js";

/**
 * Page analysis begun while a first load reads the pages (issue 22): each page the load makes
 * is `offer`ed, its body (once per distinct text, as the build lists them: `bodiesToAnalyse`)
 * queued for the analysis workers at once, so that they analyse on the other core while this
 * thread reads and parses. At 50,000 distinct pages the workers started only once the load was
 * over, ~33 s into a 37 s start, and the two cores did not overlap during the load.
 *
 * The workers start once the bodies offered reach the build's own threshold
 * (`analysisWorkersFrom` bodies or `analysisWorkersFromChars` characters), as many as
 * `analysisWorkers` says of what was offered so far (a second when most pages turn out
 * distinct). The build takes the feed (`feedFor`): what it lists decides what is kept, so the
 * index is the one a build without it makes.
 */
export class AnalysisDuringLoad {
  private feed: AnalysisFeed | undefined;
  /** Bodies offered before the workers start. */
  private held: BodyToAnalyse[] = [];
  /** Bodies offered, per kind (endpoint pages apart), each once. */
  private seen = [new Set<BodyKey>(), new Set<BodyKey>()];
  private pages = 0;
  private chars = 0;
  private bodies = 0;
  private done = false;
  /** Whether each body offered imports MDX: the build takes the answers (`takeImports`). */
  private answers: BodyImports | undefined = new BodyImports();

  /** `from`: bodies or characters offered from which workers start (the build's own, by default;
   *  tests start them sooner). */
  constructor(
    private readonly cores: number,
    private readonly log: (line: string) => void = () => {},
    private readonly from: { readonly bodies: number; readonly chars: number } = { bodies: LIMITS.search.analysisWorkersFrom, chars: LIMITS.search.analysisWorkersFromChars },
  ) {}

  /** A page the load made: its body queued for analysis, unless offered before or one that
   *  imports MDX (analysed as each reader sees it, by the build). */
  offer(page: Page): void {
    if (this.done) return;
    this.pages++;
    const api = isApiPage(page);
    const key = bodyKeyOf(page);
    const seen = this.seen[api ? 1 : 0] as Set<BodyKey>;
    if (seen.has(key)) return;
    seen.add(key);
    if ((this.answers ??= new BodyImports()).of(page)) return;
    const item = bodyToAnalyse(page, key, api);
    this.bodies++;
    this.chars += item.chars;
    const distinct = (this.seen[0] as Set<BodyKey>).size + (this.seen[1] as Set<BodyKey>).size;
    if (this.feed !== undefined) {
      this.feed.offer(item);
      this.feed.grow(analysisWorkers(this.cores, distinct, this.pages));
      return;
    }
    this.held.push(item);
    if (this.held.length < this.from.bodies && this.chars < this.from.chars) return;
    this.feed = AnalysisFeed.open(analysisWorkers(this.cores, distinct, this.pages), this.log);
    for (const body of this.held) this.feed.offer(body);
    this.held = [];
  }

  /** Whether the bodies offered import MDX, for the build of the loaded site to ask no body
   *  again (`SearchIndex.takeImports`); given once. */
  takeImports(): BodyImports | undefined {
    const answers = this.answers;
    this.answers = undefined;
    return answers;
  }

  /** Distinct bodies offered for analysis so far. */
  get offered(): number {
    return this.bodies;
  }

  /** Whether analysis workers were started (and not closed). */
  get started(): boolean {
    return this.feed !== undefined;
  }

  /**
   * The feed for the build of the loaded site, given its bodies in order and the workers it
   * wants (`plan`): undefined when the load never started workers (the build decides then as
   * it would without this). Nothing more is offered after.
   */
  feedFor(items: readonly BodyToAnalyse[], workers: number): AnalysisFeed | undefined {
    const feed = this.feed;
    this.finish();
    if (feed === undefined) return undefined;
    feed.grow(workers);
    return feed.plan(items);
  }

  /** Stop: the workers ended, what was offered let go (a load that failed, a runtime closed
   *  before its build). */
  close(): void {
    this.feed?.close();
    this.finish();
  }

  private finish(): void {
    this.done = true;
    this.feed = undefined;
    this.answers = undefined;
    this.held = [];
    this.seen = [new Set(), new Set()];
  }
}
