import { isIndexed } from "../../vfs/site.js";
import { indexFilesBefore, pagesAt } from "../../vfs/page-routes.js";
import type { Page } from "../../vfs/page.js";
import type { SiteFile } from "../../vfs/site-file.js";
import { mayRead } from "../../vfs/request-context.js";
import { splitSections } from "../search/sections.js";
import { readerVariant } from "../search/variants.js";
import type { ShellResult } from "../shell/shell.js";
import type { DocsContext } from "./docs-context.js";
import { runShell } from "./run-shell.js";

/** A section of a page as search indexes it for a reader. */
export interface IndexedSection {
  /** Its heading ("" for the text before the first heading). */
  readonly heading: string;
  /** The headings above it, outermost first. */
  readonly parents: readonly string[];
  /** The anchor search links to (`#install-the-cli`), or "". */
  readonly anchor: string;
  /** The text search matches and quotes, as a reader sees it (MDX markup dropped). */
  readonly text: string;
}

/** What an agent gets of a page, as the context's reader. */
export interface AgentView {
  /** The page's file in the docs filesystem (`/guides/setup.mdx`). */
  readonly file: string;
  /** The command that printed `cat`, as an agent would send it to the filesystem tool. */
  readonly command: string;
  /** `cat` of the file in the docs shell, as the filesystem tool answers it. */
  readonly cat: ShellResult;
  /** Whether search indexes the page (`noindex`, hidden and unlisted pages are not). */
  readonly indexed: boolean;
  /** The page's sections as search indexes them for this reader (empty when not indexed). */
  readonly sections: readonly IndexedSection[];
}

/**
 * The agent's view of a page the reader may read: the file as `cat` prints it in the docs shell
 * (run through the shell, as the filesystem tool runs it), and the sections search holds of it
 * for this reader: the page with the snippets they may read inlined, exactly as the index
 * gives it (`readerVariant`: the outcome this reader reaches, whatever others have).
 */
export async function agentView(context: DocsContext, page: Page): Promise<AgentView> {
  const file = page.file.path;
  const command = `cat ${shellQuote(file)}`;
  const cat = await runShell(context, { command });
  const site = context.runtime.site;
  // The page of this very file as loaded (not another file of its page path, `page-routes.ts`)
  // that this reader may read: a generated API page behind a restricted file has that file's
  // path, and the file's own sections must not be given in its place (adversary, round 9). One
  // behind `<path>/index` files stands at the end of the index path's pages (`indexFilesBefore`).
  const own = [...pagesAt(site, page.path), ...indexFilesBefore(site, page.path)].find((p) => p.path === page.path && p.file.path === file && mayRead(context.request, p.file.access));
  const indexed = own !== undefined && isIndexed(site, own);
  return { file, command, cat, indexed, sections: indexed && own !== undefined ? indexedSections(context, own, (p) => site.files.get(p)) : [] };
}

/** The sections of the variant of `page` the index gives this reader (see `variants.ts`). */
function indexedSections(context: DocsContext, page: Page, fileAt: (path: string) => SiteFile | undefined): IndexedSection[] {
  const mine = readerVariant(page, fileAt, (access) => mayRead(context.request, access));
  return splitSections(mine.expanded?.body ?? page.body).map((s) => ({ heading: s.heading, parents: s.parents, anchor: s.anchor, text: s.text }));
}

/** A path as one shell word: single quotes unless it is plain (`/a-b/c_d.mdx`). */
export function shellQuote(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
