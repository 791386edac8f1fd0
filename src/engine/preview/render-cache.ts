import { mdxImports } from "../../config/mdx-imports.js";
import { LIMITS } from "../../limits.js";
import type { Page } from "../../vfs/page.js";
import type { SiteFile } from "../../vfs/site-file.js";
import type { SiteView } from "../../vfs/view.js";
import { expandIncludes, isCurrent } from "../search/includes.js";
import { Lru } from "../search/lru.js";
import type { RenderedMdx, RenderOptions } from "../render/render-mdx.js";
import { RenderUnavailable } from "../render/render-unavailable.js";

/** A rendered page and the snippet files its text was built from (to tell whether it is current). */
interface Entry {
  readonly rendered: RenderedMdx;
  readonly uses: readonly SiteFile[];
  readonly missing: readonly string[];
}

/**
 * The text a reader's page renders from: the page as the reader's view holds it (what `cat`
 * prints: imports of files they may not read are already gone with their tags), with the MDX
 * snippets it imports inlined as search inlines them (`expandIncludes`): default imports of
 * `.md`/`.mdx` files the view holds, `{prop}` filled from the tag's string attributes.
 */
export function readerPageText(view: SiteView, page: Page): { text: string; uses: readonly SiteFile[]; missing: readonly string[] } {
  const expanded = expandIncludes(page, (path) => view.fileAt(path));
  if (expanded === undefined) return { text: page.body, uses: [], missing: [] };
  return { text: withoutImports(expanded.body), uses: expanded.uses, missing: expanded.missing };
}

/**
 * The text without its import statements: an inlined snippet brings its own, which may now stand
 * inside a component (`<ResponseField>`), where MDX reads no ESM; the page's own are never
 * shown either. Blanked rather than cut, so that line numbers stay those of the text.
 */
function withoutImports(text: string): string {
  const statements = mdxImports(text);
  if (statements.length === 0) return text;
  let out = "";
  let at = 0;
  for (const s of statements) {
    if (s.start < at) continue;
    out += text.slice(at, s.start) + text.slice(s.start, s.end).replace(/[^\n]/g, "");
    at = s.end;
  }
  return out + text.slice(at);
}

/** Renders a page's text (`RenderPool.render`: in a worker thread). */
export type PageRenderer = (source: string, options: RenderOptions, caller: string) => Promise<RenderedMdx>;

/** A render under way: the text it renders, and its entry to come. */
interface Pending {
  readonly text: string;
  readonly entry: Promise<Entry>;
}

/**
 * Rendered pages, kept for a repeat: rendering a long page costs tens of milliseconds (MDX
 * parsing), and a preview is read over and over. Keyed by the reader's page object: readers of
 * one access class share it, and a reload makes new objects for what changed; an entry is used
 * only while every snippet it inlined is still the one the reader's view holds. Pages are
 * rendered by `renderer` (a worker pool: a slow page holds nobody else's answer), and readers
 * asking for a page while it renders wait for that one render; a render that failed is not kept.
 */
export class PageRenders {
  private readonly entries: Lru<Page, Entry>;
  private readonly pending = new Map<Page, Pending>();

  constructor(capacity: number = LIMITS.preview.renderedPages) {
    this.entries = new Lru(capacity);
  }

  /** The page rendered for the reader whose view this is (`caller`: who asks, for a fair share of the renderer). */
  async render(view: SiteView, page: Page, renderer: PageRenderer, caller: string): Promise<RenderedMdx> {
    const fileAt = (path: string): SiteFile | undefined => view.fileAt(path);
    const known = this.entries.get(page);
    if (known !== undefined && isCurrent(known, fileAt)) return known.rendered;
    const { text, uses, missing } = readerPageText(view, page);
    const under = this.pending.get(page);
    if (under !== undefined && under.text === text) {
      try {
        return (await under.entry).rendered;
      } catch (error) {
        // Refused for the first asker's share of the workers, not this one's: it asks for its own.
        if (!(error instanceof RenderUnavailable && error.reason === "too-many")) throw error;
      }
    }
    const entry = renderer(text, { filePath: page.file.path }, caller).then((rendered): Entry => ({ rendered, uses, missing }));
    const mine: Pending = { text, entry };
    this.pending.set(page, mine);
    try {
      const done = await entry;
      this.entries.set(page, done);
      return done.rendered;
    } finally {
      if (this.pending.get(page) === mine) this.pending.delete(page);
    }
  }
}
