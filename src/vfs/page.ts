import type { FrontMatterData } from "../config/frontmatter.js";
import type { PageCut } from "../config/openapi/render-page.js";
import type { PageMeta } from "../config/page-meta.js";
import type { SiteFile } from "./site-file.js";

/** A documentation page: an MDX/Markdown file, or a page generated from an API spec. */
export interface Page {
  readonly file: SiteFile;
  /** Page path as navigation writes it: `/guides/setup` (for `/guides/setup.mdx`). */
  readonly path: string;
  readonly title: string;
  readonly meta: PageMeta;
  readonly frontMatter: FrontMatterData;
  /** Markdown after the front matter. */
  readonly body: string;
  /** 1-based line of `body`'s first line in the file (for `rg -n`-consistent snippets). */
  readonly bodyLine: number;
  /** True for pages generated from an OpenAPI/AsyncAPI spec (no file on disk). */
  readonly generated: boolean;
  /** For a generated page: a SHA-256 of everything its text is rendered from (`RenderKeys`),
   *  when known; two pages with one key have one text, so it stands for the text unrendered. A
   *  page kept from an earlier load (`SpecPageMaker`) keeps the key it was made with. */
  readonly renderKey?: string;
  /** For an MDX page shown with the operation it documents (front matter `openapi`): the page
   *  as read from disk, before the operation's reference was appended. */
  readonly authored?: Page;
  /** For a page that shows an API reference (generated, or appended to the author's page):
   *  where its schema budget (`SchemaBudget`) cut it, undefined when it is whole; renders it
   *  when not yet read. `check` asks, to warn which operations' pages are cut and what of them. */
  readonly schemaCut?: () => PageCut | undefined;
}
