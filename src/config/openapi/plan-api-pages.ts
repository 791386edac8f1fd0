import { posix } from "node:path";
import type { Diagnostic } from "../diagnostic.js";
import { descriptionFindings } from "./description-findings.js";
import type { AsyncChannel, AsyncSpec } from "../asyncapi/model.js";
import { type FrontMatterChannel, type FrontMatterChannelReference, planFrontMatterChannels } from "../asyncapi/front-matter-channels.js";
import type { PagePlacement } from "../site-config.js";
import { toPagePath } from "../site-config.js";
import { LIMITS } from "../../limits.js";
import { tooManyEntriesMessage } from "../docs-json/expanded-entries.js";
import { API_CODES } from "./api-codes.js";
import { parseOperationEntry } from "./entry.js";
import type { SpecLoadResult } from "./spec-load-result.js";
import { findOperation, matchOperationEntry, resolveSpecName, type MatchContext } from "./match.js";
import { sourcesForUnfoundName } from "./unfound-spec-name.js";
import { type ApiOperation, type ApiSchemaComponent, type ApiSpec, operationLabel } from "./model.js";
import { parseSchemaReference } from "./schema-components.js";
import type { NavSpecElement, NavSpecReferences } from "./nav-references.js";
import { channelPagePath, hrefToPagePath, operationPagePath } from "./slug.js";
import type { SpecSource } from "./spec-source.js";
import { appendAll } from "../../arrays.js";
import { readPageMeta } from "../page-meta.js";
import { documentingGroups, operationKey } from "./documenting-groups.js";
import { indexPathOf } from "../index-path.js";

/** What a generated page documents. */
export type ApiPageItem =
  | { readonly kind: "operation"; readonly spec: ApiSpec; readonly operation: ApiOperation }
  | { readonly kind: "channel"; readonly spec: AsyncSpec; readonly channel: AsyncChannel };

/** One page to generate. */
export interface PlannedApiPage {
  /** `/api-reference/users/create-user` (the file is this plus `.mdx`). */
  readonly pagePath: string;
  readonly item: ApiPageItem;
  /** Where it sits in navigation; undefined for `x-hidden` operations (reachable, not listed). */
  readonly placement?: PagePlacement;
}

/** One generated page's place in the navigation tree, in navigation order. */
export interface ApiNavItem {
  /** JSON path of the navigation element the page appears under. */
  readonly element: string;
  /** JSON path of the entry that selected it; absent for pages generated from a whole spec. */
  readonly entry?: string;
  /** The OpenAPI file an operation's page is made from, as docs.json names it (normalised): an
   *  element may name several (`nav`). None for a channel's page (`nav` names OpenAPI files only). */
  readonly spec?: string;
  /** For pages generated from a whole spec: the tag group they are listed in. */
  readonly group?: string;
  readonly pagePath: string;
}

/** How one navigation entry resolved (for `check` and `nav`: these entries are not files). */
export type EntryResolution =
  | { readonly kind: "api-page"; readonly pagePath: string; readonly spec?: string }
  /** Skipped (validation errors), unverifiable (spec not loaded) or no `openapi`: reported. */
  | { readonly kind: "not-generated" }
  /** Looked like an operation but matched none: a file path, checked by `check`. */
  | { readonly kind: "file"; readonly reason: string };

/** An MDX page whose front matter `openapi` matched an operation. */
export interface FrontMatterOperation {
  readonly pagePath: string;
  /** The page's repository file (`guides/users.mdx`): a page path can hold two pages
   *  (`Site.shadowed`), each with its own readers. */
  readonly file: string;
  readonly spec: ApiSpec;
  readonly operation: ApiOperation;
}

/** An MDX page whose front matter `openapi-schema` named a schema of `components.schemas`. */
export interface FrontMatterSchema {
  readonly pagePath: string;
  readonly spec: ApiSpec;
  readonly schema: ApiSchemaComponent;
}

export interface ApiPagePlan {
  readonly pages: readonly PlannedApiPage[];
  readonly nav: readonly ApiNavItem[];
  /** By JSON path of the entry (`navigation.tabs[1].groups[0].pages[3]`). */
  readonly entries: ReadonlyMap<string, EntryResolution>;
  readonly frontMatter: ReadonlyMap<string, FrontMatterOperation>;
  /** MDX pages that document a schema (front matter `openapi-schema`), by page path. */
  readonly schemas: ReadonlyMap<string, FrontMatterSchema>;
  /** MDX pages that document an AsyncAPI channel (front matter `asyncapi`), by page path. */
  readonly channels: ReadonlyMap<string, FrontMatterChannel>;
  /** Remote specs that were not fetched: their entries are neither generated nor reported. */
  readonly unverified: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** Generated pages whose path a file of the repository takes (`api-page-taken`), its own
   *  (`<path>.mdx`) or an index file (`<path>/index.mdx`): not pages of the site, but the page a
   *  reader who may not read those files gets there, as on the site without them (the site places
   *  them behind the files, `Site.shadowed`). */
  readonly behind: readonly PlannedApiPage[];
  /** The page path of every generated page, those behind a file too, in the plan's order: lists
   *  of API pages (MCP Apps) follow it, so a file at a generated page's path moves nothing. */
  readonly order: readonly string[];
}

/** An MDX page's API reference from front matter. */
export interface FrontMatterReference {
  readonly pagePath: string;
  /** Repository-relative file (`guides/users.mdx`), for messages. */
  readonly file: string;
  readonly openapi: string;
  /** The repository file the reference's spec name was found at (`frontMatterSpecFile`), when
   *  it names one and it was found; the plan loads and matches against it. */
  readonly spec?: string;
  /** The line of the page's `openapi` key, for findings about it. */
  readonly line?: number;
}

/** An MDX page's data model reference from front matter `openapi-schema`. */
export interface FrontMatterSchemaReference {
  readonly pagePath: string;
  /** Repository-relative file (`webhooks/refund.mdx`), for messages. */
  readonly file: string;
  /** The `openapi-schema` value as written. */
  readonly value: string;
  /** 1-based line of the `openapi-schema` key in the file, for messages. */
  readonly line?: number;
  /** The repository file its spec was found at (`frontMatterSpecFile`, or for a reference naming
   *  no file the one repository spec holding the name), when found. */
  readonly spec?: string;
}

export interface PlanInput {
  readonly refs: NavSpecReferences;
  /** Load result of every source the plan asks for (see `specSourcesToLoad`). */
  readonly specs: ReadonlyMap<string, SpecLoadResult>;
  readonly frontMatter: readonly FrontMatterReference[];
  readonly schemaRefs?: readonly FrontMatterSchemaReference[];
  readonly channelRefs?: readonly FrontMatterChannelReference[];
  /** Why not every reader of a page keeps an AsyncAPI channel (its spec file, its own rule), or
   *  undefined when all do; absent: all do. */
  readonly channelKept?: (pagePath: string, spec: AsyncSpec, channel: AsyncChannel) => string | undefined;
  /** Whether a page file exists for a page path (`/guides/setup`). */
  readonly pageExists: (pagePath: string) => boolean;
  /** The repository file (`guides/x.md`, `guides/x/index.mdx`) that takes a page path, for the
   *  `api-page-taken` warning: the page path's own file, else its index file. Absent: `<path>.mdx`. */
  readonly takingFile?: (pagePath: string) => string | undefined;
  /** Why not every reader of a page keeps a spec's schema by the repository's files alone (they
   *  may read its file, and the spec's own `x-svc` rules leave it to them), or undefined when all
   *  do; absent: all do. A page naming no spec file chooses among these only, so what a reader
   *  gets there never depends on a schema they may not read, nor on what restricted pages
   *  document (adversary round 47 F7): a schema such a page narrows is then not shown, where the
   *  site shows it (`schemaPages`), never another spec's. */
  readonly schemaKept?: (pagePath: string, spec: ApiSpec, schema: string) => string | undefined;
  /** Whether every reader of a page may read a spec's file (a spec only restricted pages name is
   *  theirs alone); absent: all may. A page naming no spec file matches its operation among those
   *  only: another would show the operation, and open its file, to readers who may not read it. */
  readonly specFileKept?: (pagePath: string, source: string) => boolean;
  /** The groups an MDX page restricts its readers to (undefined: it restricts nobody), by its
   *  repository file (`FrontMatterOperation.file`); absent: none does. */
  readonly pageGroups?: (file: string) => readonly string[] | undefined;
  /** Operations documented by pages a file before them at their path hides from some readers
   *  (`Site.shadowed`, planned on their own): their readers count among the operation's
   *  documenting pages' (`documentingGroups`), as on the site without that file. */
  readonly alsoDocumenting?: readonly FrontMatterOperation[];
  /** Whether the load searched the repository for every spec file front matter names (`spec` of
   *  each reference, absent where it found no one file): such a name is then matched against the
   *  remote specs only (`sourcesForUnfoundName`), so mounting and the plan resolve it alike.
   *  Absent: names are matched against every spec, as docs.json's entries are. */
  readonly namesSearched?: boolean;
}

/** Every spec source the plan needs: referenced by an element, `api.*`, or named in an entry. */
export function specSourcesToLoad(
  refs: NavSpecReferences,
  frontMatter: readonly FrontMatterReference[],
  schemaRefs: readonly FrontMatterSchemaReference[] = [],
  channelRefs: readonly FrontMatterChannelReference[] = [],
): SpecSource[] {
  const out = new Map<string, SpecSource>();
  const add = (s: SpecSource): void => {
    if (!out.has(s.source)) out.set(s.source, s);
  };
  refs.siteOpenapi.forEach(add);
  refs.siteAsyncapi.forEach(add);
  for (const el of refs.elements) {
    el.ownOpenapi?.forEach(add);
    el.ownAsyncapi?.forEach(add);
  }
  // A file named in an entry but referenced nowhere else is loaded too (if it is a local path);
  // from front matter, the file it was found at (a name found nowhere is the page's warning).
  const named = [...refs.elements.flatMap((el) => el.entries.map((e) => parseOperationEntry(e.value)?.file)), ...frontMatter.map((f) => f.spec), ...schemaRefs.map((f) => f.spec), ...channelRefs.map((f) => f.spec)];
  for (const file of named) {
    if (file === undefined || resolveSpecName(file, [...out.keys()]) !== undefined) continue;
    if (/\.(json|ya?ml)$/i.test(file) && !/^https?:/i.test(file)) add({ source: file.replace(/^(\.\/)+|^\/+/g, ""), remote: false });
  }
  return [...out.values()];
}

/**
 * Decide every generated API page, where it goes in navigation, and what `check` must say:
 * the OpenAPI rows of the spec's "Configuration conditions and their outcomes" table, one by
 * one (docs/api-reference.md lists each rule with its message). In phases: the loaded specs,
 * explicit entries (in navigation order), whole specs, front matter references, then the two
 * conflicts (an MDX page and a generated page for one operation; a real file at a generated path).
 */
export function planApiPages(input: PlanInput): ApiPagePlan {
  const specs = loadedSpecs(input);
  const table = new PageTable();
  const diagnostics: Diagnostic[] = [...specs.diagnostics];
  const explicit = planExplicitEntries(input, specs, table, diagnostics);
  planWholeSpecs(input.refs, specs, table, explicit, diagnostics);
  const frontMatter = planFrontMatter(input, specs, diagnostics);
  const documenting = [...frontMatter.values(), ...(input.alsoDocumenting ?? [])];
  const rank = pageRank(documenting, input.pageGroups);
  renamePages(explicit, table.number(rank));
  orderTagGroups(explicit.nav, (pagePath) => {
    const page = table.pages.get(pagePath);
    return page === undefined ? RANK.signedIn : rank(page.item);
  });
  const ownPaths = resolveFrontMatterConflicts(frontMatter, documenting, table, explicit, diagnostics, input.pageGroups);
  const order = [...table.pages.keys()];
  const behind = putBehindTakenPaths(input, table, diagnostics, ownPaths);
  const kept = input.schemaKept;
  const schemas = planFrontMatterSchemas(input.schemaRefs ?? [], specs, diagnostics, kept !== undefined ? (ref, spec, name) => kept(ref.pagePath, spec, name) : undefined, input.namesSearched === true);
  const channels = planFrontMatterChannels(input.channelRefs ?? [], { asyncapi: specs.asyncapi, openapi: new Set(specs.openapi.keys()), unavailable: specs.unavailable }, diagnostics, input.channelKept, input.namesSearched === true);
  reportChannelTwoPages(channels, input.channelRefs ?? [], table, diagnostics);
  return { pages: [...table.pages.values()], nav: explicit.nav, entries: explicit.entries, frontMatter, schemas, channels, unverified: specs.unverified, diagnostics, behind, order };
}

/** The specs the plan works with, by source, and what loading them found. */
interface LoadedSpecs {
  readonly openapi: Map<string, ApiSpec>;
  readonly asyncapi: Map<string, AsyncSpec>;
  /** Sources referenced but not loaded: entries against them are neither matched nor refuted. */
  readonly unavailable: Set<string>;
  /** Remote specs that were not fetched. */
  readonly unverified: string[];
  readonly diagnostics: Diagnostic[];
}

/** The source a finding says could not be loaded (its `spec`), else undefined. */
export function failedSpecOf(d: Diagnostic): string | undefined {
  return d.code === API_CODES.spec ? d.spec : undefined;
}

/** Phase 1. Load failures are errors at the first place docs.json names the spec; an invalid
 *  operation is skipped with a warning at the spec. */
function loadedSpecs(input: PlanInput): LoadedSpecs {
  const { refs } = input;
  const out: LoadedSpecs = { openapi: new Map(), asyncapi: new Map(), unavailable: new Set(), unverified: [], diagnostics: [] };
  const firstRef = firstReferencePaths(refs);
  const declared = new Set([...refs.siteOpenapi, ...refs.siteAsyncapi, ...refs.elements.flatMap((el) => [...(el.ownOpenapi ?? []), ...(el.ownAsyncapi ?? [])])].map((s) => s.source));
  for (const [source, result] of input.specs) {
    // A file named only inside an entry that does not exist is a misspelt name: the entry's
    // own message says so (with a hint); a second "file not found" would only add noise.
    if (!result.ok && !declared.has(source) && result.missing === true) continue;
    if (result.ok) {
      if (result.spec.format === "openapi") out.openapi.set(source, result.spec);
      else out.asyncapi.set(source, result.spec);
      if (result.refused !== undefined) {
        const at = firstRef.get(source);
        out.diagnostics.push({ severity: "error", file: "docs.json", ...(at !== undefined ? { path: at } : {}), message: `API spec ${source}: ${result.refused} (keeping the last good version)`, code: API_CODES.spec, spec: source });
      }
      for (const w of result.warnings) out.diagnostics.push({ severity: "warning", file: source, ...positionOf(w), message: w.message, code: w.code ?? API_CODES.specWarning });
      if (result.spec.format === "openapi") {
        appendAll(out.diagnostics, descriptionFindings(source, result.spec.operations));
        for (const op of result.spec.operations) {
          if (op.problems.length === 0) continue;
          out.diagnostics.push({
            severity: "warning",
            file: source,
            ...positionOf(op.problemAt ?? {}),
            path: op.pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")).join("."),
            message: `${operationLabel(op)} skipped: invalid operation (${op.problems.join("; ")})`,
            code: API_CODES.operationSkipped,
          });
        }
      }
      continue;
    }
    out.unavailable.add(source);
    if (result.notFetched === true) {
      out.unverified.push(source);
      continue;
    }
    const message = `API spec ${source}: ${result.message}`;
    if (result.code !== undefined) {
      // A link that leads outside the root: the link is what to fix.
      out.diagnostics.push({ severity: "error", file: source, message: result.message, code: result.code });
    } else if (result.line !== undefined) {
      out.diagnostics.push({ severity: "error", file: source, line: result.line, message, code: API_CODES.spec, spec: source });
    } else {
      const at = firstRef.get(source);
      out.diagnostics.push({ severity: "error", file: "docs.json", ...(at !== undefined ? { path: at } : {}), message, code: API_CODES.spec, spec: source });
    }
    for (const p of result.problems ?? []) out.diagnostics.push({ severity: p.warning === true ? "warning" : "error", file: source, ...positionOf(p), path: p.path, message: p.message, code: API_CODES.specProblem });
  }
  return out;
}

/** A finding's line and column in a spec file, when known. */
function positionOf(p: { readonly line?: number; readonly column?: number }): { line?: number; column?: number } {
  return p.line !== undefined ? { line: p.line, ...(p.column !== undefined ? { column: p.column } : {}) } : {};
}

/** Generated pages by path, each operation (channel) once. */
class PageTable {
  readonly pages = new Map<string, PlannedApiPage>();
  /** Operation key -> page path (a provisional name until `number`). */
  readonly byItem = new Map<string, string>();
  private readonly requests: { readonly name: string; readonly pagePath: string; readonly item: ApiPageItem; readonly placement: PagePlacement | undefined }[] = [];

  /** The page of an item: the one it has already, else a new one wanting `pagePath`. Returns a
   *  provisional name, replaced by the page path when the table is numbered (`number`). */
  add(pagePath: string, item: ApiPageItem, placement: PagePlacement | undefined): string {
    const key = itemKey(item);
    const existing = this.byItem.get(key);
    if (existing !== undefined) return existing;
    const name = `\u0000page ${this.requests.length}`;
    this.requests.push({ name, pagePath, item, placement });
    this.byItem.set(key, name);
    return name;
  }

  /**
   * Give every page its path, and return each provisional name's. Two items wanting one path:
   * later ones get -1, -2, as the predecessor platform does, but counted by who may read them
   * first (`pageRank`: items every reader sees, then those signed-in readers see, then restricted
   * ones), in the order they were added within a rank. So a public page's number never depends on
   * a restricted item before it: every path a reader of the lower ranks sees is the one the site
   * without the items they may not read gives (adversary round 18, F1).
   */
  number(rank: (item: ApiPageItem) => number): Map<string, string> {
    const ranks = this.requests.map((r) => rank(r.item));
    const order = this.requests.map((_, i) => i).sort((a, b) => (ranks[a] as number) - (ranks[b] as number) || a - b);
    const paths = new Map<string, string>();
    const taken = new Set<string>();
    for (const i of order) {
      const r = this.requests[i] as (typeof this.requests)[number];
      let path = r.pagePath;
      for (let n = 1; taken.has(path); n++) path = `${r.pagePath}-${n}`;
      taken.add(path);
      paths.set(r.name, path);
    }
    // The table keeps the order items were added in (the plan's `order`).
    for (const r of this.requests) {
      const path = paths.get(r.name) as string;
      this.pages.set(path, { pagePath: path, item: r.item, ...(r.placement !== undefined ? { placement: r.placement } : {}) });
      this.byItem.set(itemKey(r.item), path);
    }
    return paths;
  }
}

/** Who may read a generated page, as a rank: lower ranks are numbered and placed first. */
const RANK = { everyone: 0, signedIn: 1, restricted: 2 } as const;

/**
 * The rank of each item's page: `public: true` pages every reader reads (also on a site where
 * signing in is required), pages with no rule every signed-in reader, pages with `groups` (their
 * own, or those of the MDX pages documenting the operation, which narrow its generated page) only
 * some. Decided from what the spec says, not the site's sign-in mode, so the plan is one for all.
 */
function pageRank(documenting: readonly FrontMatterOperation[], pageGroups: PlanInput["pageGroups"]): (item: ApiPageItem) => number {
  const narrowed = pageGroups === undefined ? new Map() : documentingGroups(documenting, (fm) => pageGroups(fm.file));
  return (item) => {
    if (item.kind === "operation" && narrowed.has(operationKey(item.spec.source, item.operation))) return RANK.restricted;
    const meta = readPageMeta((item.kind === "operation" ? item.operation : item.channel).extension?.metadata ?? {});
    return meta.public === true ? RANK.everyone : meta.groups !== undefined ? RANK.restricted : RANK.signedIn;
  };
}

/** Navigation items and entry resolutions name pages by their provisional names until numbered. */
function renamePages(explicit: ExplicitEntries, paths: ReadonlyMap<string, string>): void {
  const { nav, entries } = explicit;
  for (let i = 0; i < nav.length; i++) {
    const item = nav[i] as ApiNavItem;
    nav[i] = { ...item, pagePath: paths.get(item.pagePath) ?? item.pagePath };
  }
  for (const [k, v] of entries) if (v.kind === "api-page") entries.set(k, { ...v, pagePath: paths.get(v.pagePath) ?? v.pagePath });
}

/**
 * The order of whole-spec pages under each element: navigation lists their tag groups in the
 * order the groups first appear (`nav-tree.ts`), so a group stands where its first page of the
 * lowest rank in it stands, and pages without a tag where they are. A restricted operation first
 * in the spec then moves no public group (adversary round 18, F2): for readers of the lower ranks
 * the order is that of the site without what they may not read. A group of restricted pages only
 * stands at its first page. Within a group, the spec's order.
 */
function orderTagGroups(nav: ApiNavItem[], rankOf: (pagePath: string) => number): void {
  const byElement = new Map<string, number[]>();
  nav.forEach((n, i) => {
    if (n.entry !== undefined) return;
    const list = byElement.get(n.element) ?? [];
    list.push(i);
    byElement.set(n.element, list);
  });
  for (const indices of byElement.values()) {
    const items = indices.map((i) => nav[i] as ApiNavItem);
    const ranks = items.map((n) => rankOf(n.pagePath));
    const anchors = new Map<string, { rank: number; pos: number }>();
    items.forEach((n, pos) => {
      if (n.group === undefined) return;
      const rank = ranks[pos] as number;
      const seen = anchors.get(n.group);
      if (seen === undefined || rank < seen.rank) anchors.set(n.group, { rank, pos });
    });
    // Restricted pages stand among signed-in ones: no reader of a lower rank sees them.
    const key = (n: ApiNavItem, pos: number): [number, number] => {
      const at = n.group === undefined ? { rank: ranks[pos] as number, pos } : (anchors.get(n.group) as { rank: number; pos: number });
      return [Math.min(at.rank, RANK.signedIn), at.pos];
    };
    const sorted = items.map((n, pos) => ({ n, pos, key: key(n, pos) })).sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.pos - b.pos);
    indices.forEach((i, j) => (nav[i] = (sorted[j] as { n: ApiNavItem }).n));
  }
}

/** What explicit entries decided: navigation items, entry resolutions, and the specs (channels'
 *  specs) some entry names, which get no whole-spec pages. */
interface ExplicitEntries {
  readonly nav: ApiNavItem[];
  readonly entries: Map<string, EntryResolution>;
  readonly sources: Set<string>;
  readonly channels: Set<string>;
}

/** Phase 2: explicit entries, in navigation order. */
function planExplicitEntries(input: PlanInput, specs: LoadedSpecs, table: PageTable, diagnostics: Diagnostic[]): ExplicitEntries {
  const out: ExplicitEntries = { nav: [], entries: new Map(), sources: new Set(), channels: new Set() };
  const place = (el: NavSpecElement, entryPath: string, pagePath: string, spec?: string): void => {
    out.nav.push({ element: el.path, entry: entryPath, pagePath, ...(spec !== undefined ? { spec } : {}) });
    out.entries.set(entryPath, { kind: "api-page", pagePath, ...(spec !== undefined ? { spec } : {}) });
  };
  for (const el of input.refs.elements) {
    const defaults = el.openapi.map((s) => s.source);
    const ctx: MatchContext = { defaults, specs: specs.openapi, unavailable: specs.unavailable };
    for (const entry of el.entries) {
      const channel = matchChannel(entry.value, el, specs.asyncapi);
      if (channel !== undefined) {
        out.channels.add(channel.spec.source);
        const dir = directoryFor(el, input.refs, "asyncapi", channel.spec.source);
        place(el, entry.path, table.add(channelPagePath(channel.channel, dir), { kind: "channel", ...channel }, el.placement));
        continue;
      }
      const parsed = parseOperationEntry(entry.value);
      if (parsed === undefined) continue;
      const target = parsed.file !== undefined ? resolveSpecName(parsed.file, [...input.specs.keys()]) : defaults.length === 1 ? defaults[0] : undefined;
      if (target !== undefined) out.sources.add(target);
      const outcome = matchOperationEntry(parsed, ctx);
      if (outcome.kind === "operation" && outcome.operation.excluded) {
        // `x-excluded` leaves the operation out of the documentation entirely, as the platform
        // documents it: an entry naming it makes no page either (before, it made one).
        out.entries.set(entry.path, { kind: "not-generated" });
        diagnostics.push({ severity: "warning", file: "docs.json", path: entry.path, message: `"${entry.value}" names an operation marked x-excluded in ${outcome.spec.source}: no page is made for it; remove the entry, or x-excluded`, code: API_CODES.unmatched });
      } else if (outcome.kind === "operation") {
        const { spec, operation } = outcome;
        const dir = directoryFor(el, input.refs, "openapi", spec.source);
        place(el, entry.path, table.add(operationPagePath(operation, dir), { kind: "operation", spec, operation }, el.placement), spec.source);
      } else if (outcome.kind === "no-match") {
        out.entries.set(entry.path, { kind: "file", reason: outcome.reason });
        const pagePath = toPagePath(entry.value);
        if (input.pageExists(pagePath)) continue;
        diagnostics.push({
          severity: "error",
          file: "docs.json",
          path: entry.path,
          message: `"${entry.value}" matches no operation (${outcome.reason}), and as a page path no file ${pagePath.slice(1)}.mdx exists`,
          code: API_CODES.unmatched,
        });
      } else {
        out.entries.set(entry.path, { kind: "not-generated" });
        if (outcome.kind !== "no-spec") continue;
        diagnostics.push({
          severity: "error",
          file: "docs.json",
          path: entry.path,
          message: `"${entry.value}" is an operation entry, but no "openapi" is set on this element or above it: no page is generated`,
          code: API_CODES.noSpec,
        });
      }
    }
  }
  return out;
}

/** Phase 3: elements that set their own spec and whose spec no entry references explicitly get
 *  every operation (channel), grouped by first tag; `x-hidden` ones get a page but no place. */
function planWholeSpecs(refs: NavSpecReferences, specs: LoadedSpecs, table: PageTable, explicit: ExplicitEntries, diagnostics: Diagnostic[]): void {
  const max = LIMITS.config.maxNavigationEntries;
  for (const el of refs.elements) {
    for (const src of el.ownOpenapi ?? []) {
      const spec = specs.openapi.get(src.source);
      if (spec === undefined || explicit.sources.has(src.source)) continue;
      // Counted before they are listed: one spec of 300 operations named by 2,000 groups is
      // 600,000 entries (adversary round 62 F2). Past the limit, this element and those after it
      // list none; the error says where.
      if (explicit.nav.length + spec.operations.length > max) {
        const at = `${el.path}.openapi${src.index !== undefined ? `[${src.index}]` : ""}`;
        diagnostics.push({ severity: "error", file: "docs.json", path: at, message: tooManyEntriesMessage(max, "no API pages are listed from here on"), code: API_CODES.tooManyEntries });
        return;
      }
      for (const operation of spec.operations) {
        if (operation.excluded || operation.problems.length > 0) continue;
        const group = operation.tags[0];
        const placement = operation.hidden ? undefined : { ...el.placement, breadcrumbs: [...el.placement.breadcrumbs, ...(group !== undefined ? [group] : [])] };
        const pagePath = table.add(operationPagePath(operation, src.directory), { kind: "operation", spec, operation }, placement);
        if (!operation.hidden) explicit.nav.push({ element: el.path, ...(group !== undefined ? { group } : {}), pagePath, spec: spec.source });
      }
    }
    for (const src of el.ownAsyncapi ?? []) {
      const spec = specs.asyncapi.get(src.source);
      if (spec === undefined || explicit.channels.has(src.source)) continue;
      for (const channel of spec.channels) {
        const pagePath = table.add(channelPagePath(channel, src.directory), { kind: "channel", spec, channel }, channel.hidden ? undefined : el.placement);
        if (!channel.hidden) explicit.nav.push({ element: el.path, pagePath });
      }
    }
  }
}

/** Phase 4: which MDX pages document an operation through front matter `openapi`. A reference
 *  naming a spec file uses the file it was resolved to (`FrontMatterReference.spec`). */
function planFrontMatter(input: PlanInput, specs: LoadedSpecs, diagnostics: Diagnostic[]): Map<string, FrontMatterOperation> {
  const frontMatter = new Map<string, FrontMatterOperation>();
  const pageDefaults = pageDefaultSpecs(input.refs, specs.openapi);
  for (const ref of input.frontMatter) {
    // At the line of the page's `openapi` key, as the `openapi-schema` and `asyncapi` findings are.
    const warn = (file: string, message: string): void =>
      void diagnostics.push({ severity: "warning", file, ...(ref.line !== undefined ? { line: ref.line } : {}), message, code: API_CODES.frontMatter });
    const written = parseOperationEntry(ref.openapi);
    if (written === undefined) {
      warn(ref.file, `front matter openapi "${ref.openapi}" is not an operation reference ("<METHOD> <path>" or "<spec file> <METHOD> <path>")`);
      continue;
    }
    // The file the reference was found at: the one it names, or for a reference naming none, the
    // one repository spec holding its operation (`unnamedSpecFor`; the platform matches such a
    // page against every spec in the repository). Front matter methods match in any case
    // (`post /runs`, `webhook crawlPage`), as the platform reads them; navigation entries do not.
    const found = ref.spec !== undefined ? { ...written, file: ref.spec } : written;
    const parsed = { ...found, method: found.method.toUpperCase() };
    const kept = input.specFileKept;
    const candidates = pageDefaults.get(ref.pagePath) ?? [...specs.openapi.keys(), ...[...specs.unavailable].filter((s) => !specs.asyncapi.has(s))];
    const defaults = candidates.filter((source) => parsed.file !== undefined || kept === undefined || kept(ref.pagePath, source));
    const withheld = candidates.filter((source) => !defaults.includes(source)).sort();
    // Several specs apply and the page names none: the platform "searches every uploaded
    // specification", and "the first match wins based on alphabetical filename order" (its
    // OpenAPI setup page). The page shows that one; the warning says so and how to choose.
    if (parsed.file === undefined && defaults.length > 1 && !defaults.some((s) => specs.unavailable.has(s))) {
      const holders = [...defaults].sort().flatMap((source) => {
        const spec = specs.openapi.get(source);
        const operation = spec !== undefined ? findOperation(spec, parsed.method, parsed.path) : undefined;
        return spec !== undefined && operation !== undefined ? [{ spec, operation }] : [];
      });
      const first = holders[0];
      if (first !== undefined) {
        frontMatter.set(ref.pagePath, { pagePath: ref.pagePath, file: ref.file, spec: first.spec, operation: first.operation });
        if (holders.length > 1) {
          const label = operationLabel(first.operation);
          const named = holders.slice(0, 3).map((h) => h.spec.source).join(", ") + (holders.length > 3 ? ` and ${holders.length - 3} more` : "");
          warn(ref.file, `front matter openapi "${ref.openapi}" names no spec, and ${holders.length} specs have ${label} (${named}): the page shows ${first.spec.source}'s, the first by file name, as the hosted platform takes it; name one as "<spec file> ${label}"`);
        }
        continue;
      }
    }
    const lookedUp = "found in the repository (from its root, then this page's folder)";
    // A name the load found no one repository file for denotes none of the local specs loaded for
    // other pages (`sourcesForUnfoundName`).
    const nameSources = ref.spec === undefined ? sourcesForUnfoundName([...specs.openapi.keys(), ...specs.unavailable], input.namesSearched === true) : undefined;
    const outcome = matchOperationEntry(parsed, { defaults, specs: specs.openapi, unavailable: specs.unavailable, lookedUp, ...(nameSources !== undefined ? { nameSources } : {}) });
    if (outcome.kind === "operation" || outcome.kind === "invalid") {
      frontMatter.set(ref.pagePath, { pagePath: ref.pagePath, file: ref.file, spec: outcome.spec, operation: outcome.operation });
      continue;
    }
    if (outcome.kind === "unverified") {
      // A file outside the repository is never read: said at the page also when docs.json names
      // the same path (that spec is then "unavailable", which leaves the page unverified).
      if (ref.spec === undefined && written.file !== undefined && leavesRepository(written.file, ref.file)) {
        warn(ref.file, `front matter openapi "${ref.openapi}" names a spec file outside the repository: it is not read`);
      }
      continue;
    }
    // Found only in specs this page's readers may not all read: said as such (to the author).
    const restricted = withheld.find((source) => {
      const spec = specs.openapi.get(source);
      return spec !== undefined && findOperation(spec, parsed.method, parsed.path) !== undefined;
    });
    if (restricted !== undefined) {
      warn(ref.file, `front matter openapi "${ref.openapi}" names no spec, and only ${restricted}, a spec file restricted to groups that not every reader of this page is in, has it: its reference is not shown on the page`);
      continue;
    }
    const why = outcome.kind === "no-spec" ? "docs.json references no OpenAPI spec" : outcome.reason;
    warn(ref.file, `front matter openapi "${ref.openapi}" does not match an operation: ${why}`);
  }
  return frontMatter;
}

/**
 * Phase 4b: which MDX pages document a data model through front matter `openapi-schema`
 * (`OrderItem`, or `en-schema.json OrderItem` when several specs hold the name). A name with no
 * file is looked for in every OpenAPI spec of the site (those docs.json names and the one
 * repository spec holding it, as the platform uploads every spec); when several hold it, the
 * first by file name, as the platform's own rule for operations reads, with a warning. Every
 * problem is a warning at the page's `openapi-schema` line: the platform still builds the page.
 */
function planFrontMatterSchemas(
  refs: readonly FrontMatterSchemaReference[],
  specs: LoadedSpecs,
  diagnostics: Diagnostic[],
  kept: ((ref: FrontMatterSchemaReference, spec: ApiSpec, name: string) => string | undefined) | undefined,
  namesSearched: boolean,
): Map<string, FrontMatterSchema> {
  const out = new Map<string, FrontMatterSchema>();
  for (const ref of refs) {
    const warn = (message: string): void =>
      void diagnostics.push({ severity: "warning", file: ref.file, ...(ref.line !== undefined ? { line: ref.line } : {}), path: "openapi-schema", message, code: API_CODES.frontMatterSchema });
    const written = parseSchemaReference(ref.value);
    if (written === undefined) {
      warn(`"${ref.value}" is not a schema reference ("<schema name>" or "<spec file> <schema name>", a name of components.schemas): the page shows no schema`);
      continue;
    }
    let candidates: string[];
    if (written.file !== undefined) {
      const source = ref.spec ?? resolveSpecName(written.file, sourcesForUnfoundName([...specs.openapi.keys(), ...specs.unavailable], namesSearched));
      if (source === undefined) {
        warn(`no spec "${written.file}" is found in the repository (from its root, then this page's folder): the page shows no schema`);
        continue;
      }
      candidates = [source];
    } else {
      candidates = [...specs.openapi.keys(), ...specs.unavailable].filter((s) => !specs.asyncapi.has(s)).sort();
    }
    // Naming no file, only the specs whose schema every reader of the page keeps are candidates
    // (a spec only restricted pages name, a schema only restricted operations use): which one a
    // page shows must not tell its readers what else exists.
    const held = candidates.filter((s) => specs.openapi.get(s)?.schemas.some((c) => c.name === written.name) === true);
    const notKept = new Map(held.map((s) => [s, written.file !== undefined || kept === undefined ? undefined : kept(ref, specs.openapi.get(s) as ApiSpec, written.name)] as const));
    const holding = held.filter((s) => notKept.get(s) === undefined);
    if (holding.length === 0 && held.length > 0) {
      warn(`schema "${written.name}" (${held[0] as string}) ${notKept.get(held[0] as string) as string}: it is not shown on the page`);
      continue;
    }
    const first = holding[0];
    if (first !== undefined) {
      const spec = specs.openapi.get(first) as ApiSpec;
      out.set(ref.pagePath, { pagePath: ref.pagePath, spec, schema: spec.schemas.find((c) => c.name === written.name) as ApiSchemaComponent });
      if (holding.length > 1) warn(`several specs have a schema "${written.name}" (${holding.join(", ")}): the page shows ${first}'s; name one as "<spec file> ${written.name}"`);
      continue;
    }
    // A spec that is not loaded (remote and not fetched, or broken: its own finding says why)
    // may hold it: neither shown nor refuted.
    if (candidates.some((s) => specs.unavailable.has(s))) continue;
    const loaded = candidates.flatMap((s) => specs.openapi.get(s) ?? []);
    if (loaded.length === 0) {
      warn(`no OpenAPI spec in the repository has a schema "${written.name}": the page shows no schema`);
      continue;
    }
    const near = loaded.flatMap((s) => s.schemas.filter((c) => c.name.toLowerCase() === written.name.toLowerCase()).map((c) => `${s.source} ${c.name}`))[0];
    const where = loaded.length === 1 ? (loaded[0] as ApiSpec).source : `any of ${loaded.map((s) => s.source).join(", ")}`;
    warn(`no schema "${written.name}" in components.schemas of ${where}${near !== undefined ? ` (did you mean "${near}"?)` : ""}: the page shows no schema`);
  }
  return out;
}

/** Phase 5: an MDX page and a generated page for one operation. `x-svc.href` names the
 *  operation's page: when that is the MDX page, navigation points at it and nothing is
 *  generated; anywhere else, both pages stand by choice. An MDX page at the generated page's
 *  own path, or in its index form (`<path>/index.mdx`, which takes the path as `<path>.mdx`
 *  does), takes it as phase 6 says, without a warning (returned: the path, and for the index
 *  form the file, which must be the one taking the path). Otherwise both stand, with a warning. */
function resolveFrontMatterConflicts(
  frontMatter: ReadonlyMap<string, FrontMatterOperation>,
  documenting: readonly FrontMatterOperation[],
  table: PageTable,
  explicit: ExplicitEntries,
  diagnostics: Diagnostic[],
  pageGroups: PlanInput["pageGroups"],
): Map<string, string | undefined> {
  const ownPaths = new Map<string, string | undefined>();
  const narrowed = pageGroups === undefined ? new Map<string, { readonly groups: readonly string[] }>() : documentingGroups(documenting, (fm) => pageGroups(fm.file));
  for (const fm of frontMatter.values()) {
    const generated = table.byItem.get(itemKey({ kind: "operation", spec: fm.spec, operation: fm.operation }));
    if (generated === undefined) continue;
    const href = fm.operation.extension?.href;
    if (href === undefined && generated === fm.pagePath.toLowerCase()) {
      // At the very path the page would be generated at (formbricks' v1 reference: the files a
      // scrape of the spec wrote, beside a tab whose `openapi` generates the same paths): the
      // file takes the path as any file does (phase 6: in navigation at the generated page's
      // place, the generated page behind it for readers who may not read the file), and being
      // the operation's own page, without a warning.
      ownPaths.set(generated, undefined);
      continue;
    }
    if (href === undefined && indexPathOf(generated) === fm.pagePath.toLowerCase()) {
      // Its index form takes the path the same way (phase 6, adversary round 47 F8), and is the
      // operation's own page the same way (adversary round 49 F3): unless a `<path>.mdx` beside
      // it is the file taking the path, which documents nothing here.
      if (!ownPaths.has(generated)) ownPaths.set(generated, fm.file);
      continue;
    }
    if (href !== undefined) {
      if (hrefToPagePath(href) !== fm.pagePath.toLowerCase()) continue;
      table.pages.delete(generated);
      const { nav, entries } = explicit;
      for (let i = 0; i < nav.length; i++) {
        const item = nav[i] as ApiNavItem;
        if (item.pagePath === generated) nav[i] = { ...item, pagePath: fm.pagePath };
      }
      for (const [k, v] of entries) if (v.kind === "api-page" && v.pagePath === generated) entries.set(k, { ...v, pagePath: fm.pagePath });
      continue;
    }
    const where = explicit.nav.find((n) => n.pagePath === generated);
    const groups = pageGroups?.(fm.file) !== undefined ? narrowed.get(operationKey(fm.spec.source, fm.operation))?.groups : undefined;
    // The generated page takes the documenting pages' rule (`documentingGroups`): say so.
    const restricted = groups !== undefined ? `; until then the generated page is restricted as ${fm.file} is (groups: ${groups.join(", ")})` : "";
    // A warning: both pages stand and the hosted platform builds both (formbricks' deployed
    // site has five such operations), so nothing of the site breaks; the generated page cannot
    // widen who reads the operation, since it takes the MDX page's groups.
    diagnostics.push({
      severity: "warning",
      file: "docs.json",
      ...(where !== undefined ? { path: where.entry ?? where.element } : {}),
      message:
        `${operationLabel(fm.operation)} (${fm.spec.source}) has two pages: the generated ${generated} and ${fm.file} ` +
        `(front matter openapi); remove one, or set "x-svc": {"href": ...} on the operation to point its page elsewhere${restricted}`,
      code: API_CODES.twoPages,
    });
  }
  return ownPaths;
}

/**
 * Phase 5b: a channel with a generated page and a channel page (front matter `asyncapi`), as
 * phase 5 says of an operation, and a warning as there: a channel's page path takes no
 * `x-svc.href`, so there is no way to keep both by choice, and both show the channel as its
 * own rule allows (the generated page is not restricted by the MDX page's groups: the channel
 * page shows the channel only when every reader of it may read the channel anyway).
 */
function reportChannelTwoPages(channels: ReadonlyMap<string, FrontMatterChannel>, refs: readonly FrontMatterChannelReference[], table: PageTable, diagnostics: Diagnostic[]): void {
  for (const fm of channels.values()) {
    const generated = table.byItem.get(itemKey({ kind: "channel", spec: fm.spec, channel: fm.channel }));
    if (generated === undefined || !table.pages.has(generated)) continue;
    const ref = refs.find((r) => r.pagePath === fm.pagePath);
    const file = ref?.file ?? `${fm.pagePath.slice(1)}.mdx`;
    diagnostics.push({
      severity: "warning",
      file,
      ...(ref?.line !== undefined ? { line: ref.line } : {}),
      path: "asyncapi",
      message: `channel ${fm.channel.id} (${fm.spec.source}) has two pages: the generated ${generated} and ${file} (front matter asyncapi); both show the channel: remove one (the page, or the spec from docs.json's navigation) to keep one`,
      code: API_CODES.twoPages,
    });
  }
}

/**
 * Phase 6: a real file at a generated page's path wins; say so (its URL would otherwise be
 * ambiguous). For readers who may not read the file it does not exist, so the generated page
 * is theirs: returned to stand behind the file. A `<path>/index` file takes the path as the
 * path's own file does (navigation's `<path>` is its page), and the generated page stands
 * behind it alike: left out, it was withdrawn from every reader of its operation, and its
 * readers then told by its absence that a file they may not read stands there (adversary round 47 F8).
 */
function putBehindTakenPaths(input: PlanInput, table: PageTable, diagnostics: Diagnostic[], ownPaths: ReadonlyMap<string, string | undefined>): PlannedApiPage[] {
  const behind: PlannedApiPage[] = [];
  for (const [path, page] of table.pages) {
    if (!input.pageExists(path)) continue;
    table.pages.delete(path);
    behind.push(page);
    const file = input.takingFile?.(path) ?? `${path.slice(1)}.mdx`;
    // The file documents this very operation (front matter `openapi`): nothing to say. An index
    // file documenting it says nothing of a `<path>.mdx` beside it, which takes the path first.
    const own = ownPaths.get(path);
    if (ownPaths.has(path) && (own === undefined || own === file)) continue;
    diagnostics.push({
      severity: "warning",
      file,
      message: `this file takes the path of the generated page for ${itemLabel(page.item)}; readers who may not read the file get the generated page`,
      code: API_CODES.pageTaken,
    });
  }
  return behind;
}

function itemKey(item: ApiPageItem): string {
  return item.kind === "operation"
    ? `${item.spec.source}\u0000${operationLabel(item.operation)}`
    : `${item.spec.source}\u0000channel\u0000${item.channel.id}`;
}

function itemLabel(item: ApiPageItem): string {
  return item.kind === "operation" ? `${operationLabel(item.operation)} (${item.spec.source})` : `channel ${item.channel.id} (${item.spec.source})`;
}

/** The `directory` of the element that declares `source` for this element (own or above). */
function directoryFor(el: NavSpecElement, refs: NavSpecReferences, key: "openapi" | "asyncapi", source: string): string | undefined {
  const own = key === "openapi" ? el.openapi : el.asyncapi;
  const hit = own.find((s) => s.source === source);
  if (hit !== undefined) return hit.directory;
  // Named explicitly in the entry: the first place docs.json declares it with a directory.
  for (const other of refs.elements) {
    const d = (key === "openapi" ? other.ownOpenapi : other.ownAsyncapi)?.find((s) => s.source === source)?.directory;
    if (d !== undefined) return d;
  }
  return undefined;
}

function matchChannel(value: string, el: NavSpecElement, asyncSpecs: ReadonlyMap<string, AsyncSpec>): { spec: AsyncSpec; channel: AsyncChannel } | undefined {
  if (el.asyncapi.length === 0 && asyncSpecs.size === 0) return undefined;
  const parts = value.trim().split(/\s+/);
  let candidates: string[];
  let id: string;
  if (parts.length === 2) {
    const named = resolveSpecName(parts[0] as string, [...asyncSpecs.keys()]);
    if (named === undefined) return undefined;
    candidates = [named];
    id = parts[1] as string;
  } else if (parts.length === 1 && el.asyncapi.length === 1) {
    candidates = [(el.asyncapi[0] as SpecSource).source];
    id = parts[0] as string;
  } else {
    return undefined;
  }
  for (const c of candidates) {
    const spec = asyncSpecs.get(c);
    const channel = spec?.channels.find((ch) => ch.id === id);
    if (spec !== undefined && channel !== undefined) return { spec, channel };
  }
  return undefined;
}

/** The JSON path where docs.json first names each source (for load-failure messages). */
function firstReferencePaths(refs: NavSpecReferences): Map<string, string> {
  const out = new Map<string, string>();
  const note = (sources: readonly SpecSource[] | undefined, path: string): void => {
    sources?.forEach((s) => {
      if (!out.has(s.source)) out.set(s.source, s.index !== undefined ? `${path}[${s.index}]` : path);
    });
  };
  for (const el of refs.elements) {
    note(el.ownOpenapi, `${el.path}.openapi`);
    note(el.ownAsyncapi, `${el.path}.asyncapi`);
  }
  note(refs.siteOpenapi, "api.openapi");
  note(refs.siteAsyncapi, "api.asyncapi");
  for (const el of refs.elements) {
    for (const e of el.entries) {
      const f = parseOperationEntry(e.value)?.file;
      if (f !== undefined && !out.has(f.replace(/^(\.\/)+|^\/+/g, ""))) out.set(f.replace(/^(\.\/)+|^\/+/g, ""), e.path);
    }
  }
  return out;
}

/** For pages listed in navigation: the OpenAPI specs in effect where they are listed. */
function pageDefaultSpecs(refs: NavSpecReferences, specs: ReadonlyMap<string, ApiSpec>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const el of refs.elements) {
    if (el.openapi.length === 0) continue;
    for (const e of el.entries) {
      if (parseOperationEntry(e.value) !== undefined) continue;
      const p = toPagePath(e.value);
      if (!out.has(p)) out.set(p, el.openapi.map((s) => s.source).filter((s) => specs.has(s) || true));
    }
  }
  return out;
}

/** Whether a front matter spec name leaves the repository, from the root (`/x`) or from the
 *  page's folder (`x`), as `frontMatterSpecFile` looks (a URL is not a path: it does not). */
function leavesRepository(written: string, pageFile: string): boolean {
  const name = written.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(name)) return false;
  const outside = (rel: string): boolean => rel === ".." || rel.startsWith("../");
  const fromRoot = posix.normalize(name.replace(/^\/+/, ""));
  return name.startsWith("/") ? outside(fromRoot) : outside(posix.normalize(posix.join(posix.dirname(pageFile), name))) && outside(fromRoot);
}
