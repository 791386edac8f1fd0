import type { Diagnostic } from "../config/diagnostic.js";
import { readablePage } from "../vfs/outline.js";
import type { RequestContext } from "../vfs/request-context.js";
import type { Site } from "../vfs/site.js";

/**
 * The reload diagnostics a reader may be sent as log messages: none about a file whose page they
 * may not read, nor naming one (docs.json's `page "internal/secret-plan" is listed twice`), by
 * its page path or its file's. A diagnostic names files by repository path, restricted ones
 * included; over stdio the reader is the public one unless `--groups` says otherwise, and what
 * they may not read never reaches them (adversary round 11 F3). The file's own log (stderr)
 * keeps every line.
 */
export function readerDiagnostics(site: Pick<Site, "pages" | "shadowed">, context: RequestContext, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (diagnostics.length === 0) return [];
  const readable = readablePage(site, context);
  const hidden = new Set<string>();
  for (const [path, page] of site.pages) {
    if (readable(path)) continue;
    hidden.add(path.slice(1));
    hidden.add(page.file.path.slice(1));
  }
  if (hidden.size === 0) return [...diagnostics];
  return diagnostics.filter((d) => !hidden.has(d.file) && ![...hidden].some((rel) => namesPath(d.message, rel)));
}

/** Whether `message` names `rel` as a whole path (not `guides/a` inside `guides/ab`). */
function namesPath(message: string, rel: string): boolean {
  let at = message.indexOf(rel);
  while (at >= 0) {
    const before = message[at - 1];
    const after = message[at + rel.length];
    if ((before === undefined || !PATH_CHAR.test(before)) && (after === undefined || !PATH_CHAR.test(after) || after === ".")) return true;
    at = message.indexOf(rel, at + 1);
  }
  return false;
}

const PATH_CHAR = /[\w./-]/;
