import { visibleText } from "./visible-text.js";

/**
 * A finding about the repository: a broken docs.json, a page that failed to parse, a spec that
 * cannot be read. Errors stop `svc-mcp check`; warnings are reported and never block serving.
 */
export interface Diagnostic {
  readonly severity: "error" | "warning";
  /** Repository-relative file the finding is about (`docs.json`, `guides/setup.mdx`). */
  readonly file: string;
  /** 1-based position in that file, when known. */
  readonly line?: number;
  readonly column?: number;
  /** JSON path inside a JSON file (`navigation.tabs[0].groups[2]`), when it applies. */
  readonly path?: string;
  readonly message: string;
  /** Stable identifier of the rule that found it (`required`, `page-file`, ...), for machines
   *  (`svc-mcp check --json`) and for the list of checks in docs/docs-json.md. */
  readonly code: string;
  /** For a spec that could not be loaded (`api-spec`), the spec's source as docs.json names it:
   *  the finding may sit at docs.json, where the source is only in the message's words. */
  readonly spec?: string;
  /** For a file or folder the loader does not serve (a page it cannot read, a link it does not
   *  follow), why: the words after `skipped: ` in the message, so callers that say why a page is
   *  missing (`check`'s "page not found" findings) never take the message apart. */
  readonly skipped?: string;
  /**
   * Everything the finding names, its text included (file, position, message), declared where it
   * is made: what decides which readers may be sent it (`readerDiagnostics`). Absent, the finding
   * is sent only to a reader who may read the whole site: a new kind that declares nothing can
   * reach no restricted reader by omission (adversary round 12 F1-F4). Empty: it names nothing
   * of the site (a schema key, fixed words).
   */
  readonly subjects?: readonly DiagnosticSubject[];
  /**
   * The message without the words it quotes from its file's new text (a front-matter parser's
   * words quote the line it failed on): what a reader of its subjects who may not read the whole
   * site is sent instead. Who may read a file is decided by its last good version, which a broken
   * edit keeps serving; the new text may restrict it (`groups: [staff]` beside the error), so
   * its words go only to readers of the whole site (adversary round 57 F1).
   */
  readonly plain?: string;
}

/** A file a finding names, by repository path: named only to readers who read it whole (every part of it). */
export interface DiagnosticSubject {
  readonly file: string;
}

/**
 * One compiler-style line: `docs.json:12:7 navigation.tabs[0]: "group" is required`, or without
 * a JSON path `guides/a.mdx warning: page is not in the navigation`. Errors carry no label
 * (as in the example); warnings say so.
 */
export function formatDiagnostic(d: Diagnostic): string {
  let where = visibleText(d.file);
  if (d.line !== undefined) where += `:${d.line}`;
  if (d.line !== undefined && d.column !== undefined) where += `:${d.column}`;
  const severity = d.severity === "warning" ? "warning: " : "";
  const path = d.path !== undefined && d.path !== "" ? ` ${visibleText(d.path)}:` : "";
  // The message too: it quotes file names and values from the repository.
  return `${where}${path} ${severity}${visibleText(d.message)}`;
}
