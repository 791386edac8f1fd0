import type { AsyncChannel, AsyncSpec } from "../../config/asyncapi/model.js";
import { bindingsLine, channelServers, listEntries, listText, NAMES_SHARE } from "../../config/asyncapi/channel-lines.js";
import { appendAll } from "../../arrays.js";
import { inlineCode } from "../../config/openapi/inline-code.js";
import { SERVERS_NOT_SHOWN_VALUE } from "../../config/openapi/security-not-shown.js";
import type { ApiSettings } from "../../config/openapi/api-settings.js";
import { exampleRequest, generatedExamples } from "../../config/openapi/code-examples.js";
import { exampleValue } from "../../config/openapi/example-value.js";
import type { ApiAuth, ApiContent, ApiOperation, ApiSpec } from "../../config/openapi/model.js";
import { describePlayground, type PlaygroundSettings, playgroundVisible, RELAY_PATH } from "../../config/openapi/playground.js";
import { PARAMETER_GROUPS, type PageCut, channelPageMessages, channelPageOperations, cutAt, cutText, parameterAnchors } from "../../config/openapi/render-page.js";
import { fieldOf, type SchemaField, schemaFields } from "../../config/openapi/schema-fields.js";
import { pageSchemaBudget, SchemaBudget } from "../../config/openapi/schema-budget.js";
import { fieldAnchor } from "../../engine/render/components/fields.js";
import type { Reader } from "../../vfs/access.js";
import { escapeHtml as esc } from "../auth/login-page.js";

/** What the playground script reads from the page (`<script type="application/json" id="svc-operation">`). */
export interface PlaygroundData {
  readonly page: string;
  readonly method: string;
  readonly path: string;
  /** `proxy`: through `POST /_svc/api/request`; `direct`: the browser calls the API. */
  readonly transport: "proxy" | "direct";
  readonly relay: string;
  readonly bodyType?: string;
  /** In an MCP App: the tool its Send calls (through the host), in place of `relay`. */
  readonly tool?: string;
}

/** How the playground appears to this reader: the form, a sign-in invitation, or a notice. */
export type PlaygroundView = { readonly kind: "form" } | { readonly kind: "sign-in"; readonly href: string } | { readonly kind: "notice"; readonly text: string };

export interface OperationHtmlInput {
  readonly spec: ApiSpec;
  readonly op: ApiOperation;
  readonly pagePath: string;
  readonly title: string;
  readonly settings: ApiSettings;
  readonly playground: PlaygroundSettings;
  readonly view: PlaygroundView;
  /** A description as HTML (`renderMarkdown`'s, done in a render worker: see `markdownInWorker`). */
  readonly markdown: MarkdownHtml;
  /** The page's schema budget (`ApiPageInfo.schemaNodes`), which its text was cut at. */
  readonly schemaNodes: number;
}

/** Markdown text of a spec (a description) as sanitised HTML: links, code, lists and tables, never a script or raw HTML. */
export type MarkdownHtml = (text: string) => string;

/**
 * An operation as HTML: endpoint, description, parameters (each with its anchor as `id`),
 * request body, responses, code examples in `api.examples.languages`, and the playground as
 * this reader may use it. Descriptions are Markdown, rendered and sanitised (`renderMarkdown`:
 * no raw HTML, no script, remote images as links); every other text from the spec is escaped.
 */
export function operationHtml(input: OperationHtmlInput, headingLevel: 1 | 2 = 1): string {
  const { op, playground, markdown: md } = input;
  const prose = (text: string): string => md(text.trim());
  const out: string[] = [`<article class="operation">`, `<h${headingLevel}>${esc(input.title)}</h${headingLevel}>`];
  // `x-svc.content` before the generated reference, as the platform places it (and the MDX does).
  if (op.extension?.content !== undefined) out.push(prose(op.extension.content));
  out.push(endpointHtml(op, playground));
  // The same budget as the page's text (`operationPageParts`): the HTML is cut where the MDX is.
  const nodes = new SchemaBudget(input.schemaNodes);
  const noteAt = out.length;
  if (op.deprecated) out.push(`<p class="deprecated">Deprecated.</p>`);
  if (op.description !== undefined) out.push(`<div class="description">${prose(op.description)}</div>`);
  if (op.kind === "operation" && op.serversNotShown === true) out.push(`<p class="meta">Base URL: ${SERVERS_NOT_SHOWN_VALUE}</p>`);
  else if (op.kind === "operation" && op.servers.length > 0) out.push(`<p class="meta">Base URL${op.servers.length > 1 ? "s" : ""}: ${op.servers.map((s) => `<code>${esc(s)}</code>`).join(", ")}</p>`);
  out.push(`<p class="meta">Playground: ${esc(describePlayground(playground))}</p>`);
  if (op.kind === "operation") out.push(playgroundHtml(input, nodes));

  const anchors = new Map(parameterAnchors(op, nodes).map((a) => [`${a.in}:${a.name}`, a.anchor]));
  for (const [where, heading] of PARAMETER_GROUPS) {
    const params = op.parameters.filter((p) => p.in === where);
    if (params.length === 0) continue;
    out.push(`<h2>${heading}</h2>`, `<dl class="fields">`);
    for (const p of params) {
      const f = fieldOf(p.schema ?? {}, nodes);
      out.push(fieldHtml({ name: p.name, type: f?.type ?? "any", required: p.required, deprecated: p.deprecated, ...(p.description !== undefined ? { description: p.description } : {}), notes: f?.notes ?? [] }, where, anchors.get(`${p.in}:${p.name}`), "", md));
    }
    out.push(`</dl>`);
  }
  if (op.requestBody !== undefined) {
    out.push(`<h2>Request body</h2>`);
    if (op.requestBody.description !== undefined) out.push(prose(op.requestBody.description));
    for (const c of op.requestBody.content) {
      out.push(`<p class="media"><code>${esc(c.mediaType)}</code>${op.requestBody.required ? " required" : ""}</p>`, contentHtml(c, "body", (f) => anchors.get(`body:${f.name}`), md, nodes));
    }
  }
  if (op.responses.length > 0) {
    out.push(`<h2>Responses</h2>`);
    for (const r of op.responses) {
      out.push(`<h3 class="status">${esc(r.status)}${r.description !== undefined ? ` <span>${esc(oneLine(r.description))}</span>` : ""}</h3>`);
      // Anchors of the first answer's fields only (`#response-id`): several answers share names.
      const location = r === op.responses[0] ? "response" : `response-${r.status}`;
      for (const c of r.content) out.push(`<p class="media"><code>${esc(c.mediaType)}</code></p>`, contentHtml(c, location, () => undefined, md, nodes));
    }
  }
  out.push(examplesHtml(op, input.settings, nodes));
  out.push(`</article>`);
  const cut = cutAt(nodes);
  if (cut !== undefined) out.splice(noteAt, 0, cutNoteHtml(cut));
  return out.join("\n");
}

/** The data the playground script needs, as a JSON script block (`<` escaped: it cannot end the block). */
export function playgroundDataHtml(data: PlaygroundData): string {
  return `<script type="application/json" id="svc-operation">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
}

export function playgroundData(op: ApiOperation, pagePath: string, playground: PlaygroundSettings): PlaygroundData {
  const bodyType = op.requestBody?.content[0]?.mediaType;
  return { page: pagePath, method: op.method, path: op.path, transport: playground.transport, relay: RELAY_PATH, ...(bodyType !== undefined ? { bodyType } : {}) };
}

/**
 * How the playground appears to `reader`: the form where they may use it, else why not. A
 * sign-in invitation needs `signInHref` (the pages' sign-in); without it (an MCP App, whose
 * reader is the connection's) it is a notice.
 */
export function playgroundView(playground: PlaygroundSettings, reader: Reader, authConfigured: boolean, signInHref?: string): PlaygroundView {
  if (playgroundVisible(playground, reader, authConfigured)) return { kind: "form" };
  if (playground.display === "none") return { kind: "notice", text: "The playground is turned off for this page." };
  if (!reader.authenticated && authConfigured) return signInHref !== undefined ? { kind: "sign-in", href: signInHref } : { kind: "notice", text: "The playground of this page is for signed-in readers." };
  if (!reader.authenticated) return { kind: "notice", text: "The playground of this page is for signed-in readers, and this site has no sign-in." };
  return { kind: "notice", text: `The playground of this page is limited to the groups ${(playground.groups ?? []).join(", ")}.` };
}

/** The endpoint line of an operation: its method and path (with its first server where `playground.url` is `full`). */
export function endpointHtml(op: ApiOperation, playground: PlaygroundSettings): string {
  const base = op.servers[0];
  const shownPath = op.kind === "webhook" ? op.path : playground.fullUrl && base !== undefined ? `${base}${op.path}` : op.path;
  const method = op.kind === "webhook" ? `WEBHOOK ${op.webhookMethod ?? "POST"}` : op.method;
  return `<p class="endpoint"><span class="method m-${esc(op.method.toLowerCase())}">${esc(method)}</span> <code data-testid="endpoint">${esc(shownPath)}</code></p>`;
}

/**
 * The playground form: server, credentials of the first security alternative, path, query and
 * header parameters and the body, prefilled per `api.examples` (`prefill`: the spec's examples;
 * `defaults: required`: required parameters only), then Send and the answer area. `nodes`: the
 * page's schema budget; the playground app (a page of its own) gets one of a page's size.
 */
export function playgroundHtml(input: Pick<OperationHtmlInput, "op" | "view" | "settings">, nodes: SchemaBudget = pageSchemaBudget(1)): string {
  const { op, view } = input;
  if (view.kind === "sign-in") return `<section class="playground" id="try-it"><h2>Try it</h2><p>The playground of this page is for signed-in readers. <a href="${esc(view.href)}" data-testid="playground-sign-in">Sign in</a> to use it.</p></section>`;
  if (view.kind === "notice") return `<section class="playground" id="try-it"><h2>Try it</h2><p class="notice">${esc(view.text)}</p></section>`;
  const { prefill, requiredOnly } = input.settings.examples;
  const servers = op.servers.filter((s) => /^https?:\/\//i.test(s));
  const out: string[] = [`<section class="playground" id="try-it"><h2>Try it</h2>`, `<form id="playground-form" novalidate>`];
  out.push(`<label class="row"><span>Server</span><select name="server" data-testid="playground-server">${servers.map((s) => `<option value="${esc(s)}">${esc(s)}</option>`).join("")}</select></label>`);
  const auth = op.security.find((alt) => alt.length > 0) ?? [];
  for (const a of auth) out.push(credentialInput(a));
  for (const p of op.parameters) {
    if (p.in === "cookie") continue; // a page's script cannot set cookies for another origin
    const filled = prefill && !(requiredOnly && !p.required) ? nodes.data(p.example !== undefined ? p.example : exampleValue(p.schema, { prefill: true, requiredOnly }, nodes)) : undefined;
    // A type placeholder (`<string>`) is no value to send: the field stays empty, its type shown as the hint.
    const value = filled === undefined || isPlaceholder(filled) ? "" : typeof filled === "string" ? filled : JSON.stringify(filled);
    const type = fieldOf(p.schema ?? {}, nodes)?.type ?? "string";
    out.push(
      `<label class="row"><span>${esc(p.name)} <small>${esc(p.in)}${p.required ? ", required" : ""}</small></span><input name="${esc(p.name)}" data-in="${esc(p.in)}" value="${esc(value)}" placeholder="${esc(type)}"${p.required ? " required" : ""} data-testid="param-${esc(p.name)}"></label>`,
    );
  }
  const content = op.requestBody?.content[0];
  if (content !== undefined) {
    const bodyValue = prefill && !(requiredOnly && op.requestBody?.required !== true) ? (content.examples[0]?.value ?? exampleValue(content.schema, { prefill: true, requiredOnly }, nodes)) : undefined;
    const skeleton = exampleValue(content.schema, { prefill: false, requiredOnly }, nodes);
    const text = (v: unknown): string => {
      const bounded = nodes.data(v);
      return typeof bounded === "string" ? bounded : (JSON.stringify(bounded, null, 2) ?? "null");
    };
    out.push(
      `<label class="row body"><span>Body <small>${esc(content.mediaType)}</small></span><textarea name="body" rows="8" data-testid="playground-body" placeholder="${esc(text(skeleton))}">${bodyValue === undefined ? "" : esc(text(bodyValue))}</textarea></label>`,
    );
  }
  out.push(`<button type="submit" class="primary" data-testid="playground-send">Send</button>`, `</form>`);
  out.push(`<div class="response" data-testid="playground-response" aria-live="polite"></div></section>`);
  return out.join("\n");
}

/** An input for one security scheme: the script turns it into the header or query parameter it names. */
function credentialInput(a: ApiAuth): string {
  const [kind, label, where, name] =
    a.type === "http" && a.scheme === "basic"
      ? ["basic", "user:password", "header", "Authorization"]
      : a.type === "apiKey"
        ? ["apiKey", "API key", a.in ?? "header", a.paramName ?? a.name]
        : ["bearer", "Bearer token", "header", "Authorization"];
  return `<label class="row"><span>${esc(a.name)} <small>${esc(label)}</small></span><input name="auth:${esc(a.name)}" data-auth="${kind}" data-where="${esc(where)}" data-key="${esc(name)}" type="password" autocomplete="off" data-testid="auth-${esc(a.name)}"></label>`;
}

function contentHtml(c: ApiContent, location: string, anchorOf: (f: SchemaField) => string | undefined, md: MarkdownHtml, nodes: SchemaBudget): string {
  const { fields, truncated } = schemaFields(c.schema, "", nodes);
  if (fields.length === 0) {
    const t = c.schema !== undefined ? fieldOf(c.schema, nodes) : undefined;
    if (t === undefined) return "";
    const notes = t.notes.length > 0 ? ` <span class="notes">(${esc(t.notes.join("; "))})</span>` : "";
    return `<p class="type"><code>${esc(t.type)}</code>${t.description !== undefined ? ` ${esc(oneLine(t.description))}` : ""}${notes}</p>`;
  }
  const more = truncated ? `<div class="field"><dd>More fields: see the schema in the spec file.</dd></div>` : "";
  return `<dl class="fields">${fieldTree(fields, 0, fields.length, location, anchorOf, md)}${more}</dl>`;
}

/**
 * Fields `[from, to)` of a pre-order list at one depth, each with its nested fields folded
 * under it (`<details>`): a deep response schema is a short list to open, not a page of rows.
 */
function fieldTree(fields: readonly SchemaField[], from: number, to: number, location: string, anchorOf: (f: SchemaField) => string | undefined, md: MarkdownHtml): string {
  const out: string[] = [];
  let i = from;
  while (i < to) {
    const f = fields[i] as SchemaField;
    let end = i + 1;
    while (end < to && (fields[end] as SchemaField).depth > f.depth) end++;
    const count = fields.slice(i + 1, end).filter((c) => c.depth === f.depth + 1).length;
    const children = end > i + 1 ? `<details class="schema-children"><summary>${count === 1 ? "1 property" : `${count} properties`}</summary><dl class="fields">${fieldTree(fields, i + 1, end, location, anchorOf, md)}</dl></details>` : "";
    out.push(fieldHtml(f, location, anchorOf(f), children, md));
    i = end;
  }
  return out.join("\n");
}

/**
 * One field: its name (a link to itself), type, flags, description (Markdown, sanitised) and
 * notes, then its nested fields. It carries two anchors: the one the generated MDX links to (its
 * name or dotted path, as `id`), and the hosted platform's (`body-user-email`, an empty element
 * inside), so a link of either form lands on it.
 */
function fieldHtml(f: Pick<SchemaField, "name" | "type" | "required" | "deprecated" | "description" | "notes">, location: string, anchor: string | undefined, children: string, md: MarkdownHtml): string {
  const alias = fieldAnchor(location, f.name);
  const own = anchor ?? alias;
  const id = ` id="${esc(own)}"`;
  const aliasHtml = alias !== own ? `<span class="alias" id="${esc(alias)}"></span>` : "";
  const shown = `<a href="#${esc(own)}">${esc(f.name.split(".").at(-1) ?? f.name)}</a>`;
  const flags = `${f.required ? ` <span class="required">required</span>` : ""}${f.deprecated ? ` <span class="deprecated">deprecated</span>` : ""}`;
  const extra = f.notes.length > 0 ? `<dd class="notes">${esc(f.notes.join("; "))}</dd>` : "";
  const description = f.description !== undefined ? `<dd class="description">${md(f.description)}</dd>` : "";
  return `<div class="field"${id}>${aliasHtml}<dt><code>${shown}</code> <span class="type">${esc(f.type)}</span>${flags}</dt>${description}${extra}${children}</div>`;
}

/** The page's cut note (`cutNote`) as HTML. */
function cutNoteHtml(cut: PageCut): string {
  const size = cut.max.toLocaleString("en-US");
  if (cut.parts.includes("schemas")) {
    return `<p class="notice cut">Cut: this page shows ${size} schema nodes at most, and its schemas reach each other in more ways than that: some fields are not listed, some types read … and some example objects are empty. The spec file holds them whole.</p>`;
  }
  const { what, effect } = cutText(cut.parts);
  return `<p class="notice cut">Cut: this page shows ${size} schema nodes' worth of text at most, and ${what} are longer than that: ${effect}. The spec file holds them whole.</p>`;
}

function examplesHtml(op: ApiOperation, settings: ApiSettings, nodes: SchemaBudget): string {
  const request = exampleRequest(op, { prefill: settings.examples.prefill, requiredOnly: settings.examples.requiredOnly }, nodes);
  const out: string[] = [`<h2>Examples</h2>`];
  // Charged as any text the page writes: one long sample shared by a hundred entries is a hundred.
  for (const s of op.codeSamples) if (nodes.takeText(s.source, "samples")) out.push(codeBlock(s.label ?? s.lang, s.source.trimEnd()));
  for (const g of generatedExamples(request, settings.examples.languages, nodes)) out.push(codeBlock(g.label, g.code, g.lang));
  const ok = op.responses.find((r) => /^2/.test(r.status) && r.content.length > 0) ?? op.responses.find((r) => r.content.length > 0);
  const content = ok?.content.find((c) => c.mediaType.includes("json")) ?? ok?.content[0];
  if (ok !== undefined && content !== undefined) {
    const value = nodes.data(content.examples[0]?.value ?? exampleValue(content.schema, { prefill: true, requiredOnly: false }, nodes));
    out.push(codeBlock(`Response ${ok.status}`, typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "null")));
  }
  return out.join("\n");
}

function codeBlock(label: string, code: string, lang?: string): string {
  return `<figure class="code"${lang !== undefined ? ` data-lang="${esc(lang)}"` : ""}><figcaption>${esc(label)}</figcaption><pre><code>${esc(code)}</code></pre></figure>`;
}

/** An AsyncAPI channel as HTML: address, servers, parameters (anchored), operations and messages. */
export function channelHtml(spec: AsyncSpec, ch: AsyncChannel, title: string, md: MarkdownHtml, schemaNodes: number): string {
  const prose = (text: string): string => md(text.trim());
  const nodes = new SchemaBudget(schemaNodes);
  const out: string[] = [`<article class="operation">`, `<h1>${esc(title)}</h1>`, `<p class="endpoint"><span class="method m-channel">CHANNEL</span> <code data-testid="endpoint">${esc(ch.address)}</code></p>`];
  // Charged as the MDX page charges them (`renderChannelBody`): texts, and each entry of a list.
  if (ch.summary !== undefined && ch.summary !== ch.description && nodes.takeText(ch.summary, "descriptions")) out.push(prose(ch.summary));
  if (ch.description !== undefined && nodes.takeText(ch.description, "descriptions")) out.push(prose(ch.description));
  const servers = channelServers(spec, ch, nodes);
  if (ch.serversNotShown === true) out.push(`<p class="meta">Servers: ${SERVERS_NOT_SHOWN_VALUE}</p>`);
  else if (servers.shown.length + servers.more > 0) out.push(`<p class="meta">Servers: ${codeSpans(listText(servers))}</p>`);
  const bindings = bindingsLine(ch.bindings, nodes);
  if (bindings !== undefined) out.push(`<p class="meta">${codeSpans(bindings)}</p>`);
  if (ch.parameters.length > 0) {
    out.push(`<h2>Parameters</h2>`, `<dl class="fields">`);
    let written = 0;
    for (const p of ch.parameters) {
      // Charged in the MDX page's order (`channelParameterLine`, then the entry), so that both
      // pages cut the list at the same entry and count the same rest.
      const type = p.schema !== undefined ? fieldOf(p.schema, nodes)?.type : "any";
      const description = p.description !== undefined && nodes.takeText(p.description, "descriptions") ? p.description : undefined;
      if (!nodes.takeEntry(p.name)) break;
      written++;
      out.push(fieldHtml({ name: p.name, type: type ?? "string", required: true, deprecated: false, ...(description !== undefined ? { description } : {}), notes: [] }, "path", p.name, "", md));
    }
    out.push(`</dl>`);
    appendAll(out, moreHtml(ch.parameters.length - written));
  }
  const operations = channelPageOperations(ch);
  if (operations.length > 0) {
    out.push(`<h2>Operations</h2>`);
    let written = 0;
    for (const op of operations) {
      if (!nodes.takeEntry(op.id)) break;
      written++;
      out.push(`<h3><span class="method m-${esc(op.action.toLowerCase())}">${esc(op.action.toUpperCase())}</span>${op.unnamed === true ? "" : ` ${esc(op.id)}`}</h3>`);
      if (op.summary !== undefined && nodes.takeText(op.summary, "descriptions")) out.push(prose(op.summary));
      if (op.description !== undefined && nodes.takeText(op.description, "descriptions")) out.push(prose(op.description));
      const opBindings = bindingsLine(op.bindings, nodes);
      if (opBindings !== undefined) out.push(`<p class="meta">${codeSpans(opBindings)}</p>`);
      if (op.messages.length > 0) out.push(`<p class="meta">Messages: ${codeSpans(listText(listEntries(op.messages, (m) => inlineCode(m.name), nodes, NAMES_SHARE)))}</p>`);
    }
    appendAll(out, moreHtml(operations.length - written));
  }
  const messages = channelPageMessages(spec, ch);
  if (messages.length > 0) {
    out.push(`<h2>Messages</h2>`);
    let written = 0;
    for (const m of messages) {
      if (!nodes.takeEntry(m.title ?? m.name)) break;
      written++;
      out.push(`<h3>${esc(m.title ?? m.name)}</h3>`);
      if (m.summary !== undefined && nodes.takeText(m.summary, "descriptions")) out.push(prose(m.summary));
      if (m.description !== undefined && nodes.takeText(m.description, "descriptions")) out.push(prose(m.description));
      const messageBindings = bindingsLine(m.bindings, nodes);
      if (messageBindings !== undefined) out.push(`<p class="meta">${codeSpans(messageBindings)}</p>`);
      if (m.headers !== undefined) out.push(`<h4>Headers</h4>`, contentHtml({ mediaType: "", schema: m.headers, examples: [] }, "header", () => undefined, md, nodes));
      const content: ApiContent = { mediaType: m.contentType ?? "application/json", ...(m.payload !== undefined ? { schema: m.payload } : {}), examples: m.examples };
      out.push(`<p class="media"><code>${esc(content.mediaType)}</code></p>`, contentHtml(content, "payload", () => undefined, md, nodes));
      const example = m.examples[0]?.value ?? (m.payload !== undefined ? exampleValue(m.payload, { prefill: true, requiredOnly: false }, nodes) : undefined);
      if (example !== undefined) out.push(codeBlock("Example", JSON.stringify(nodes.data(example), null, 2) ?? "null"));
    }
    appendAll(out, moreHtml(messages.length - written));
  }
  out.push(`</article>`);
  const cut = cutAt(nodes);
  if (cut !== undefined) out.splice(3, 0, cutNoteHtml(cut));
  return out.join("\n");
}

/**
 * How many entries of a list the page's budget left out, as the MDX page says it (`listText`):
 * before, the HTML page ended such a list as if it were whole (security row 212).
 */
function moreHtml(more: number): string[] {
  return more > 0 ? [`<p class="meta more">${esc(listText({ shown: [], more }))}</p>`] : [];
}

/**
 * A line the MDX page writes with code spans (`inlineCode`), as HTML: each span a `<code>`, the
 * rest escaped. A span opens at a run of backticks and closes at the next run as long (a value
 * holding a backtick is delimited by a longer run), as CommonMark reads it; a run never closed is text.
 */
function codeSpans(line: string): string {
  let out = "";
  let at = 0;
  const runs = [...line.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i] as RegExpMatchArray;
    const start = open.index ?? 0;
    if (start < at) continue;
    const closeIndex = runs.findIndex((r, j) => j > i && r[0].length === open[0].length);
    if (closeIndex < 0) continue;
    const close = runs[closeIndex] as RegExpMatchArray;
    let code = line.slice(start + open[0].length, close.index);
    if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
    out += `${esc(line.slice(at, start))}<code>${esc(code)}</code>`;
    at = (close.index ?? 0) + close[0].length;
    i = closeIndex;
  }
  return out + esc(line.slice(at));
}

function isPlaceholder(v: unknown): boolean {
  return typeof v === "string" && /^<[\w-]+>$/.test(v);
}

function oneLine(s: string): string {
  return s.trim().replace(/\s*\n\s*/g, " ");
}
