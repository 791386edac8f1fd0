import { LIMITS } from "../../limits.js";
import { finiteDataSized } from "../finite-data.js";
import type { AsyncChannel, AsyncMessage, AsyncMessageUse, AsyncOperation, AsyncSpec } from "../asyncapi/model.js";
import { bindingsLine, channelServers, listEntries, listText, NAMES_SHARE, operationHeading } from "../asyncapi/channel-lines.js";
import { BudgetMemo } from "./budget-memo.js";
import { readPageMeta } from "../page-meta.js";
import type { ApiSettings } from "./api-settings.js";
import { exampleRequest, generatedExamples } from "./code-examples.js";
import { exampleValue } from "./example-value.js";
import type { ApiAuth, ApiContent, ApiOperation, ApiParameter, ApiSchemaComponent, ApiSpec } from "./model.js";
import { describePlayground, type PlaygroundSettings } from "./playground.js";
import { fieldOf, type SchemaField, schemaFields } from "./schema-fields.js";
import { type CutPart, pageSchemaBudget, SchemaBudget } from "./schema-budget.js";
import { appendAll } from "../../arrays.js";
import { anchorLink, fencedCode, headingText, inlineCode, shellWord } from "./inline-code.js";
import { SECURITY_NOT_SHOWN_VALUE, SERVERS_NOT_SHOWN_VALUE } from "./security-not-shown.js";

/** A parameter's anchor on its page (`{docs_url}/<page path>#<anchor>`). */
export interface ParameterAnchor {
  /** `query`, `path`, `header`, `cookie` or `body`. */
  readonly in: string;
  /** Dotted path for nested body fields (`user.email`). */
  readonly name: string;
  readonly anchor: string;
}

/** The sections an operation's parameters are shown in, in order, with their headings (text and HTML pages alike). */
export const PARAMETER_GROUPS: readonly (readonly [ApiParameter["in"], string])[] = [
  ["path", "Path parameters"],
  ["query", "Query parameters"],
  ["header", "Headers"],
  ["cookie", "Cookies"],
];

/**
 * Anchors of every parameter of an operation: its name for path, query, header and cookie
 * parameters and top-level body fields; nested body fields carry their parent path
 * (`user.address.city`). A body field named like a parameter is `body.<name>`. `nodes`: the
 * page's budget (`pageSchemaBudget`): the page works them out first, so a fresh budget of the
 * same size gives the same anchors.
 */
export function parameterAnchors(op: ApiOperation, nodes: SchemaBudget): ParameterAnchor[] {
  const out: ParameterAnchor[] = op.parameters.map((p) => ({ in: p.in, name: p.name, anchor: p.name }));
  const taken = new Set(op.parameters.map((p) => p.name));
  const body = op.requestBody?.content[0]?.schema;
  // A budget of the page's size of its own: the anchors are names, and walking them must not
  // spend what the page then writes (the body's descriptions were charged here and the page
  // came out empty). The same size always gives the same anchors.
  for (const f of schemaFields(body, "", new SchemaBudget(nodes.max)).fields) {
    const top = f.name.split(".")[0] as string;
    out.push({ in: "body", name: f.name, anchor: taken.has(top) ? `body.${f.name}` : f.name });
  }
  return out;
}

/** `{docs_url}/<endpoint path>#<anchor>`. */
export function parameterAnchorUrl(docsUrl: string, pagePath: string, anchor: string): string {
  return `${docsUrl.replace(/\/+$/, "")}${pagePath}#${anchor}`;
}

export interface RenderContext {
  readonly pagePath: string;
  readonly settings: ApiSettings;
  readonly playground: PlaygroundSettings;
  /** Front matter keys taken from `x-svc.metadata` (title, groups, public...). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** The schema nodes the page shows at most, its share of the spec's bound (`SchemaShares`):
   *  asked when the body is first rendered, once the load has counted every page of the spec. */
  readonly schemaNodes: () => number;
}

/** A generated page in two parts: front matter (key, JSON value) pairs and the Markdown body. */
export interface PageParts {
  readonly frontMatter: readonly (readonly [string, unknown])[];
  /** Renders the body (everything after the front matter); pages are rendered when first read. */
  readonly body: () => string;
  /** Where the body, once rendered, was cut (`cutNote`); undefined when it is whole or not
   *  rendered yet. */
  readonly cut: () => PageCut | undefined;
}

/**
 * The note a page cut at its schema budget (`SchemaBudget`) carries under its endpoint line: its
 * schemas reach each other in more ways than a page can show, so field lists end early (their
 * last line says so), labels read `…` and example objects come out empty. An agent reading the
 * page learns that it is not whole, and where the whole is.
 */
export function cutNote(cut: PageCut): string {
  const size = cut.max.toLocaleString("en-US");
  if (cut.parts.includes("schemas")) {
    return `> **Cut:** this page shows ${size} schema nodes at most, and its schemas reach each other in more ways than that: some fields are not listed, some types read \`…\` and some example objects are empty. The spec file (see Source) holds them whole.`;
  }
  // Only text was refused: say which, not fields that are all there.
  const { what, effect } = cutText(cut.parts);
  return `> **Cut:** this page shows ${size} schema nodes' worth of text at most, and ${what} are longer than that: ${effect}. The spec file (see Source) holds them whole.`;
}

/**
 * Where a page's schema budget (`SchemaBudget`) cut it: the budget and what it refused, for the
 * page's note (`cutNote`, the preview's HTML note) and `check`'s warning, which all say the same.
 */
export interface PageCut {
  readonly max: number;
  readonly parts: readonly CutPart[];
}

/** The text parts a cut left out (`parts` without schemas) in words: "its code samples", and
 *  what the reader sees of them, "some code samples are left out". */
export function cutText(parts: readonly CutPart[]): { readonly what: string; readonly effect: string } {
  const words = parts.filter((p): p is Exclude<CutPart, "schemas"> => p !== "schemas").map((p) => CUT_WORDS[p]);
  return { what: listed(words.map((w) => w.what)), effect: listed(words.map((w) => w.effect)) };
}

/** How the note names each kind of text a page left out, and what the reader sees of it. */
const CUT_WORDS: Readonly<Record<Exclude<CutPart, "schemas">, { readonly what: string; readonly effect: string }>> = {
  data: { what: "its example values", effect: "some examples and defaults are shortened or left out" },
  samples: { what: "its code samples", effect: "some code samples are left out" },
  descriptions: { what: "its descriptions", effect: "some descriptions are left out" },
  lists: { what: "its lists (servers, operations, messages, parameters, bindings)", effect: "some entries are left out, each list saying how many" },
};

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1) as string}`;
}

/** The page's text: front matter as YAML (each value written as JSON, which YAML reads back as is), then the body. */
export function pageText(frontMatter: PageParts["frontMatter"], body: string): string {
  return `${frontMatterBlock(frontMatter)}${body}`;
}

/** `---`, one `key: <JSON>` line per entry, `---`, each line ended by a newline. */
export function frontMatterBlock(frontMatter: PageParts["frontMatter"]): string {
  return `---\n${frontMatter.map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`).join("")}---\n`;
}

/** The generated MDX of an operation page: front matter, reference, examples. */
export function renderOperationPage(spec: ApiSpec, op: ApiOperation, ctx: RenderContext): string {
  const parts = operationPageParts(spec, op, ctx);
  return pageText(parts.frontMatter, parts.body());
}

/** `x-svc.metadata` keys the generated page's front matter has of its own making: `title` and
 *  `description` (the metadata's, else the operation's), `openapi` (never overridden, as the
 *  platform says) and `playground` (`ctx.playground`, which reads the metadata's). */
const OWN_KEYS: ReadonlySet<string> = new Set(["title", "description", "openapi", "playground"]);

/** Keys a front matter reader could take for an object's own machinery: never written. */
const OBJECT_KEYS: ReadonlySet<string> = new Set(["constructor", "prototype", "__proto__"]);

/** Whether a metadata key is a front matter field to add: not one of `OWN_KEYS`, and a plain key
 *  (`sidebarTitle`, `og:title`): one with a space, a line break or a YAML sign would write
 *  another field, or none, into the page's front matter. */
function isMetadataField(key: string, value: unknown): boolean {
  return value !== undefined && !OWN_KEYS.has(key) && !OBJECT_KEYS.has(key) && /^[A-Za-z][\w.:-]*$/.test(key);
}

/**
 * The front matter fields `x-svc.metadata` adds (`isMetadataField`), each value finite, all of them
 * within `maxDataChars` together: a hundred fields each a `$ref` to one 100 KB string made a
 * 103 KB spec's page 10 MB (adversary round 3). `skip`: a key the page makes itself.
 */
function metadataFields(metadata: Readonly<Record<string, unknown>> | undefined, skip?: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  let left = LIMITS.api.maxDataChars;
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (key === skip || !isMetadataField(key, value)) continue;
    const written = finiteDataSized(value, Math.max(0, left));
    left -= written.chars;
    out.push([key, written.value]);
  }
  return out;
}

/**
 * An operation page's front matter, and a function that renders its body. `x-svc.metadata` (or
 * `x-mint.metadata`) overrides it as the platform documents: "any field that's valid in MDX
 * frontmatter except openapi" (its description, sidebar title, tag, icon, keywords, access keys:
 * before, only its title and access keys were taken, and a Korean site's per-operation
 * descriptions never reached the pages).
 */
export function operationPageParts(spec: ApiSpec, op: ApiOperation, ctx: RenderContext): PageParts {
  let nodes: SchemaBudget | undefined;
  const budget = (): SchemaBudget => (nodes ??= new SchemaBudget(ctx.schemaNodes()));
  const title = metaString(ctx.metadata, "title") ?? op.summary ?? `${op.method} ${op.path}`;
  const description = metaString(ctx.metadata, "description") ?? (op.description !== undefined ? firstSentence(op.description) : undefined);
  const fm: [string, unknown][] = [
    ["title", title],
    ...(description !== undefined ? ([["description", description]] as [string, unknown][]) : []),
    ["openapi", `${spec.source} ${op.method} ${op.path}`],
    ["playground", ctx.playground.display],
  ];
  appendAll(fm, metadataFields(ctx.metadata));
  return { frontMatter: fm, body: () => renderOperationBody(spec, op, ctx, title, budget()), cut: () => cutAt(budget()) };
}

/**
 * The reference of the operation an MDX page documents through front matter `openapi`, to follow
 * the author's prose as the hosted platform shows it: a rule, then what a generated page holds
 * below its title (endpoint, parameters, request body, responses, examples, the `jq` line).
 */
export function operationReference(spec: ApiSpec, op: ApiOperation, ctx: RenderContext): RenderedReference {
  const nodes = new SchemaBudget(ctx.schemaNodes());
  const text = `\n---\n${renderOperationBody(spec, op, ctx, undefined, nodes)}`;
  return { text, cut: cutAt(nodes) };
}

/** A reference appended to an author's page, and the schema budget it was cut at (undefined: whole). */
export interface RenderedReference {
  readonly text: string;
  readonly cut: PageCut | undefined;
}

export function cutAt(nodes: SchemaBudget): PageCut | undefined {
  return nodes.cut ? { max: nodes.max, parts: nodes.cutParts } : undefined;
}

/**
 * The reference of the data model an MDX page documents through front matter `openapi-schema`,
 * to follow the author's prose as the hosted platform shows it: a rule, the schema's name, type
 * and description, its fields as a request or response body lists them (nested, with type,
 * required, description, enum and limits), an example built from it, and the `jq` line.
 */
export function schemaReference(spec: ApiSpec, component: ApiSchemaComponent): RenderedReference {
  const nodes = pageSchemaBudget(1);
  const out: string[] = ["", "---", "", `## ${headingText(component.name)}`, ""];
  const top = fieldOf(component.schema, nodes);
  if (top !== undefined) out.push(`${inlineCode(top.type)}${top.notes.length > 0 ? ` (${top.notes.join("; ")})` : ""}`, "");
  if (top?.description !== undefined) out.push(top.description, "");
  const content: ApiContent = { mediaType: "application/json", schema: component.schema, examples: [] };
  const { fields } = schemaFields(component.schema, "", nodes);
  if (fields.length > 0) appendAll(out, fieldLines(content, () => undefined, nodes)).push("");
  const example = exampleValue(component.schema, { prefill: true, requiredOnly: false }, nodes);
  if (example !== undefined) out.push("### Example", "", "```json", clip(pageJson(nodes, example)), "```", "");
  out.push("## Source", "", specPointerLine(spec.source, `/components/schemas/${component.name.replace(/~/g, "~0").replace(/\//g, "~1")}`), "");
  const cut = cutAt(nodes);
  if (cut !== undefined) out.splice(5, 0, cutNote(cut), "");
  return { text: out.join("\n"), cut: cutAt(nodes) };
}

function renderOperationBody(spec: ApiSpec, op: ApiOperation, ctx: RenderContext, title: string | undefined, nodes: SchemaBudget): string {
  const out: string[] = title !== undefined ? ["", `# ${headingText(title)}`, ""] : [""];
  // `x-svc.content` (`x-mint.content`): "before the generated API documentation", as the platform
  // places it (after it, it was read as part of the last response example's section).
  if (op.extension?.content !== undefined) out.push(op.extension.content.trim(), "");

  const base = op.servers[0];
  const shownPath = op.kind === "webhook" ? `WEBHOOK ${op.path} (${op.webhookMethod ?? "POST"} to your endpoint)` : `${op.method} ${ctx.playground.fullUrl && base !== undefined ? `${base}${op.path}` : op.path}`;
  out.push(inlineCode(shownPath), "");
  // Where the cut note goes once the page is rendered and its budget known.
  const noteAt = out.length;
  if (op.deprecated) out.push("> **Deprecated.**", "");
  if (op.description !== undefined) out.push(op.description.trim(), "");
  if (op.kind === "operation") {
    // Each server an entry of the page's budget: a spec's servers are listed on each of its pages.
    const servers = listEntries(op.servers, inlineCode, nodes);
    if (op.serversNotShown === true) out.push(`**Base URL:** ${SERVERS_NOT_SHOWN_VALUE}`);
    else if (op.servers.length === 1) out.push(`**Base URL:** ${listText(servers)}`);
    else if (op.servers.length > 1) out.push(`**Base URLs:** ${listText(servers)}`);
  }
  const auth = describeAuth(op);
  if (auth !== undefined) out.push(`**Authentication:** ${auth}`);
  out.push(`**Playground:** ${describePlayground(ctx.playground)}`, "");
  appendAll(out, authSection(op, nodes));

  const anchors = new Map(parameterAnchors(op, nodes).map((a) => [`${a.in}:${a.name}`, a.anchor]));
  for (const [where, heading] of PARAMETER_GROUPS) {
    const params = op.parameters.filter((p) => p.in === where);
    if (params.length === 0) continue;
    out.push(`## ${heading}`, "");
    for (const p of params) out.push(parameterLine(p, anchors.get(`${p.in}:${p.name}`) ?? p.name, nodes));
    out.push("");
  }

  if (op.requestBody !== undefined) {
    out.push("## Request body", "");
    for (const c of op.requestBody.content) {
      out.push(`${inlineCode(c.mediaType)}${op.requestBody.required ? " (required)" : ""}`, "");
      if (op.requestBody.description !== undefined && nodes.takeText(op.requestBody.description, "descriptions")) out.push(op.requestBody.description.trim(), "");
      appendAll(out, fieldLines(c, (f) => anchors.get(`body:${f.name}`), nodes)).push("");
    }
  }

  if (op.responses.length > 0) {
    out.push("## Responses", "");
    for (const r of op.responses) {
      out.push(`### ${headingText(r.status)}${r.description !== undefined && nodes.takeText(r.description, "descriptions") ? `: ${oneLine(r.description)}` : ""}`, "");
      for (const c of r.content) {
        out.push(inlineCode(c.mediaType), "");
        const lines = fieldLines(c, () => undefined, nodes);
        if (lines.length > 0) appendAll(out, lines).push("");
      }
    }
  }

  appendAll(out, examplesSection(op, ctx.settings, nodes));
  out.push("## Source", "", specPointerLine(spec.source, op.pointer), "");
  const cut = cutAt(nodes);
  if (cut !== undefined) out.splice(noteAt, 0, cutNote(cut), "");
  return out.join("\n");
}

function examplesSection(op: ApiOperation, settings: ApiSettings, nodes: SchemaBudget): string[] {
  const out: string[] = ["## Examples", ""];
  const request = exampleRequest(op, { prefill: settings.examples.prefill, requiredOnly: settings.examples.requiredOnly }, nodes);
  out.push("### Request", "");
  // Charged as any text the page writes: one long sample shared by a hundred entries is a hundred.
  for (const s of op.codeSamples) if (nodes.takeText(s.source, "samples")) appendAll(out, fencedCode(`${fenceOf(s.lang)} ${s.label ?? s.lang}`, s.source.trimEnd())).push("");
  for (const g of generatedExamples(request, settings.examples.languages, nodes)) appendAll(out, fencedCode(`${g.fence} ${g.label}`, g.code)).push("");
  const ok = op.responses.find((r) => /^2/.test(r.status) && r.content.length > 0) ?? op.responses.find((r) => r.content.length > 0);
  const content = ok?.content.find((c) => c.mediaType.includes("json")) ?? ok?.content[0];
  if (ok !== undefined && content !== undefined) {
    const value = content.examples[0]?.value ?? exampleValue(content.schema, { prefill: true, requiredOnly: false }, nodes);
    out.push("### Response", "");
    appendAll(out, fencedCode(`${content.mediaType.includes("json") ? "json" : "text"} ${ok.status}`, clip(typeof value === "string" ? value : pageJson(nodes, value)))).push("");
  }
  return out;
}

function fenceOf(lang: string): string {
  const l = lang.toLowerCase();
  return l === "curl" || l === "shell" ? "bash" : l.replace(/[^a-z0-9+#-]/g, "");
}

/** A data value as the page writes it in a code block: within the page's budget (`SchemaBudget.data`). */
function pageJson(nodes: SchemaBudget, value: unknown): string {
  return JSON.stringify(nodes.data(value), null, 2) ?? "null";
}

function clip(s: string): string {
  return s.length <= LIMITS.api.maxExampleChars ? s : `${s.slice(0, LIMITS.api.maxExampleChars)}\n... (truncated; the full example is in the spec file)`;
}

function parameterLine(p: ApiParameter, anchor: string, nodes: SchemaBudget): string {
  // The name and its anchor are text the page writes (a long name is charged as a description is).
  nodes.takeText(p.name);
  nodes.takeText(anchor);
  const field = fieldOf(p.schema ?? {}, nodes);
  const parts = [`- [${inlineCode(p.name)}](${anchorLink(anchor)}) ${inlineCode(field?.type ?? "any")}`];
  if (p.required) parts.push("required");
  if (p.deprecated) parts.push("deprecated");
  const notes = field?.notes ?? [];
  let line = parts.join(" ");
  // A parameter shared by every operation (`components.parameters`) is written on each page.
  if (p.description !== undefined && nodes.takeText(p.description, "descriptions")) line += `: ${oneLine(p.description)}`;
  if (notes.length > 0) line += ` (${notes.join("; ")})`;
  return line;
}

/** A channel parameter: its type and notes when its schema (2.x) or `enum`/`default` (3.x) says them. */
function channelParameterLine(p: AsyncChannel["parameters"][number], nodes: SchemaBudget): string {
  const field = p.schema !== undefined ? fieldOf(p.schema, nodes) : undefined;
  let line = `- [${inlineCode(p.name)}](${anchorLink(p.name)})${field !== undefined ? ` ${inlineCode(field.type)}` : ""}`;
  if (p.description !== undefined && nodes.takeText(p.description, "descriptions")) line += `: ${oneLine(p.description)}`;
  if (field !== undefined && field.notes.length > 0) line += ` (${field.notes.join("; ")})`;
  return line;
}

function fieldLines(c: ApiContent, anchorOf: (f: SchemaField) => string | undefined, nodes: SchemaBudget): string[] {
  const { fields, truncated } = schemaFields(c.schema, "", nodes);
  const lines = fields.map((f) => {
    const anchor = anchorOf(f);
    const name = anchor !== undefined ? `[${inlineCode(f.name)}](${anchorLink(anchor)})` : inlineCode(f.name);
    let line = `${"  ".repeat(f.depth)}- ${name} ${inlineCode(f.type)}`;
    if (f.required) line += " required";
    if (f.deprecated) line += " deprecated";
    if (f.description !== undefined) line += `: ${oneLine(f.description)}`;
    if (f.notes.length > 0) line += ` (${f.notes.join("; ")})`;
    return line;
  });
  if (lines.length === 0 && c.schema !== undefined) {
    const t = fieldOf(c.schema, nodes);
    if (t !== undefined) lines.push(`- ${inlineCode(t.type)}${t.description !== undefined ? `: ${oneLine(t.description)}` : ""}${t.notes.length > 0 ? ` (${t.notes.join("; ")})` : ""}`);
  }
  if (truncated) lines.push("- ... (more fields: see the schema in the spec file)");
  return lines;
}

function describeAuth(op: ApiOperation): string | undefined {
  if (op.securityNotShown === true) return SECURITY_NOT_SHOWN_VALUE;
  if (op.security.length === 0) return undefined;
  return op.security.map((alt) => (alt.length === 0 ? "none" : alt.map(authLabel).join(" and "))).join(", or ");
}

/**
 * The operation's security schemes by name, with their descriptions (which say where a token
 * comes from), when the authentication line alone leaves something out: a scheme's description,
 * or two schemes that read alike (Polar's personal and organization tokens, both bearer tokens).
 * Its own section (`## Authentication`), which search leaves out as it does `## Source`: every
 * endpoint page of an API repeats it, and a question about tokens is the guide's.
 */
function authSection(op: ApiOperation, nodes: SchemaBudget): string[] {
  const schemes = new Map<string, ApiAuth>();
  for (const alt of op.security) for (const a of alt) if (!schemes.has(a.name)) schemes.set(a.name, a);
  const described = (a: ApiAuth): string => (a.description !== undefined ? oneLine(a.description) : "");
  const labels = [...schemes.values()].map(authLabel);
  if (![...schemes.values()].some((a) => described(a) !== "") && new Set(labels).size === labels.length) return [];
  // Each description charged as the page's other text is (a 100 KB one on 100 schemes).
  const lines = [...schemes.values()].map((a) => `- ${inlineCode(a.name)}: ${authLabel(a)}${described(a) !== "" && nodes.takeText(described(a), "descriptions") ? `. ${described(a)}` : ""}`);
  return ["## Authentication", "", ...lines, ""];
}

function authLabel(a: ApiAuth): string {
  if (a.type === "http" && a.scheme === "bearer") return `Bearer token (\`Authorization: Bearer <token>\`)`;
  if (a.type === "http" && a.scheme === "basic") return `HTTP Basic (\`Authorization: Basic <encoded-value>\`)`;
  if (a.type === "apiKey") return `API key in ${oneLine(a.in ?? "header")} ${inlineCode(a.paramName ?? a.name)}`;
  if (a.type === "oauth2" || a.type === "openIdConnect") return `OAuth 2 (${oneLine(a.name)}; \`Authorization: Bearer <token>\`)`;
  return `${oneLine(a.name)} (${oneLine(a.type)})`;
}

function specPointerLine(source: string, pointer: string): string {
  const keys = pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const jq = keys.map((k) => `[${JSON.stringify(k)}]`).join("");
  if (/^https?:/i.test(source)) return `Generated from ${source} (${inlineCode(jq)}).`;
  // jq reads JSON only: a YAML spec's line failed with "parse error" in the docs shell. yq takes
  // the same path and prints the part as the YAML it is written in. The keys are spec values: the
  // line is written so that it runs as the command it shows (`shellWord`) and stays one code span.
  const reader = /\.ya?ml$/i.test(source) ? "yq" : "jq";
  return `Generated from ${inlineCode(`/${source}`)}: ${inlineCode(`${reader} ${shellWord(`.${jq}`)} ${shellWord(`/${source}`)}`)}`;
}

/** A channel page's front matter, and a function that renders its body. */
export function channelPageParts(spec: AsyncSpec, ch: AsyncChannel, schemaNodes: () => number): PageParts {
  const metadata = ch.extension?.metadata;
  const title = metaString(metadata, "title") ?? ch.title ?? ch.id;
  const fm: [string, unknown][] = [["title", title]];
  const desc = metaString(metadata, "description") ?? (ch.summary ?? ch.description);
  if (desc !== undefined) fm.push(["description", metaString(metadata, "description") ?? firstSentence(desc)]);
  fm.push(["asyncapi", `${spec.source} ${ch.id}`]);
  // As an operation page's (`operationPageParts`): the metadata's other front matter fields.
  appendAll(fm, metadataFields(metadata, "asyncapi"));
  let nodes: SchemaBudget | undefined;
  const budget = (): SchemaBudget => (nodes ??= new SchemaBudget(schemaNodes()));
  return { frontMatter: fm, body: () => renderChannelBody(spec, ch, title, budget()), cut: () => cutAt(budget()) };
}

/**
 * The reference of the channel an MDX page documents through front matter `asyncapi`, to follow
 * the author's prose as `operationReference` follows it: a rule, then what the channel's
 * generated page holds below its title (address, servers, parameters, operations, messages, the
 * `jq` line).
 */
export function channelReference(spec: AsyncSpec, ch: AsyncChannel, schemaNodes: number): RenderedReference {
  const nodes = new SchemaBudget(schemaNodes);
  return { text: `\n---\n${renderChannelBody(spec, ch, undefined, nodes)}`, cut: cutAt(nodes) };
}

function renderChannelBody(spec: AsyncSpec, ch: AsyncChannel, title: string | undefined, nodes: SchemaBudget): string {
  const out: string[] = ["", ...(title !== undefined ? [`# ${headingText(title)}`, ""] : []), `Channel ${inlineCode(ch.address)}`, ""];
  const noteAt = out.length;
  // Text the channel shares with others (a YAML alias, a `$ref`'d parameter) is charged as an
  // operation page's shared text is: short texts are free, so real pages are unchanged.
  if (ch.summary !== undefined && ch.summary !== ch.description && nodes.takeText(ch.summary, "descriptions")) out.push(ch.summary, "");
  if (ch.description !== undefined && nodes.takeText(ch.description, "descriptions")) out.push(ch.description.trim(), "");
  const servers = channelServers(spec, ch, nodes);
  if (ch.serversNotShown === true) out.push(`**Servers:** ${SERVERS_NOT_SHOWN_VALUE}`, "");
  else if (servers.shown.length + servers.more > 0) out.push(`**Servers:** ${listText(servers)}`, "");
  const bindings = bindingsLine(ch.bindings, nodes);
  if (bindings !== undefined) out.push(bindings, "");
  if (ch.parameters.length > 0) {
    out.push("## Parameters", "");
    const params = listEntries(ch.parameters, (p) => channelParameterLine(p, nodes), nodes);
    appendAll(out, params.shown);
    if (params.more > 0) out.push(`- ${listText({ shown: [], more: params.more })}`);
    out.push("");
  }
  const operations = channelPageOperations(ch);
  if (operations.length > 0) {
    out.push("## Operations", "");
    const shown = listEntries(operations, (op) => operationText(op, nodes), nodes);
    for (const text of shown.shown) out.push(text, "");
    if (shown.more > 0) out.push(listText({ shown: [], more: shown.more }), "");
  }
  const messages = channelPageMessages(spec, ch);
  if (messages.length > 0) {
    out.push("## Messages", "");
    let written = 0;
    // The heading is the entry; the section a memo (`MESSAGE_SECTIONS`): a message shared by
    // many channels is rendered once for each budget it is reached with, not once a channel.
    for (const m of messages) {
      if (!nodes.takeEntry(m.title ?? m.name)) break;
      written++;
      out.push(`### ${headingText(m.title ?? m.name)}`, "");
      appendAll(out, MESSAGE_SECTIONS.get(m, nodes));
    }
    if (written < messages.length) out.push(listText({ shown: [], more: messages.length - written }), "");
  }
  out.push("## Source", "", specPointerLine(spec.source, ch.pointer), "");
  const cut = cutAt(nodes);
  if (cut !== undefined) out.splice(noteAt, 0, cutNote(cut), "");
  return out.join("\n");
}

/** An operation on its channel's page: heading, summary, description, bindings, the messages it names. */
function operationText(op: AsyncOperation, nodes: SchemaBudget): string {
  const out: string[] = [operationHeading(op), ""];
  if (op.summary !== undefined && nodes.takeText(op.summary, "descriptions")) out.push(oneLine(op.summary), "");
  if (op.description !== undefined && nodes.takeText(op.description, "descriptions")) out.push(op.description.trim(), "");
  const bindings = bindingsLine(op.bindings, nodes);
  if (bindings !== undefined) out.push(bindings, "");
  if (op.messages.length > 0) out.push(`Messages: ${listText(listEntries(op.messages, (m) => inlineCode(m.name), nodes, NAMES_SHARE))}`, "");
  // The entry is one text; the section's blank lines are its own.
  return out.slice(0, -1).join("\n");
}

/** A message's section under its heading, once for each budget it is reached with (`BudgetMemo`). */
const MESSAGE_SECTIONS = new BudgetMemo<AsyncMessage, readonly string[]>(messageSection);

function messageSection(m: AsyncMessage, nodes: SchemaBudget): string[] {
  const out: string[] = [];
  if (m.summary !== undefined && nodes.takeText(m.summary, "descriptions")) out.push(oneLine(m.summary), "");
  if (m.description !== undefined && nodes.takeText(m.description, "descriptions")) out.push(m.description.trim(), "");
  if (m.contentType !== undefined && nodes.takeText(m.contentType, "descriptions")) out.push(inlineCode(m.contentType), "");
  const bindings = bindingsLine(m.bindings, nodes);
  if (bindings !== undefined) out.push(bindings, "");
  // Headers (a trait's too: Streetlights' `commonHeaders`) were never shown before.
  const headers = m.headers !== undefined ? fieldLines({ mediaType: "", schema: m.headers, examples: [] }, () => undefined, nodes) : [];
  if (headers.length > 0) appendAll(out, ["Headers:", "", ...headers, ""]);
  const content: ApiContent = { mediaType: m.contentType ?? "application/json", ...(m.payload !== undefined ? { schema: m.payload } : {}), examples: m.examples };
  const lines = fieldLines(content, () => undefined, nodes);
  if (lines.length > 0) {
    out.push("Payload:", "");
    appendAll(out, lines).push("");
  }
  const example = m.examples[0]?.value ?? (m.payload !== undefined ? exampleValue(m.payload, { prefill: true, requiredOnly: false }, nodes) : undefined);
  if (example !== undefined) out.push("```json Example", clip(pageJson(nodes, example)), "```", "");
  return out;
}

/** Groups an `x-svc.metadata` restricts to; undefined when it restricts nothing (`public: true`, no `groups`). */
function restrictedTo(metadata: Readonly<Record<string, unknown>> | undefined): readonly string[] | undefined {
  if (metadata === undefined) return undefined;
  const meta = readPageMeta(metadata);
  return meta.public === true ? undefined : meta.groups;
}

/**
 * The operations a channel's page shows, as MDX and as HTML alike. The page is one file for
 * every reader of the channel, so an operation restricted on its own (`x-svc.metadata.groups` on
 * the operation) is shown only when every reader of the page may read it; otherwise it stays in
 * the spec file, which each reader reads without what they may not (`pruneSpec`).
 */
export function channelPageOperations(ch: AsyncChannel): AsyncOperation[] {
  return ch.operations.filter((op) => operationOnChannelPage(ch, op));
}

/**
 * The messages a channel's page shows: a message that operations left off their page carry (by
 * `messages` or by `reply`, on any channel: another channel's `$ref` to it is the same message),
 * and no operation every reader of this page may read, is theirs (its name, payload and example
 * are the restricted operation's text), so it is left off too. A message no operation carries is
 * the channel's.
 */
export function channelPageMessages(spec: AsyncSpec, ch: AsyncChannel): readonly AsyncMessage[] {
  const v2 = spec.version.startsWith("2");
  // Every operation of a 2.x channel on its page: every message is one of theirs, all shown.
  if (v2 && ch.operations.every((op) => operationOnChannelPage(ch, op))) return ch.messages;
  const { readable, unreadable } = v2 ? ownMessageReaders(ch) : messageReaders(spec, ch);
  // Shown by what is named on this channel: a message is one object on every channel carrying it.
  const named = readable.get(ch.scope);
  return ch.messages.filter((m) => named?.has(m) === true || !unreadable.has(m));
}

/**
 * AsyncAPI 2: a channel's messages are those its own operations carry, and only its own operations
 * show or hide them. The reader shares a message read once across channels (`V2Messages`), so
 * another channel's operations (`messageReaders`) would decide for this one: a message a restricted
 * operation here carries would show because an open one elsewhere carries it too. Each channel
 * reading its own copy decided so before.
 */
function ownMessageReaders(ch: AsyncChannel): MessageReaders {
  const readable = new Map<number, Set<AsyncMessage>>();
  const unreadable = new Set<AsyncMessage>();
  for (const op of ch.operations) {
    if (operationOnChannelPage(ch, op)) readableAdd(readable, op.uses, ch.scope);
    else for (const m of op.touches) unreadable.add(m);
  }
  return { readable, unreadable };
}

interface MessageReaders {
  /** By the channel (`AsyncChannel.scope`) readable operations name them on. */
  readonly readable: ReadonlyMap<number, ReadonlySet<AsyncMessage>>;
  readonly unreadable: ReadonlySet<AsyncMessage>;
}

/** `uses`' messages added to `readable` under the channel they are named on (`scope` for every one when given). */
function readableAdd(readable: Map<number, Set<AsyncMessage>>, uses: readonly AsyncMessageUse[], scope?: number): void {
  for (const use of uses) {
    const at = scope ?? use.scope;
    let set = readable.get(at);
    if (set === undefined) readable.set(at, (set = new Set()));
    for (const m of use.messages) set.add(m);
  }
}

/** `messageReaders` of each spec by the page's rule (`pageRuleKey`): pages of one rule share them. */
const MESSAGE_READERS = new WeakMap<AsyncSpec, Map<string, MessageReaders>>();

/**
 * The messages operations a page of `ch` shows name, and those operations it leaves out carry.
 * They depend on the page only through its rule, so they are worked out once a rule: each page
 * walked every operation of the spec, 2,000 channels 4,000,000 steps (adversary round 62b).
 */
function messageReaders(spec: AsyncSpec, ch: AsyncChannel): MessageReaders {
  let byRule = MESSAGE_READERS.get(spec);
  if (byRule === undefined) MESSAGE_READERS.set(spec, (byRule = new Map()));
  const key = JSON.stringify(restrictedTo(ch.extension?.metadata) ?? null);
  const known = byRule.get(key);
  if (known !== undefined) return known;
  // Whether every reader of this page may read an operation is what puts it on a page, asked of
  // this page: a channel restricted to an operation's groups shows its messages.
  const readable = new Map<number, Set<AsyncMessage>>();
  const unreadable = new Set<AsyncMessage>();
  for (const c of spec.channels) {
    // Shown by what a readable operation names by key (two keys may hold one object: the other
    // key's name is not its text) on the channel it names it on, hidden by any object a
    // restricted one carries, on any channel.
    for (const op of c.operations) {
      if (operationOnChannelPage(ch, op)) readableAdd(readable, op.uses);
      else for (const m of op.touches) unreadable.add(m);
    }
  }
  const out = { readable, unreadable };
  byRule.set(key, out);
  return out;
}

function operationOnChannelPage(ch: AsyncChannel, op: AsyncOperation): boolean {
  const own = restrictedTo(op.extension?.metadata);
  if (own === undefined) return true;
  const page = restrictedTo(ch.extension?.metadata);
  return page !== undefined && page.length > 0 && page.every((g) => own.includes(g));
}

function metaString(m: Readonly<Record<string, unknown>> | undefined, key: string): string | undefined {
  const v = m?.[key];
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

function oneLine(s: string): string {
  return s.trim().replace(/\s*\n\s*/g, " ");
}

function firstSentence(s: string): string {
  const line = oneLine(s);
  const m = /^(.{20,200}?[.!?])(\s|$)/.exec(line);
  return m?.[1] ?? (line.length > 200 ? `${line.slice(0, 197)}...` : line);
}
