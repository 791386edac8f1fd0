import type { Diagnostic, DiagnosticSubject } from "../config/diagnostic.js";
import { readablePage } from "../vfs/outline.js";
import { mayRead, type RequestContext } from "../vfs/request-context.js";
import type { Site } from "../vfs/site.js";

type DiagnosticSite = Pick<Site, "pages" | "shadowed" | "files" | "variants">;

/**
 * The reload diagnostics a reader may be sent as log messages: deny by default. A finding names
 * files, navigation (docs.json: tabs, versions, groups, their settings and positions) and spec
 * operations, restricted ones included, in its file, its position and its message; only the
 * finding's maker knows all it names. So a finding reaches a reader only when
 * - it declares its subjects (`Diagnostic.subjects`: everything its text names) and the reader
 *   reads each of them whole (a file they may read, with no part restricted from them; a
 *   finding declaring none names nothing of the site, as docs.json without `navigation`), or
 * - the reader may read the whole site (every file whole, every page), so it names nothing of
 *   theirs to withhold.
 * A finding quoting its file's new text is sent to a reader of its subjects without the quote
 * (`Diagnostic.plain`): the reader may read the last good file, not necessarily the new one.
 * A finding that declares nothing (a new kind, docs.json's, a spec's) reaches no restricted
 * reader: it cannot leak by omission (adversary round 12 F1, F1b, F2, F4; before, a message was
 * searched for restricted page paths, and `./preview/feature`, a staff-only version's name, a
 * restricted operation or a staff folder's file went through). The file's own log (stderr) keeps
 * every line.
 */
export function readerDiagnostics(site: DiagnosticSite, context: RequestContext, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (diagnostics.length === 0) return [];
  if (readsWholeSite(site, context)) return [...diagnostics];
  return diagnostics.filter((d) => d.subjects !== undefined && d.subjects.every((s) => readsWhole(site, context, s))).map(withoutQuotes);
}

/** A finding as a reader who may not read the whole site gets it: without words quoted from its file's new text (`Diagnostic.plain`). */
function withoutQuotes(d: Diagnostic): Diagnostic {
  if (d.plain === undefined) return d;
  const { plain, skipped: _words, ...rest } = d;
  return { ...rest, message: plain };
}

/** Whether the reader may read this file, every part of it (no restricted operation or import cut out). */
function readsWhole(site: DiagnosticSite, context: RequestContext, subject: DiagnosticSubject): boolean {
  const path = `/${subject.file}`;
  const file = site.files.get(path);
  if (file === undefined || !mayRead(context, file.access)) return false;
  const variants = site.variants?.get(path);
  return variants === undefined || variants.rules.every((rule) => mayRead(context, rule));
}

/** Whether the reader may read every file whole and every page (generated API pages, and pages another file shadows, included). */
function readsWholeSite(site: DiagnosticSite, context: RequestContext): boolean {
  for (const path of site.files.keys()) if (!readsWhole(site, context, { file: path.slice(1) })) return false;
  const readable = readablePage(site, context);
  for (const path of site.pages.keys()) if (!readable(path)) return false;
  for (const [path, pages] of site.shadowed ?? []) {
    if (!readable(path)) return false;
    if (pages.some((page) => !mayRead(context, page.file.access))) return false;
  }
  return true;
}
