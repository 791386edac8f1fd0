import type { NavLink, PagePlace, SidebarItem, Switcher } from "../../../engine/preview/page-place.js";
import type { TocEntry } from "../../../engine/render/render-mdx.js";
import { escapeHtml as esc } from "../../auth/login-page.js";

/** Switchers shown in the top bar (tabs as a row, versions and languages as menus); the rest go to the sidebar. */
const TOP_KINDS = new Set(["tab", "version", "language"]);

function link(l: NavLink, attrs = ""): string {
  const external = l.external === true ? ` rel="noreferrer"` : "";
  const current = l.current ? ` aria-current="page"` : "";
  const method = l.method !== undefined ? `<span class="method m-${esc(l.method.toLowerCase())}">${esc(l.method)}</span> ` : "";
  return `<a href="${esc(l.href)}"${current}${external}${attrs}>${method}${esc(l.title)}</a>`;
}

/** A version or language switcher: a `<details>` menu of links (no script needed). */
function menu(s: Switcher): string {
  const current = s.options.find((o) => o.current);
  const items = s.options.map((o) => `<li>${link(o)}</li>`).join("");
  return `<details class="menu" data-testid="switch-${esc(s.kind)}"><summary><span class="menu-kind">${esc(s.kind)}</span> ${esc(current?.title ?? "")}</summary><ul>${items}</ul></details>`;
}

/** The top bar's part of the navigation: the tabs row and the version and language menus. */
export function topNavHtml(place: PagePlace | undefined): { tabs: string; menus: string } {
  const top = (place?.switchers ?? []).filter((s) => TOP_KINDS.has(s.kind));
  const tabs = top
    .filter((s) => s.kind === "tab")
    .map((s) => `<nav class="top-tabs" aria-label="Sections" data-testid="tabs">${s.options.map((o) => link(o, ` class="tab-link${o.current ? " current" : ""}"`)).join("")}</nav>`)
    .join("");
  const menus = top.filter((s) => s.kind !== "tab").map(menu).join("");
  return { tabs, menus };
}

/** The sidebar: anchors, dropdowns and products, the site's global anchors, then the groups and pages. */
export function sidebarHtml(place: PagePlace | undefined): string {
  if (place === undefined) return "";
  const out: string[] = [];
  for (const s of place.switchers.filter((x) => !TOP_KINDS.has(x.kind))) {
    if (s.kind === "anchor") out.push(`<ul class="anchors">${s.options.map((o) => `<li>${link(o)}</li>`).join("")}</ul>`);
    else out.push(menu(s));
  }
  if (place.globalAnchors.length > 0) out.push(`<ul class="anchors global">${place.globalAnchors.map((a) => `<li>${link(a)}</li>`).join("")}</ul>`);
  out.push(itemsHtml(place.sidebar, 0));
  return `<nav class="sidebar" aria-label="Pages" data-testid="sidebar">${out.join("")}</nav>`;
}

function itemsHtml(items: readonly SidebarItem[], depth: number): string {
  const lis = items.map((i) => {
    if (i.kind === "page") return `<li class="nav-page${i.current ? " current" : ""}">${link(i)}</li>`;
    const title = i.root !== undefined ? link(i.root) : esc(i.title);
    // Top-level groups are headings that stay open; nested ones fold (`expanded` in docs.json).
    if (depth === 0) return `<li class="nav-group"><div class="group-title">${title}</div>${itemsHtml(i.items, depth + 1)}</li>`;
    return `<li class="nav-group nested"><details${i.open ? " open" : ""}><summary>${title}</summary>${itemsHtml(i.items, depth + 1)}</details></li>`;
  });
  return `<ul class="nav-items depth-${Math.min(depth, 3)}">${lis.join("")}</ul>`;
}

/** Previous and next page links at the foot of the page. */
export function pagerHtml(place: PagePlace | undefined): string {
  if (place?.previous === undefined && place?.next === undefined) return "";
  const prev = place.previous !== undefined ? `<a class="prev" rel="prev" href="${esc(place.previous.href)}" data-testid="previous"><small>Previous</small>${esc(place.previous.title)}</a>` : "<span></span>";
  const next = place.next !== undefined ? `<a class="next" rel="next" href="${esc(place.next.href)}" data-testid="next"><small>Next</small>${esc(place.next.title)}</a>` : "<span></span>";
  return `<nav class="pager" aria-label="Previous and next">${prev}${next}</nav>`;
}

/** "On this page": the page's `##` and `###` headings. */
export function tocHtml(toc: readonly TocEntry[]): string {
  if (toc.length < 2) return "";
  const items = toc.map((t) => `<li class="toc-${t.depth}"><a href="#${esc(t.id)}">${esc(t.text)}</a></li>`).join("");
  return `<aside class="toc" aria-label="On this page"><div class="toc-title">On this page</div><ul>${items}</ul></aside>`;
}

/** The eyebrow above the title: the group, or every element above the page (`styling.eyebrows: breadcrumbs`). */
export function eyebrowHtml(place: PagePlace | undefined): string {
  const crumbs = place?.eyebrow ?? [];
  if (crumbs.length === 0) return "";
  return `<p class="eyebrow" data-testid="eyebrow">${crumbs.map((c) => `<span>${esc(c)}</span>`).join(`<span class="sep">/</span>`)}</p>`;
}
