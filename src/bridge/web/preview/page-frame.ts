import { createHash } from "node:crypto";
import type { PagePlace } from "../../../engine/preview/page-place.js";
import { escapeHtml as esc } from "../../auth/login-page.js";
import { type HtmlOptions, htmlResponse } from "../html.js";
import { eyebrowHtml, pagerHtml, sidebarHtml, tocHtml, topNavHtml } from "./nav-html.js";
import type { TocEntry } from "../../../engine/render/render-mdx.js";

/** Where the pages for people sign readers in and out. */
export interface SignInLinks {
  readonly login: string;
  readonly logout: string;
}

/** Who reads: the signed-in account's name, or whether the site offers a sign-in. */
export interface FrameReader {
  readonly signedIn: string | undefined;
  readonly signInOffered: boolean;
}

/** What the page's script reads (`<script type="application/json" id="svc-preview">`). */
export interface PreviewData {
  /** The page path (`/guides/setup`), or undefined on a page that is none (404). */
  readonly page?: string;
  /** Its file in the docs filesystem (`/guides/setup.mdx`). */
  readonly file?: string;
  /** The version and language the page is in, for the search box's filters. */
  readonly version?: string;
  readonly language?: string;
}

export interface FrameInput {
  readonly siteName: string;
  readonly title: string;
  /** The page as the reader's URL names it (sign-in returns here). */
  readonly urlPath: string;
  readonly place: PagePlace | undefined;
  readonly reader: FrameReader;
  readonly links: SignInLinks;
  /** The article: the page's content, already safe HTML. */
  readonly main: string;
  readonly toc?: readonly TocEntry[];
  readonly data: PreviewData;
  readonly status?: number;
  /** Whether to write `<meta name="svc-digest">` (default true). */
  readonly digest?: boolean;
  /** More of the page (the playground's data block), and its scripts and policy. */
  readonly extra?: string;
  readonly options?: HtmlOptions;
}

/** The style sheets and script every preview page loads (`/_svc/assets/`). */
export const PREVIEW_ASSETS = { styles: ["pages.css", "site.css"], scripts: ["preview.js"] } as const;

/**
 * A page of the preview: the top bar (site, tabs, version and language menus, search, the
 * agent's view, sign-in), the sidebar, the article with its eyebrow and previous/next links,
 * "On this page", and the agent panel the script fills. `<meta name="svc-digest">` is a hash of
 * the body: live reload redraws a page only when its own answer changed.
 */
export function previewPage(input: FrameInput): Response {
  const { tabs, menus } = topNavHtml(input.place);
  const back = encodeURIComponent(input.urlPath);
  const who =
    input.reader.signedIn !== undefined
      ? `<form method="post" action="${esc(input.links.logout)}?return=${back}" class="who">Signed in as <strong data-testid="signed-in-as">${esc(input.reader.signedIn)}</strong> <button type="submit">Sign out</button></form>`
      : input.reader.signInOffered
        ? `<a class="who" href="${esc(input.links.login)}?return=${back}" data-testid="sign-in">Sign in</a>`
        : "";
  const search = `<form class="search" role="search" data-testid="search-form"><input type="search" name="query" placeholder="Search the docs" aria-label="Search the docs" autocomplete="off" data-testid="search-input"><div class="search-results" data-testid="search-results" hidden></div></form>`;
  const agent = `<button type="button" class="agent-toggle" data-testid="agent-toggle" aria-pressed="false" aria-controls="svc-agent-panel">Agent view</button>`;
  const header = `<header class="top"><a class="site" href="/">${esc(input.siteName)}</a>${tabs}<div class="controls">${menus}${search}${agent}${who}</div></header>`;
  const article = `<main class="content" data-testid="content">${eyebrowHtml(input.place)}${input.main}${pagerHtml(input.place)}</main>`;
  const panel = `<aside class="agent-panel" id="svc-agent-panel" data-testid="agent-panel" hidden></aside>`;
  const data = `<script type="application/json" id="svc-preview">${JSON.stringify(input.data).replace(/</g, "\\u003c")}</script>`;
  const body = `${header}<div class="layout">${sidebarHtml(input.place)}${article}${tocHtml(input.toc ?? [])}${panel}</div>${data}${input.extra ?? ""}`;
  const digest = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const options = input.options ?? {};
  return htmlResponse(input.title, body, {
    ...options,
    styles: [...PREVIEW_ASSETS.styles, ...(options.styles ?? []).filter((s) => !(PREVIEW_ASSETS.styles as readonly string[]).includes(s))],
    scripts: [...PREVIEW_ASSETS.scripts, ...(options.scripts ?? [])],
    ...(input.digest !== false ? { meta: { "svc-digest": digest } } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
  });
}
