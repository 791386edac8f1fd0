import { basename } from "node:path";
import type { Diagnostic } from "./diagnostic.js";
import type { ResolveEntry } from "./docs-json/entries.js";
import type { NavModel } from "./docs-json/nav-model.js";
import { fileReader, type ReadText, type ResolvedJson, resolveJsonRefs } from "./docs-json/refs.js";
import type { PageFiles } from "./docs-json/rules/rule.js";
import type { ReadableDocsJson } from "./docs-json/readable.js";
import { readSiteConfig } from "./read-site-config.js";
import { asDocsJson, mintDiagnostics, writtenAt } from "./mint-json/mint-json-source.js";
import { MINT_JSON, type UpgradedMintJson } from "./mint-json/upgrade-mint-json.js";
import { emptySiteConfig, type SiteConfig } from "./site-config.js";
import { type Between, stagesBetween } from "./stages.js";
import type { IgnoreRules } from "./ignore-rule-set.js";
import { loadIgnoreRules } from "./ignore-rules.js";

export const DOCS_JSON = "docs.json";

export interface DocsJsonResult {
  /** The configuration, read from what can be read of docs.json (a problem in one element costs
   *  that element only); undefined when docs.json exists but cannot be read as a whole (it does
   *  not parse, or leaves no navigation): the caller keeps the last good configuration. */
  readonly config: SiteConfig | undefined;
  /** docs.json as parsed, `$ref`s resolved (also when invalid), for readers of parts the flat
   *  config leaves out, like the API reference. */
  readonly raw?: unknown;
  /** Every problem found, at once, with JSON path and position. */
  readonly diagnostics: readonly Diagnostic[];
  /** Repository-relative files the configuration was read from (docs.json and every `$ref`'d
   *  file, also one that is missing), so the watcher knows which changes mean "reload". */
  readonly files: readonly string[];
  /** The real files of those read through a link inside the root (watched as config files too). */
  readonly linkTargets: readonly string[];
  /** The `$ref`'d files (not docs.json) that were read and parsed (`ResolvedJson.readFiles`):
   *  those whose breaking later keeps this configuration. Absent: none known. */
  readonly refsRead?: readonly string[];
  /** docs.json as the service reads it (see `Validation.document`), when it can be read. */
  readonly document?: ReadableDocsJson;
  /** The navigation tree: of `document`, else of docs.json as written (`check` reads it). */
  readonly model?: NavModel;
  /** docs.json as read, with positions (absent when there is no docs.json). */
  readonly source?: ResolvedJson;
  /** Set when the configuration was read from a mint.json (no docs.json): what docs.json's paths
   *  were written as there, for findings made after reading (`check`'s API findings). */
  readonly mint?: { readonly file: string; readonly writtenAt: (path: string) => string };
}

export interface LoadDocsJsonOptions {
  /** The repository's page files: also run the rules that need them (`svc-mcp check`). */
  readonly files?: PageFiles;
  readonly resolveEntry?: ResolveEntry;
  /** The repository's ignore rules, when the caller has them; default: read from `root`. */
  readonly ignore?: IgnoreRules;
  /** How files are read (tests); default: from `root`, with the size limit and the ignore rules. */
  readonly read?: ReadText;
  /** Awaited between the stages of the reading (`$ref`s resolved, the schema, each rule, the
   *  configuration read), each named "docs.json <stage>": a reload while serving gives the thread
   *  back there (`ReloadSlices.stage`). Default: every stage at once. */
  readonly between?: Between;
}

/**
 * Load docs.json from a repository root: resolve `$ref`s, validate (schema and rules), and build
 * the flat configuration from what can be read. A missing docs.json yields the empty
 * configuration; one that cannot be read as a whole yields no configuration and every problem.
 */
export async function loadDocsJson(root: string, options: LoadDocsJsonOptions = {}): Promise<DocsJsonResult> {
  const read = options.read ?? fileReader(root, options.ignore ?? loadIgnoreRules(root));
  const between = options.between;
  const named: Between | undefined = between !== undefined ? (stage) => between(`docs.json ${stage}`) : undefined;
  let source = await resolveJsonRefs(DOCS_JSON, read, named);
  let mint: UpgradedMintJson | undefined;
  let mintSource: ResolvedJson | undefined;
  if (source.rootMissing) {
    // A repository older than docs.json is read from its mint.json, as the platform reads it.
    const older = await resolveJsonRefs(MINT_JSON, read, named);
    // Either file created later reloads the configuration.
    if (older.rootMissing) return { config: emptySiteConfig(basename(root)), diagnostics: [], files: [DOCS_JSON, MINT_JSON], linkTargets: [] };
    ({ source, mint } = asDocsJson(older));
    mintSource = older;
  }
  await named?.("$refs resolved");

  // Loaded when a docs.json is read, not at import: its zod schema takes ~15-25 ms of CPU to
  // build, which a start from the persistent cache (docs.json unchanged, not read) never uses (issue 22).
  const { validationStages } = await import("./docs-json/validate.js");
  const validation = await stagesBetween(
    validationStages(source, {
      ...(options.files !== undefined ? { files: options.files } : {}),
      ...(options.resolveEntry !== undefined ? { resolveEntry: options.resolveEntry } : {}),
    }),
    named,
  );
  const diagnostics = mint === undefined || mintSource === undefined ? validation.diagnostics : mintDiagnostics(validation.diagnostics, mint, mintSource);
  const origins = mint?.origins;
  const older = origins !== undefined ? { mint: { file: MINT_JSON, writtenAt: (path: string) => writtenAt(path, origins) } } : {};
  const base = { raw: source.value, diagnostics, files: source.files, linkTargets: source.linkTargets, refsRead: source.readFiles, model: validation.model, source, ...older };
  if (validation.document === undefined) return { ...base, config: undefined };
  const config = readSiteConfig(validation.document, basename(root), {
    model: validation.model,
    document: validation.document,
    ...(options.resolveEntry !== undefined ? { resolveEntry: options.resolveEntry } : {}),
  });
  await named?.("configuration read");
  return { ...base, config: mint === undefined ? config : { ...config, olderFormat: MINT_JSON }, document: validation.document };
}
