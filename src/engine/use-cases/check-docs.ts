import type { Diagnostic } from "../../config/diagnostic.js";
import { API_CODES } from "../../config/openapi/api-codes.js";
import { cutText, type PageCut } from "../../config/openapi/render-page.js";
import type { LoadedSite } from "../../vfs/load-site.js";
import { sortDiagnostics } from "../../config/docs-json/validate.js";
import { checkSite } from "../../vfs/check-site.js";
import { renderFindings } from "../render/component-findings.js";
import type { RepositoryContext } from "./repository-context.js";

/** What `check` found: every finding (sorted, each with its code) and what was checked. */
export interface CheckReport {
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: number;
  readonly warnings: number;
  /** docs.json and its `$ref` files, repository-relative. */
  readonly files: readonly string[];
  /** Whether the repository has a docs.json at all (or a mint.json, read as one). */
  readonly docsJson: boolean;
  /** The configuration file read: docs.json, or mint.json in a repository without one. */
  readonly configFile: string;
  /** Pages from files, and pages generated from API specs. */
  readonly pages: number;
  readonly generatedPages: number;
}

/**
 * Check a repository as its author sees it: docs.json (and its `$ref`s) against the pages on
 * disk, the pages' front matter, the API specs, and what the preview cannot render of each page
 * (`renderFindings`). Never an argument issue: a problem of the
 * repository is a finding, and the verdict is `errors === 0`.
 */
export async function checkDocs(context: RepositoryContext): Promise<CheckReport> {
  const result = await checkSite(context.root, { ...(context.load !== undefined ? { load: context.load } : {}), ...(context.named !== undefined ? { named: context.named } : {}) });
  const site = result.loaded.site;
  const all = [...site.pages.values()];
  const pages = all.filter((p) => !p.generated).length;
  // How each page renders in the preview: MDX it cannot read, components it does not know.
  const rendering = all
    .filter((p) => !p.generated)
    .map((p) => p.authored ?? p)
    .flatMap((p) => renderFindings(p.file.path.slice(1), p.body, p.bodyLine, (path) => site.files.has(path)));
  appendCut(rendering, site);
  const diagnostics = rendering.length === 0 ? result.diagnostics : sortDiagnostics([...result.diagnostics, ...rendering], result.docs.files);
  return {
    diagnostics,
    errors: result.errors,
    warnings: result.warnings + rendering.length,
    files: result.docs.files,
    docsJson: result.docs.config?.present !== false,
    configFile: result.docs.mint?.file ?? "docs.json",
    pages,
    generatedPages: all.length - pages,
  };
}

/** `check`'s words for a cut page, as its note says it (`cutNote`): schemas, or only text. */
function cutWarning(path: string, what: string, cut: PageCut): string {
  const head = `the page ${path} of ${what} is cut at ${cut.max} schema nodes`;
  if (cut.parts.includes("schemas")) return `${head}: its schemas reach each other in more ways than one page shows (some fields, types and example values are left out, and the page says so)`;
  const text = cutText(cut.parts);
  return `${head}' worth of text: ${text.what} are longer than one page shows (${text.effect}, and the page says so)`;
}

/**
 * A warning for each API page cut at its schema budget (`SchemaBudget`): the author learns which
 * operation's page does not show its schemas whole, at the spec (a generated page) or the page
 * (one documenting an operation or a schema). Rendering every API page to know costs at most each
 * page's budget (spree's 706 pages: ~250 ms).
 */
function appendCut(findings: Diagnostic[], site: LoadedSite["site"]): void {
  // A page behind another at its path (`x.md` behind `x.mdx`) is some readers' page: its cut too.
  const behindOthers = [...(site.shadowed?.values() ?? [])].flat().filter((p) => !p.generated);
  for (const p of [...site.pages.values(), ...behindOthers]) {
    const cut = p.schemaCut?.();
    if (cut === undefined) continue;
    const info = site.pages.get(p.path) === p ? site.api?.pages.get(p.path) : site.api?.hidden?.pages.get(p.file.path);
    const what = info === undefined ? "its schema" : info.kind === "channel" ? `channel ${info.path}` : `${info.method} ${info.path}`;
    findings.push({
      severity: "warning",
      file: info?.generated === true ? info.source : (p.authored ?? p).file.path.slice(1),
      message: cutWarning(p.path, what, cut),
      code: API_CODES.pageCut,
    });
  }
}
