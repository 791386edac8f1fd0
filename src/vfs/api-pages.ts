import type { Diagnostic } from "../config/diagnostic.js";
import type { IgnoreRules } from "../config/ignore-rule-set.js";
import { frontMatterLead } from "../config/frontmatter-lead.js";
import { type ApiSettings, readApiSettings } from "../config/openapi/api-settings.js";
import { type FetchLike, loadApiSpec } from "../config/openapi/load-api-spec.js";
import type { SpecLoadResult } from "../config/openapi/spec-load-result.js";
import { collectNavSpecReferences, navSpecReferenceStages } from "../config/openapi/nav-references.js";
import { API_CODES } from "../config/openapi/api-codes.js";
import { documentingGroups, operationKey } from "../config/openapi/documenting-groups.js";
import {
  type FrontMatterOperation,
  type FrontMatterReference,
  type FrontMatterSchemaReference,
  type ApiPagePlan,
  type PlannedApiPage,
  type PlanInput,
  planApiPages,
  specSourcesToLoad,
} from "../config/openapi/plan-api-pages.js";
import { type PlaygroundSettings, resolvePlayground } from "../config/openapi/playground.js";
import type { AsyncChannel, AsyncSpec } from "../config/asyncapi/model.js";
import type { FrontMatterChannelReference } from "../config/asyncapi/front-matter-channels.js";
import { channelPageParts, channelReference, operationPageParts, operationReference, type PageParts, parameterAnchors, type ParameterAnchor, type RenderContext, schemaReference } from "../config/openapi/render-page.js";
import type { SpecCache } from "../config/openapi/spec-cache.js";
import { SchemaBudget } from "../config/openapi/schema-budget.js";
import { type RefReaders, sameRefDecisions, sameRefFiles } from "../config/openapi/ref-target.js";
import { type ConfigFiles, NO_CONFIG_FILES, readSpecFile } from "../config/openapi/spec-file.js";
import type { ApiSpec } from "../config/openapi/model.js";
import { parseDocument } from "../config/openapi/parse-document.js";
import { brokenSinceLastGood } from "../config/openapi/spec-last-good.js";
import { metadataParts } from "../config/openapi/restricted-parts.js";
import { type RestrictedPart, schemaReaders } from "../config/openapi/schema-components.js";
import { createOpenapiValidator, type OpenapiValidator } from "../config/openapi/validate-openapi.js";
import { readPageMeta, UNMATCHABLE_GROUP } from "../config/page-meta.js";
import type { PagePlacement } from "../config/site-config.js";
import { type Access, accessOfMeta, readersCover, restrictingGroups } from "./access.js";
import type { Page } from "./page.js";
import { indexPathOf } from "./page-routes.js";
import type { SiteFile } from "./site-file.js";
import type { ApiPageInfo, SiteApi, SpecOperation } from "./site-api.js";
import { appendAll } from "../arrays.js";
import { LIMITS } from "../limits.js";
import { nextTurn } from "../turns.js";
import { type Between, stagesBetween } from "../config/stages.js";
import { RenderKeys } from "./render-keys.js";
import { SchemaShares } from "./schema-shares.js";
import { generatedAccess, type MadePage, SpecPageMaker, type SpecTimes } from "./spec-pages.js";

/** Kept across reloads so an unchanged spec is not validated again, and schemas compile once. */
export interface ApiCache {
  readonly validator: OpenapiValidator;
  /** By source: where it was read from and its text (not its time and size: an edit that keeps the
   *  size within one timestamp tick would otherwise serve the old spec). */
  readonly specs: Map<string, { readonly stamp: string; readonly text?: string; readonly result: SpecLoadResult }>;
  /** The pages the last load made from specs, by page path (`SpecPageMaker`). */
  made: ReadonlyMap<string, MadePage>;
}

export function createApiCache(): ApiCache {
  return { validator: createOpenapiValidator(), specs: new Map(), made: new Map() };
}

export interface ApiPagesOptions {
  /** The repository's ignore rules: a spec, or a file a `$ref` names, that they exclude is not read. */
  readonly ignore: IgnoreRules;
  /** Awaited between the walks of the whole navigation (its spec references, the specs to load,
   *  the plan): a reload while serving gives the thread back there (`ReloadSlices.stage`). */
  readonly between?: Between;
  /** Fetch remote specs named in docs.json with this; unset means they are not fetched. */
  readonly fetch?: FetchLike;
  readonly cache?: ApiCache;
  /** Parsed specs kept across processes; unset: every spec is parsed. */
  readonly specCache?: SpecCache;
  /** Spec files the site has read already (to mount in its filesystem those that load as specs),
   *  by repository path. */
  readonly specFiles?: ReadonlyMap<string, SiteFile>;
  /** The files the site reads as its configuration, never read as a spec (`refusedAsSpec`);
   *  unset: none but docs.json. */
  readonly configFiles?: ConfigFiles;
  /** The file each page's front matter `openapi` names, where it was found (`frontMatterSpecFile`),
   *  by page path. */
  readonly frontMatterSpecs?: ReadonlyMap<string, string>;
  /** How API pages learn their spec file's time once the site's variants exist (`SpecTimes`). */
  readonly specTimes?: SpecTimes;
  /** Whether every reader of a local spec may read a file its `$ref`s name (`ref-target.ts`);
   *  unset: no file has readers of its own to compare. */
  readonly refReaders?: (source: string) => RefReaders;
  /** The pages a file before them at their path hides from some readers (`Site.shadowed`), one
   *  table by page path per depth (`x.md` behind `x.mdx` is at the first): a reader who gets one
   *  gets its reference with it, as on the site without the files before it. */
  readonly hiddenPages?: readonly ReadonlyMap<string, Page>[];
}

/** The groups a page restricts its readers to (`restrictingGroups`), by its repository file
 *  (`guides/x.mdx`), over every table of pages given. */
function restrictingGroupsOf(tables: readonly ReadonlyMap<string, Page>[]): (file: string) => readonly string[] | undefined {
  const byFile = new Map<string, Access>();
  for (const pages of tables) for (const page of pages.values()) byFile.set(page.file.path.slice(1), (page.authored ?? page).file.access);
  return (file) => restrictingGroups(byFile.get(file));
}

/**
 * An operation's metadata with the rule of the MDX pages documenting it (`documentingGroups`):
 * a reader must pass both, so the groups are those both name (none in common: no reader), and
 * `public: true` no longer opens it. Fail closed: narrower than "pass each" for a reader in two
 * groups, never wider.
 */
function withDocumentingRule(metadata: Record<string, unknown>, groups: readonly string[] | undefined): Record<string, unknown> {
  if (groups === undefined) return metadata;
  const meta = readPageMeta(metadata);
  const own = meta.groups !== undefined && meta.public !== true ? meta.groups : undefined;
  const common = own === undefined ? groups : groups.filter((g) => own.includes(g));
  const { public: _open, ...rest } = metadata;
  return { ...rest, groups: common.length > 0 ? common : [UNMATCHABLE_GROUP] };
}

export interface ApiPagesResult {
  readonly pages: readonly Page[];
  /** Generated pages whose path a file takes (`ApiPagePlan.behind`): the site places each behind
   *  that file, for readers who may not read it. Their `ApiPageInfo` is in `SiteApi.behind`:
   *  `SiteApi.pages` holds the path's facts for the file's page. */
  readonly behind: readonly Page[];
  /** MDX pages that document an operation (front matter `openapi`), with its reference shown
   *  after the prose (`documentedPage`): they replace the pages read from disk. */
  readonly documented: readonly Page[];
  /** The same for the pages a file before them hides (`ApiPagesOptions.hiddenPages`): they
   *  replace those pages where they stand. */
  readonly hidden: readonly Page[];
  /** Navigation placement of each generated page (merged into `SiteConfig.navPages`). */
  readonly placements: ReadonlyMap<string, PagePlacement>;
  readonly api: SiteApi;
  readonly diagnostics: readonly Diagnostic[];
  readonly cache: ApiCache;
}

/**
 * The seam between the API reference and the site: from the raw docs.json and the pages read
 * from disk, load the specs, plan, and render generated pages as `Page`s.
 */
export async function generateApiPages(root: string, docsJson: unknown, diskPages: ReadonlyMap<string, Page>, options: ApiPagesOptions): Promise<ApiPagesResult> {
  const cache = options.cache ?? createApiCache();
  const diagnostics: Diagnostic[] = [];
  const refs = await stagesBetween(navSpecReferenceStages(docsJson), options.between);
  await options.between?.("API references in the navigation");
  appendAll(diagnostics, refs.diagnostics);
  const { settings, diagnostics: settingDiagnostics } = readApiSettings(docsJson);
  appendAll(diagnostics, settingDiagnostics);
  const site = referencesOf(diskPages, options.frontMatterSpecs);
  const layers = (options.hiddenPages ?? []).map((pages) => referencesOf(pages, options.frontMatterSpecs));
  const all = [site, ...layers];
  const specs = new Map<string, SpecLoadResult>();
  for (const src of specSourcesToLoad(refs, all.flatMap((l) => l.frontMatter), all.flatMap((l) => l.schemaRefs), all.flatMap((l) => l.channelRefs))) {
    specs.set(src.source, await loadCached(root, src.source, src.remote, cache, options));
  }
  await options.between?.("API specs loaded");
  // The load resolved every front matter spec name in the repository (`frontMatterSpecs`): the
  // plan takes a local spec for no name it found no one file for (adversary round 47 F4).
  const namesSearched = options.frontMatterSpecs !== undefined;
  const pageExists = (p: string): boolean => diskPages.has(p) || diskPages.has(indexPathOf(p));
  const pageGroups = restrictingGroupsOf(all.map((l) => l.pages));
  // The hidden pages are planned on their own (no navigation: they take no entry), first: the
  // operations they document count among the site's documenting pages (`documentingGroups`).
  const noNav = collectNavSpecReferences({});
  // Which spec a data model page naming no file shows is chosen by the repository's files alone:
  // what pages documenting operations narrow may hide the schema it shows, never move it to
  // another spec's (adversary round 47 F7). `schemaPages` then shows it only where it is kept.
  const byFiles = schemaKeptBy(options.specFiles, () => undefined, () => []);
  const noOperations: ReadonlyMap<string, FrontMatterOperation> = new Map();
  const layerInput = (layer: PageReferences): PlanInput => {
    return { refs: noNav, specs, frontMatter: layer.frontMatter, schemaRefs: layer.schemaRefs, channelRefs: layer.channelRefs, channelKept: channelKeptBy(layer.pages, options.specFiles), pageExists, schemaKept: (pagePath, spec, name) => byFiles(layer.pages.get(pagePath), spec, name, noOperations), specFileKept: specFileKeptBy(layer.pages, options.specFiles), pageGroups, namesSearched };
  };
  const layerPlans = layers.map((layer) => planApiPages(layerInput(layer)));
  const alsoDocumenting = layerPlans.flatMap((p) => [...p.frontMatter.values()]);
  const kept = schemaKeptBy(options.specFiles, pageGroups, () => alsoDocumenting);
  const plan = planApiPages({ refs, specs, frontMatter: site.frontMatter, schemaRefs: site.schemaRefs, channelRefs: site.channelRefs, channelKept: channelKeptBy(diskPages, options.specFiles), pageExists, takingFile: (p) => (diskPages.get(p) ?? diskPages.get(indexPathOf(p)))?.file.path.slice(1), schemaKept: (pagePath, spec, name) => byFiles(diskPages.get(pagePath), spec, name, noOperations), specFileKept: specFileKeptBy(diskPages, options.specFiles), pageGroups, alsoDocumenting, namesSearched });
  await options.between?.("API pages planned");
  const everyDocumenting = [...plan.frontMatter.values(), ...alsoDocumenting];
  const documenting = documentingGroups(everyDocumenting, (fm) => pageGroups(fm.file));
  appendAll(diagnostics, plan.diagnostics);
  // What the spec says of itself is the site plan's to say; a hidden page's plan says its own.
  layerPlans.forEach((p, i) => appendAll(diagnostics, p.diagnostics.filter((d) => layers[i]?.files.has(d.file) === true)));

  const pages: Page[] = [];
  const placements = new Map<string, PagePlacement>();
  const infos = new Map<string, ApiPageInfo>();
  const plainPlayground = resolvePlayground(settings, readPageMeta({}));
  const behind: Page[] = [];
  const behindInfos = new Map<string, ApiPageInfo>();
  const maker = new SpecPageMaker(cache.made, options.specTimes);
  // The rule of the generated page at each path a file takes: its navigation entry is listed to
  // that rule's readers only (`SiteApi.taken`).
  const taken = new Map<string, Access>();
  // Every page's schema budget is its share among the spec's pages its readers read (`SchemaShares`):
  // count them all before any body renders (bodies ask for their share when first read).
  const shares = new SchemaShares();
  const specOperations = new Map<ApiSpec, readonly SpecOperation[]>();
  const operationsOf = (spec: ApiSpec): readonly SpecOperation[] => {
    let list = specOperations.get(spec);
    if (list === undefined) specOperations.set(spec, (list = spec.operations.filter((o) => o.kind === "operation").map((o) => ({ method: o.method, path: o.path }))));
    return list;
  };
  const renderKeys = new RenderKeys(cache.specs);
  const planned = [...plan.pages, ...plan.behind].map((p) => ({ planned: p, ...plannedParts(p, { settings, plainPlayground, documenting, shares, operationsOf, renderKeys }) }));
  for (const { planned: p, parts } of planned) shares.add(p.item.spec.source, generatedAccess(parts));
  const documentedBy = [{ plan, pages: diskPages }, ...layerPlans.map((p, i) => ({ plan: p, pages: (layers[i] as PageReferences).pages }))];
  for (const { plan: by, pages: table } of documentedBy) {
    for (const fm of by.frontMatter.values()) {
      const page = table.get(fm.pagePath);
      if (page !== undefined && showsOperation(page, fm)) shares.add(fm.spec.source, (page.authored ?? page).file.access);
    }
    for (const fm of by.channels.values()) {
      const page = table.get(fm.pagePath);
      if (page !== undefined) shares.add(fm.spec.source, (page.authored ?? page).file.access);
    }
  }
  const turns = { made: 0 };
  for (const { planned: p, parts, info: infoOf, renderKey } of planned) {
    if (++turns.made % LIMITS.api.pagesPerTurn === 0) await nextTurn();
    // Its share, known now every page is counted: what its body is rendered with.
    const nodes = shares.nodes(p.item.spec.source, generatedAccess(parts));
    const page = maker.generated(p.pagePath, parts, p.item.spec.source, renderKey(nodes));
    const info = infoOf(nodes);
    // The navigation entry's place is the path's, whichever page a reader gets there.
    if (p.placement !== undefined) placements.set(p.pagePath, p.placement);
    if (plan.behind.includes(p)) {
      behind.push(page);
      behindInfos.set(p.pagePath, info);
      taken.set(p.pagePath, page.file.access);
      continue;
    }
    pages.push(page);
    infos.set(p.pagePath, info);
  }
  const made: DocumentedContext = { settings, maker, shares, diagnostics, turns, operationsOf };
  const documented: Page[] = [];
  for (const { page, info } of await documentedPages(plan, diskPages, made)) {
    documented.push(page);
    infos.set(info.pagePath, info);
  }
  appendAll(appendAll(documented, schemaPages(plan, diskPages, maker, kept, diagnostics)), channelPages(plan, diskPages, maker, shares));
  const hidden: Page[] = [];
  const hiddenInfos = new Map<string, ApiPageInfo>();
  const hiddenOperations = new Map<string, FrontMatterOperation>();
  for (const [i, layerPlan] of layerPlans.entries()) {
    const table = (layers[i] as PageReferences).pages;
    for (const { page, info } of await documentedPages(layerPlan, table, made)) {
      hidden.push(page);
      hiddenInfos.set(page.file.path, info);
    }
    for (const fm of layerPlan.frontMatter.values()) hiddenOperations.set(`/${fm.file}`, fm);
    const keptHere = schemaKeptBy(options.specFiles, pageGroups, () => everyDocumenting);
    appendAll(appendAll(hidden, schemaPages(layerPlan, table, maker, keptHere, diagnostics)), channelPages(layerPlan, table, maker, shares));
  }
  cache.made = maker.made;
  const hiddenApi = layerPlans.length > 0 ? { hidden: { plans: layerPlans, pages: hiddenInfos, operations: hiddenOperations } } : {};
  return { pages, behind, documented, hidden, placements, api: { settings, plan, pages: infos, ...(behindInfos.size > 0 ? { behind: behindInfos } : {}), ...(taken.size > 0 ? { taken } : {}), ...hiddenApi }, diagnostics, cache };
}

/** What `documentedPages` makes pages with, and the count that yields the thread now and then. */
interface DocumentedContext {
  readonly settings: ApiSettings;
  readonly maker: SpecPageMaker;
  readonly shares: SchemaShares;
  readonly diagnostics: Diagnostic[];
  readonly turns: { made: number };
  readonly operationsOf: (spec: ApiSpec) => readonly SpecOperation[];
}

/** The pages of `pages` whose front matter `openapi` the plan matched, with the operation's
 *  reference shown after the prose, and their facts; a warning for each that cannot show it. */
async function documentedPages(plan: ApiPagePlan, pages: ReadonlyMap<string, Page>, ctx: DocumentedContext): Promise<{ page: Page; info: ApiPageInfo }[]> {
  const { settings, maker, shares, diagnostics, turns, operationsOf } = ctx;
  const out: { page: Page; info: ApiPageInfo }[] = [];
  for (const fm of plan.frontMatter.values()) {
    if (++turns.made % LIMITS.api.pagesPerTurn === 0) await nextTurn();
    const page = pages.get(fm.pagePath);
    if (page === undefined) continue;
    const playground = resolvePlayground(settings, page.meta);
    const access = (page.authored ?? page).file.access;
    const schemaNodes = (): number => shares.nodes(fm.spec.source, access);
    if (!showsOperation(page, fm)) {
      // One decision for everything that resolves a page to its operation (the shell, search,
      // HTML pages, the playground relay): without the reference the page is no API page, so
      // nothing answers for its operation (servers, playground) in its name.
      diagnostics.push({ severity: "warning", file: page.file.path.slice(1), message: `front matter openapi "${page.meta.openapi ?? ""}" documents an operation restricted to groups that not every reader of this page is in: its reference is not shown on the page`, code: API_CODES.frontMatter });
      continue;
    }
    const ctxHere: RenderContext = { pagePath: fm.pagePath, settings, playground, schemaNodes };
    out.push({
      page: maker.withReference(page.authored ?? page, () => operationReference(fm.spec, fm.operation, ctxHere), fm.spec.source),
      info: {
        pagePath: fm.pagePath,
        generated: false,
        kind: fm.operation.kind,
        source: fm.spec.source,
        method: fm.operation.method,
        path: fm.operation.path,
        servers: fm.operation.servers,
        ...(fm.operation.serversNotShown === true ? { serversNotShown: true as const } : {}),
        specOperations: operationsOf(fm.spec),
        playground,
        anchors: parameterAnchors(fm.operation, new SchemaBudget(schemaNodes())),
        schemaNodes: schemaNodes(),
      },
    });
  }
  return out;
}

/** What a generated page is made with (`plannedParts`). */
interface PlannedContext {
  readonly settings: ApiSettings;
  /** Most operations carry no `x-svc.metadata`: one playground for all of them. */
  readonly plainPlayground: PlaygroundSettings;
  readonly documenting: ReadonlyMap<string, { readonly groups: readonly string[] }>;
  readonly shares: SchemaShares;
  /** The spec's operations (`ApiPageInfo.specOperations`), one list per spec. */
  readonly operationsOf: (spec: ApiSpec) => readonly SpecOperation[];
  readonly renderKeys: RenderKeys;
}

/** A planned operation's or channel's page: its parts (front matter now, body when first read),
 *  and its facts once its schema budget is known. */
function plannedParts(planned: PlannedApiPage, ctx: PlannedContext): { parts: PageParts; info: (schemaNodes: number) => ApiPageInfo; renderKey: (schemaNodes: number) => string | undefined } {
  const { settings, shares } = ctx;
  const item = planned.item;
  if (item.kind !== "operation") {
    let access: Access | undefined;
    const parts = channelPageParts(item.spec, item.channel, () => shares.nodes(item.spec.source, (access ??= generatedAccess(parts))));
    const info = (schemaNodes: number): ApiPageInfo => ({
      pagePath: planned.pagePath,
      generated: true,
      kind: "channel",
      source: item.spec.source,
      method: item.channel.operations.map((o) => o.action.toUpperCase()).join(",") || "CHANNEL",
      path: item.channel.address,
      servers: [],
      playground: resolvePlayground(settings, { playground: "none" }),
      anchors: item.channel.parameters.map((p) => ({ in: "channel", name: p.name, anchor: p.name })),
      schemaNodes,
    });
    return { parts, info, renderKey: (schemaNodes) => ctx.renderKeys.channel(item.spec, item.channel, planned.pagePath, schemaNodes) };
  }
  const op = item.operation;
  const own = { ...(op.extension?.metadata ?? {}), ...(op.hidden ? { noindex: true } : {}) };
  const metadata = withDocumentingRule(own, ctx.documenting.get(operationKey(item.spec.source, op))?.groups);
  const playground = Object.keys(metadata).length === 0 ? ctx.plainPlayground : resolvePlayground(settings, readPageMeta(metadata));
  let access: Access | undefined;
  const parts: PageParts = operationPageParts(item.spec, op, { pagePath: planned.pagePath, settings, playground, metadata, schemaNodes: () => shares.nodes(item.spec.source, (access ??= generatedAccess(parts))) });
  const info = (schemaNodes: number): ApiPageInfo =>
    lazyAnchors(
      { pagePath: planned.pagePath, generated: true, kind: op.kind, source: item.spec.source, method: op.method, path: op.path, servers: op.servers, ...(op.serversNotShown === true ? { serversNotShown: true as const } : {}), specOperations: ctx.operationsOf(item.spec), playground, schemaNodes },
      () => parameterAnchors(op, new SchemaBudget(schemaNodes)),
    );
  const renderKey = (schemaNodes: number): string | undefined => ctx.renderKeys.operation(item.spec, op, { pagePath: planned.pagePath, settings, playground, metadata }, schemaNodes);
  return { parts, info, renderKey };
}

/** A table of pages and what their front matter names: an operation, a schema, a channel. */
interface PageReferences {
  readonly pages: ReadonlyMap<string, Page>;
  /** Their repository files (`guides/x.mdx`), for the diagnostics that are theirs. */
  readonly files: ReadonlySet<string>;
  readonly frontMatter: FrontMatterReference[];
  readonly schemaRefs: FrontMatterSchemaReference[];
  readonly channelRefs: FrontMatterChannelReference[];
}

function referencesOf(pages: ReadonlyMap<string, Page>, frontMatterSpecs: ReadonlyMap<string, string> | undefined): PageReferences {
  const files = new Set([...pages.values()].map((p) => p.file.path.slice(1)));
  return { pages, files, ...frontMatterReferencesOf(pages, frontMatterSpecs), channelRefs: channelReferencesOf(pages, frontMatterSpecs) };
}

/** The pages whose front matter names an operation (`openapi`) or a schema (`openapi-schema`),
 *  with the spec file each was found in (`frontMatterSpecs`, by the page's file). */
function frontMatterReferencesOf(diskPages: ReadonlyMap<string, Page>, frontMatterSpecs: ReadonlyMap<string, string> | undefined): { frontMatter: FrontMatterReference[]; schemaRefs: FrontMatterSchemaReference[] } {
  const frontMatter: FrontMatterReference[] = [];
  const schemaRefs: FrontMatterSchemaReference[] = [];
  for (const page of diskPages.values()) {
    if (page.meta.openapi !== undefined) {
      const spec = frontMatterSpecs?.get(page.file.path);
      const line = frontMatterKeyLine(page.file.text, "openapi");
      frontMatter.push({ pagePath: page.path, file: page.file.path.slice(1), openapi: page.meta.openapi, ...(spec !== undefined ? { spec } : {}), ...(line !== undefined ? { line } : {}) });
    }
    if (page.meta.openapiSchema === undefined) continue;
    // A page with both keys documents its operation; the spec map holds the operation's spec.
    const spec = page.meta.openapi === undefined ? frontMatterSpecs?.get(page.file.path) : undefined;
    const line = frontMatterKeyLine(page.file.text, "openapi-schema");
    schemaRefs.push({ pagePath: page.path, file: page.file.path.slice(1), value: page.meta.openapiSchema, ...(line !== undefined ? { line } : {}), ...(spec !== undefined ? { spec } : {}) });
  }
  return { frontMatter, schemaRefs };
}

/** The pages documenting a schema (`openapi-schema`) with it shown, when every reader of the page
 *  keeps it; a warning for each that cannot show it. */
function schemaPages(plan: ApiPagePlan, diskPages: ReadonlyMap<string, Page>, maker: SpecPageMaker, kept: SchemaKept, diagnostics: Diagnostic[]): Page[] {
  const shownPages: Page[] = [];
  for (const fm of plan.schemas.values()) {
    const page = diskPages.get(fm.pagePath);
    if (page === undefined || plan.frontMatter.has(fm.pagePath)) continue;
    const why = kept(page, fm.spec, fm.schema.name, plan.frontMatter);
    if (why !== undefined) {
      const line = frontMatterKeyLine(page.file.text, "openapi-schema");
      diagnostics.push({
        severity: "warning",
        file: page.file.path.slice(1),
        ...(line !== undefined ? { line } : {}),
        path: "openapi-schema",
        message: `schema "${fm.schema.name}" (${fm.spec.source}) ${why}: it is not shown on the page`,
        code: API_CODES.frontMatterSchema,
      });
      continue;
    }
    shownPages.push(maker.withReference(page.authored ?? page, () => schemaReference(fm.spec, fm.schema), fm.spec.source));
  }
  return shownPages;
}

/** The 1-based line of a top-level front matter key in a page's text, when it is there. */
function frontMatterKeyLine(text: string, key: string): number | undefined {
  // Front matter may open after a lead (`frontMatterLead`); its lines are counted from the file's start.
  const open = frontMatterLead(text).at;
  const end = text.startsWith("---", open) ? text.indexOf("\n---", open + 3) : -1;
  if (end === -1) return undefined;
  const at = new RegExp(`^["']?${key}["']?[ \\t]*:`, "m").exec(text.slice(0, end));
  return at === null ? undefined : text.slice(0, at.index).split("\n").length;
}

/**
 * Whether an MDX page that documents an operation (front matter `openapi`) shows its reference
 * after the prose, as the hosted platform does: the file is then the author's bytes plus the
 * rendered part (its size counts both; its time is the later of the page's and the spec's),
 * rendered when first read. Not when the operation is restricted (`x-svc` metadata) to readers
 * the page's own rule does not keep to.
 */
function showsOperation(page: Page, fm: FrontMatterOperation): boolean {
  const opAccess = accessOfMeta(readPageMeta(fm.operation.extension?.metadata ?? {}));
  return readersCover((page.authored ?? page).file.access, opAccess);
}

/**
 * The pages whose front matter `asyncapi` names a channel. A page that documents an operation or
 * a schema too shows that one only (one reference per page, as the platform's page types are).
 */
function channelReferencesOf(pages: ReadonlyMap<string, Page>, specs: ReadonlyMap<string, string> | undefined): FrontMatterChannelReference[] {
  const out: FrontMatterChannelReference[] = [];
  for (const page of pages.values()) {
    const value = page.meta.asyncapi;
    if (value === undefined) continue;
    const line = frontMatterKeyLine(page.file.text, "asyncapi");
    // With `openapi` or `openapi-schema` as well, the page shows that reference only: the plan
    // says so at the `asyncapi` line, and the spec it names is not loaded for it.
    const other = page.meta.openapi !== undefined ? { key: "openapi" as const, value: page.meta.openapi } : page.meta.openapiSchema !== undefined ? { key: "openapi-schema" as const, value: page.meta.openapiSchema } : undefined;
    const spec = other === undefined ? specs?.get(page.file.path) : undefined;
    out.push({ pagePath: page.path, file: page.file.path.slice(1), value, ...(line !== undefined ? { line } : {}), ...(spec !== undefined ? { spec } : {}), ...(other !== undefined ? { shadowedBy: other } : {}) });
  }
  return out;
}

/**
 * Why not every reader of a page keeps an AsyncAPI channel, undefined when all do: they may read
 * the spec's file (a spec only restricted pages name is theirs alone, `namingPagesAccess`) and
 * the channel (its `x-svc.metadata` rule), by the `readersCover` rule `documentedPage` applies to
 * an operation.
 */
function channelKeptBy(pages: ReadonlyMap<string, Page>, specFiles: ReadonlyMap<string, SiteFile> | undefined): (pagePath: string, spec: AsyncSpec, channel: AsyncChannel) => string | undefined {
  return (pagePath, spec, channel) => {
    const page = pages.get(pagePath);
    if (page === undefined) return "has no page";
    const pageAccess = (page.authored ?? page).file.access;
    const file = specFiles?.get(`/${spec.source}`);
    if (file !== undefined && !readersCover(pageAccess, file.access)) return "is in a spec file restricted to groups that not every reader of this page is in";
    const meta = readPageMeta(channel.extension?.metadata ?? {});
    const channelAccess = accessOfMeta(meta);
    return readersCover(pageAccess, channelAccess) ? undefined : "is restricted to groups that not every reader of this page is in";
  };
}

/** The pages documenting an AsyncAPI channel (`asyncapi`) with it shown, as `documentedPage`
 *  appends an operation: the plan keeps only channels every reader of the page may read
 *  (`channelKeptBy`). */
function channelPages(plan: ApiPagePlan, diskPages: ReadonlyMap<string, Page>, maker: SpecPageMaker, shares: SchemaShares): Page[] {
  const out: Page[] = [];
  for (const fm of plan.channels.values()) {
    const page = diskPages.get(fm.pagePath);
    if (page === undefined) continue;
    const authored = page.authored ?? page;
    out.push(maker.withReference(authored, () => channelReference(fm.spec, fm.channel, shares.nodes(fm.spec.source, authored.file.access)), fm.spec.source));
  }
  return out;
}

/** Whether every reader of a page may read a spec's file (`PlanInput.specFileKept`): a spec with
 *  no file of the repository's (a remote one docs.json names) is the site's. */
function specFileKeptBy(pages: ReadonlyMap<string, Page>, specFiles: ReadonlyMap<string, SiteFile> | undefined): (pagePath: string, source: string) => boolean {
  return (pagePath, source) => {
    const page = pages.get(pagePath);
    const file = specFiles?.get(`/${source}`);
    return page === undefined || file === undefined || readersCover((page.authored ?? page).file.access, file.access);
  };
}

/** Why not every reader of a page keeps a spec's schema, undefined when all do (`schemaKeptBy`). */
type SchemaKept = (page: Page | undefined, spec: ApiSpec, name: string, operations: ReadonlyMap<string, FrontMatterOperation>) => string | undefined;

/**
 * Whether every reader of a page keeps a spec's schema: they may read the spec's file (a spec
 * only restricted pages name is theirs alone, `namingPagesAccess`) and their copy of it has the
 * schema (`schemaAccessOf`). One decision for the page's choice of spec and for showing it.
 */
function schemaKeptBy(specFiles: ReadonlyMap<string, SiteFile> | undefined, pageGroups: (file: string) => readonly string[] | undefined, others: () => readonly FrontMatterOperation[]): SchemaKept {
  let partsAccess: ((spec: ApiSpec, name: string, operations: ReadonlyMap<string, FrontMatterOperation>) => Access) | undefined;
  return (page, spec, name, operations) => {
    if (page === undefined) return "has no page";
    const pageAccess = (page.authored ?? page).file.access;
    const file = specFiles?.get(`/${spec.source}`);
    if (file !== undefined && !readersCover(pageAccess, file.access)) return "is in a spec file restricted to groups that not every reader of this page is in";
    partsAccess ??= schemaAccessOf(specFiles, pageGroups, others());
    return readersCover(pageAccess, partsAccess(spec, name, operations)) ? undefined : "is used only by operations restricted to groups that not every reader of this page is in";
  };
}

/**
 * Who may read each schema of a spec in their own copy of its file, by the rule `specVariants`
 * cuts the file by: the spec's restricted parts (`x-svc` `metadata.groups`) and the operations
 * MDX pages with `groups` document (`schemaReaders`). Worked out per spec, and only for specs a
 * schema page names: parsing the file again is paid only when some part is restricted. A spec
 * with restricted parts and no mounted file (a remote one) shows none of its schemas (fail closed).
 */
function schemaAccessOf(specFiles: ReadonlyMap<string, SiteFile> | undefined, pageGroups: (file: string) => readonly string[] | undefined, others: readonly FrontMatterOperation[]): (spec: ApiSpec, name: string, operations: ReadonlyMap<string, FrontMatterOperation>) => Access {
  const bySpec = new Map<string, ReadonlyMap<string, readonly string[]> | undefined>();
  const nobody: Access = { groups: [UNMATCHABLE_GROUP] };
  const readersOf = (spec: ApiSpec, operations: ReadonlyMap<string, FrontMatterOperation>): ReadonlyMap<string, readonly string[]> | undefined => {
    const restricted: RestrictedPart[] = [];
    for (const { part, metadata } of metadataParts(spec)) {
      const meta = readPageMeta(metadata);
      if (meta.groups !== undefined && meta.public !== true) restricted.push({ part, groups: meta.groups });
    }
    // The operations the plan's pages document and those pages planned apart document (`others`).
    const ofSpec = [...operations.values(), ...others].filter((fm) => fm.spec.source === spec.source);
    for (const { page, groups } of documentingGroups(ofSpec, (fm) => pageGroups(fm.file)).values()) {
      const op = page.operation;
      restricted.push({ part: op.kind === "webhook" ? ["webhooks", op.path] : ["paths", op.path, op.method.toLowerCase()], groups });
    }
    if (restricted.length === 0) return new Map();
    const text = specFiles?.get(`/${spec.source}`)?.text;
    const parsed = text !== undefined ? parseDocument(text) : undefined;
    return parsed?.ok === true ? schemaReaders(parsed.document, restricted) : undefined;
  };
  return (spec, name, operations) => {
    if (!bySpec.has(spec.source)) bySpec.set(spec.source, readersOf(spec, operations));
    const readers = bySpec.get(spec.source);
    if (readers === undefined) return nobody;
    const groups = readers.get(name);
    // A schema no reader's copy keeps is readable by no one: a group no reader holds says so.
    return groups === undefined ? {} : { groups: groups.length > 0 ? groups : [UNMATCHABLE_GROUP] };
  };
}


/**
 * Fetch and build remote specs into `cache`, so that the next load of the site finds them there
 * and never waits on the network (`serve` fetches in the background, then reloads).
 */
export async function prefetchRemoteSpecs(root: string, urls: readonly string[], cache: ApiCache, options: Pick<ApiPagesOptions, "ignore" | "fetch" | "specCache">): Promise<void> {
  await Promise.all(urls.map((url) => loadCached(root, url, true, cache, options)));
}

async function loadCached(root: string, source: string, remote: boolean, cache: ApiCache, options: ApiPagesOptions): Promise<SpecLoadResult> {
  const { fetch } = options;
  const deps = { root, ignore: options.ignore, validator: cache.validator, ...(options.specCache !== undefined ? { cache: options.specCache } : {}), ...(options.configFiles !== undefined ? { configFiles: options.configFiles } : {}) };
  // A remote spec's `$ref`s never read the repository, so it has no readers to compare.
  const readers = remote ? undefined : options.refReaders?.(source);
  if (remote) {
    // Remote specs are fetched once per process (a reload re-reads local files only).
    const hit = cache.specs.get(source);
    if (hit !== undefined && !(hit.result.ok === false && hit.result.notFetched === true && fetch !== undefined)) return hit.result;
    const result = await loadApiSpec(source, true, { ...deps, ...(fetch !== undefined ? { fetch } : {}) });
    cache.specs.set(source, { stamp: "remote", result });
    return result;
  }
  const mounted = options.specFiles?.get(`/${source}`);
  let stamp = "missing";
  let text = mounted?.text;
  if (mounted !== undefined) {
    stamp = "mounted";
  } else {
    // The real path too: a link moved to another file with the same text is a change.
    // Anything that is not read is "missing" for the cache; the loader says why.
    const read = readSpecFile(root, source, options.ignore, options.configFiles ?? NO_CONFIG_FILES);
    if (read.ok) {
      stamp = read.real;
      text = read.text;
    }
  }
  const hit = cache.specs.get(source);
  // Same text (a string compare, O(1) when the reused file keeps its string), the same files its
  // `$ref`s read, as they read now (an operation restricted in a `$ref`'d file: issue 25, F2), and
  // the same answers to who may read them: a page's new `groups` changes what the spec may show.
  if (hit !== undefined && hit.stamp === stamp && hit.text === text && sameRefFiles(hit.result.refFiles, root, options.ignore) && sameRefDecisions(hit.result.refDecisions, readers)) return hit.result;
  const loaded = await loadApiSpec(source, false, { ...deps, ...(readers !== undefined ? { readers } : {}) }, mounted?.text);
  // A live edit that makes a spec expand past the limit (an alias bomb saved over it, issue 25),
  // or leaves it unreadable, unparsable or gone while it is still named, or breaks a file its
  // `$ref`s read, keeps its pages as they were, as a page whose front matter breaks keeps its last
  // good version; the refusal is still the spec's error, said once (`reloadSite`). A withdrawal
  // (now ignored, a link out) or a change of who reads it does not (`brokenSinceLastGood`).
  const refused = remote ? undefined : !loaded.ok && loaded.overLimit === true && hit?.result.ok === true ? loaded.message : brokenSinceLastGood(hit?.result, loaded, root, options.ignore, readers);
  // The kept result takes the new result's `$ref` reads, so the next reload reuses it until one
  // of those files (or the spec) changes again.
  // It says whether the text now is an API description too (`notSpec`), and carries the text it
  // was loaded from: the site mounts the spec as last read whole, never the text now (adversary
  // rounds 57 F4, 59 F1).
  const keptText = hit?.result.ok === true ? (hit.result.keptText ?? hit.text) : undefined;
  const kept = hit?.result.ok === true ? withoutNotSpec(hit.result) : undefined;
  const result: SpecLoadResult =
    refused !== undefined && kept !== undefined ? { ...kept, refused, ...(loaded.refFiles !== undefined ? { refFiles: loaded.refFiles } : {}), ...(keptText !== undefined ? { keptText } : {}), ...(!loaded.ok && loaded.notSpec === true ? { notSpec: true } : {}) } : loaded;
  cache.specs.set(source, { stamp, ...(text !== undefined ? { text } : {}), result });
  return result;
}

/** A loaded result without the word on its file's later text (`notSpec`), to keep as the last good one. */
function withoutNotSpec(result: Extract<SpecLoadResult, { ok: true }>): Extract<SpecLoadResult, { ok: true }> {
  const { notSpec: _text, ...rest } = result;
  return rest;
}

/** An operation page's facts, with its parameter anchors worked out when first asked for. */
function lazyAnchors(info: Omit<ApiPageInfo, "anchors">, anchors: () => readonly ParameterAnchor[]): ApiPageInfo {
  let value: readonly ParameterAnchor[] | undefined;
  return {
    ...info,
    get anchors() {
      return (value ??= anchors());
    },
  };
}
