import { dataJson } from "../config/finite-data.js";
import { frontMatterBlock, type PageParts, type RenderedReference } from "../config/openapi/render-page.js";
import { readPageMeta } from "../config/page-meta.js";
import { type Access, accessOfMeta } from "./access.js";
import type { Page } from "./page.js";
import { byteLength, type SiteFile } from "./site-file.js";

/**
 * The time of a mounted spec file as the readers of a page see it: the time of the parts every
 * reader of `access` may read (`FileVariants.timeFor`), so an edit to a restricted operation
 * does not move the date of public pages. Filled in by the loader once the snapshot's variants
 * are built (after the pages that ask); undefined for a spec with no file (a remote one).
 */
export interface SpecTimes {
  resolve?: (source: string, access: Access) => Date | undefined;
}

/**
 * A page made from a spec, with what tells whether the next load would make it the same. An edit
 * to one operation of a spec of thousands parses the spec again and makes every page again, and
 * a page that is a new object is a changed page to everything that keeps pages: the search index
 * analysed and indexed each again on the thread that answers callers (10,000 operations, one
 * description edited: every caller held ~5 s). A page whose text comes out the same is kept as
 * the same object, so nothing does it again.
 */
export interface MadePage {
  readonly page: Page;
  /** What the page's text was made from besides its rendered part: the front matter block of a
   *  generated page, the author's page for a reference appended to one. */
  readonly basis: unknown;
  /** The rendered part once something has read it; undefined before, so that telling whether
   *  it changed never costs a render the last load did not need (`check`, `nav`). */
  readonly rendered: () => string | undefined;
}

/**
 * Makes one load's pages from specs (`generateApiPages`), taking the last load's page at a path
 * where its basis is the same and its rendered part comes out the same. A page kept keeps the
 * time its readers saw (pinned when the last load first showed it): a later version of the spec
 * that did not change the page moves nothing a reader of the page sees, as a spec's own variant
 * dates from the version that last changed its text.
 */
export class SpecPageMaker {
  /** This load's pages, by page path (generated) or file path (references): the next load's `previous`. */
  readonly made = new Map<string, MadePage>();

  constructor(
    private readonly previous: ReadonlyMap<string, MadePage>,
    private readonly specTimes: SpecTimes | undefined,
  ) {}

  /** An operation's or channel's own page, its body rendered when first read. */
  generated(pagePath: string, parts: PageParts, source: string, renderKey?: string): Page {
    const basis = frontMatterBlock(parts.frontMatter);
    const kept = this.kept(pagePath, basis, parts.body);
    return this.record(pagePath, kept.page ?? generatedPage(pagePath, parts, basis, this.timeOf(source), kept.rendered, renderKey));
  }

  /** The author's page followed by a reference (an operation's, a schema's, a channel's). */
  withReference(authored: Page, render: () => RenderedReference, source: string): Page {
    let reference: RenderedReference | undefined;
    // By file: a page path holds two pages (`Site.shadowed`), a generated one behind a file too.
    const key = authored.file.path;
    const kept = this.kept(key, authored, () => (reference ??= render()).text);
    return this.record(key, kept.page ?? referencePage(authored, () => (reference ??= render()), this.timeOf(source)));
  }

  /** The last load's page at `key` when it comes out the same; else, when it was compared,
   *  the new rendered part (so a changed page renders once). */
  private kept(key: string, basis: unknown, render: () => string): { page?: MadePage; rendered?: string } {
    const previous = this.previous.get(key);
    if (previous === undefined || previous.basis !== basis) return {};
    const before = previous.rendered();
    if (before === undefined) return {};
    const now = render();
    if (now !== before) return { rendered: now };
    // The time as the last load's readers saw it, read while that load's site is still here.
    void previous.page.file.mtime;
    return { page: previous };
  }

  private record(key: string, made: MadePage): Page {
    this.made.set(key, made);
    return made.page;
  }

  private timeOf(source: string): SpecTime {
    const specTimes = this.specTimes;
    return (access) => {
      if (specTimes === undefined) return null;
      const resolve = specTimes.resolve;
      return resolve === undefined ? undefined : (resolve(source, access) ?? null);
    };
  }
}

/** The spec's time for the readers of `access`: undefined until the load knows it, null when
 *  there is none (a remote spec, or a load with no times). */
type SpecTime = (access: Access) => Date | null | undefined;

/**
 * A time worked out once it is known and kept: the page then holds no reference to the load
 * that made it (a page kept across reloads would otherwise keep each old snapshot alive).
 */
function pinned(time: SpecTime, access: Access, from: (specTime: Date | null) => Date): () => Date {
  let value: Date | undefined;
  let source: SpecTime | undefined = time;
  return () => {
    if (value !== undefined) return value;
    const specTime = source?.(access);
    if (specTime === undefined) return from(null);
    source = undefined;
    return (value = from(specTime));
  };
}

/**
 * A generated page whose body is rendered when something first reads it (search indexing, the
 * shell): `check` and `nav` need only titles and front matter, and rendering spree's 706 pages
 * costs ~250 ms. The front matter is known without rendering: each value is written as JSON, so
 * what a YAML parser reads back is the JSON value (a test compares with parsing the text).
 */
function generatedPage(pagePath: string, parts: PageParts, frontMatterText: string, time: SpecTime, rendered: string | undefined, renderKey: string | undefined): MadePage {
  const frontMatter = frontMatterOf(parts);
  const meta = readPageMeta(frontMatter);
  const access = accessOfMeta(meta);
  // What renders the body holds the whole parsed spec: let go once the body is made, so a page
  // kept across saves holds its strings only, not each version of the spec it was first made
  // from (adversary round 45 F1: one more spec alive per save).
  let make: PageParts | undefined = rendered === undefined ? parts : undefined;
  let body = rendered;
  let cut = rendered === undefined ? undefined : parts.cut();
  let text: string | undefined;
  let size: number | undefined;
  const bodyOf = (): string => {
    if (body === undefined && make !== undefined) {
      body = make.body();
      cut = make.cut();
      make = undefined;
    }
    return body as string;
  };
  const textOf = (): string => (text ??= frontMatterText + bodyOf());
  // The spec file's time as this page's readers see it; the epoch for a spec with no file.
  const mtime = pinned(time, access, (specTime) => specTime ?? GENERATED_MTIME);
  const file: SiteFile = {
    path: `${pagePath}.mdx`,
    get text() {
      return textOf();
    },
    get size() {
      return (size ??= byteLength(textOf()));
    },
    get mtime() {
      return mtime();
    },
    access,
  };
  const page: Page = {
    file,
    path: pagePath,
    title: meta.title ?? pagePath,
    meta,
    frontMatter,
    get body() {
      return bodyOf();
    },
    // The body starts on the line after the closing `---`.
    bodyLine: parts.frontMatter.length + 3,
    generated: true,
    ...(renderKey !== undefined ? { renderKey } : {}),
    schemaCut: () => {
      bodyOf();
      return cut;
    },
  };
  return { page, basis: frontMatterText, rendered: () => body };
}

/** The access rule of the page `parts` make, read from its front matter as the page reads it:
 *  what the load counts the page's schema budget by (`SchemaShares`) before making it. */
export function generatedAccess(parts: PageParts): Access {
  return accessOfMeta(readPageMeta(frontMatterOf(parts)));
}

function frontMatterOf(parts: PageParts): Record<string, unknown> {
  const frontMatter: Record<string, unknown> = {};
  for (const [k, v] of parts.frontMatter) frontMatter[k] = asYamlReadsJson(v);
  return frontMatter;
}

/** The author's page followed by a reference rendered when first read (its size counts both;
 *  its time is the later of the page's and the spec's). */
function referencePage(authored: Page, render: () => RenderedReference, time: SpecTime): MadePage {
  // Let go once rendered, as a generated page's parts are.
  let make: (() => RenderedReference) | undefined = render;
  let reference: RenderedReference | undefined;
  let size: number | undefined;
  const made = (): RenderedReference => {
    if (reference === undefined) {
      reference = (make as () => RenderedReference)();
      make = undefined;
    }
    return reference;
  };
  const referenceOf = (): string => made().text;
  const mtime = pinned(time, authored.file.access, (specTime) => (specTime !== null && specTime > authored.file.mtime ? specTime : authored.file.mtime));
  const file: SiteFile = {
    path: authored.file.path,
    get text() {
      return `${authored.file.text}${separator(authored.file.text)}${referenceOf()}`;
    },
    get size() {
      return (size ??= authored.file.size + byteLength(`${separator(authored.file.text)}${referenceOf()}`));
    },
    get mtime() {
      return mtime();
    },
    access: authored.file.access,
  };
  const page: Page = {
    ...authored,
    file,
    get body() {
      return `${authored.body}${separator(authored.body)}${referenceOf()}`;
    },
    authored,
    schemaCut: () => made().cut,
  };
  return { page, basis: authored, rendered: () => reference?.text };
}

/** A newline before the appended part when the author's text does not end with one. */
function separator(text: string): string {
  return text === "" || text.endsWith("\n") ? "" : "\n";
}

/** A value as YAML reads back its JSON text (`NaN` becomes null, `undefined` keys vanish...). */
function asYamlReadsJson(v: unknown): unknown {
  if (typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v)) || v === null) return v;
  return JSON.parse(dataJson(v)) as unknown;
}

/** A page generated from a spec that has no file (a remote one): the epoch, as `ls -l` shows it. */
const GENERATED_MTIME = new Date(0);
