import type { ApiOperation } from "../../config/openapi/model.js";
import type { DocsRuntime } from "../../engine/runtime.js";
import { readerApiPage } from "../../vfs/outline.js";
import type { RequestContext } from "../../vfs/request-context.js";
import type { Page } from "../../vfs/page.js";
import { escapeHtml as esc } from "../auth/login-page.js";
import { endpointHtml, playgroundData, playgroundDataHtml, playgroundHtml, playgroundView } from "../web/api-page.js";
import type { WebAssets } from "../web/assets.js";

/**
 * The MCP App of an API operation page: one self-contained HTML document (its style and script
 * inline: a host's sandbox loads nothing else) with the page's title and endpoint, then the same
 * playground form and answer view as the page, as `context`'s reader may use it. Its Send is a
 * call of `tool` through the host, answered by the relay as the connection's reader.
 * Undefined for a page that documents no operation.
 */
export async function appDocument(runtime: DocsRuntime, assets: WebAssets, pagePath: string, context: RequestContext, tool: string): Promise<string | undefined> {
  const api = runtime.site.api;
  // The page this reader gets at the path: a generated page behind a file they may not read, too.
  const found = readerApiPage(runtime.site, context, pagePath);
  if (api === undefined || found === undefined || found.info.kind !== "operation") return undefined;
  const { page, info } = found;
  const op = operationAt(runtime, page, pagePath);
  if (op === undefined) return undefined;
  const view = playgroundView(info.playground, context.reader, context.authMode !== "public");
  const title = page.title;
  const [css, script] = await Promise.all([assets.get("pages.css"), assets.get("playground-app.js")]);
  if (css === undefined || script === undefined) throw new Error("the playground app's assets are missing");
  const data = view.kind === "form" ? playgroundDataHtml({ ...playgroundData(op, pagePath, info.playground), transport: "proxy", tool }) : "";
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(title)}</title><style>${inlineText(css, "style")}</style></head>`,
    `<body class="mcp-app"><article class="operation"><h1>${esc(title)}</h1>${endpointHtml(op, info.playground)}`,
    playgroundHtml({ op, view, settings: api.settings }),
    `</article>${data}<script type="module">${inlineText(script, "script")}</script></body></html>`,
  ].join("\n");
}

/** The operation a generated page (one behind a file at its path too) or a front-matter page
 *  (one behind another at its path too, `SiteApi.hidden`) documents. */
function operationAt(runtime: DocsRuntime, page: Page, pagePath: string): ApiOperation | undefined {
  const api = runtime.site.api;
  if (api === undefined) return undefined;
  const plan = api.plan;
  if (!page.generated) return runtime.site.pages.get(pagePath) === page ? plan.frontMatter.get(pagePath)?.operation : api.hidden?.operations.get(page.file.path)?.operation;
  const item = [...plan.pages, ...plan.behind].find((p) => p.pagePath === pagePath)?.item;
  return item?.kind === "operation" ? item.operation : undefined;
}

/** Text put inside `<style>` or `<script>`: nothing in it may close the element early. */
function inlineText(text: string, tag: "style" | "script"): string {
  return text.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1");
}
