import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Diagnostic } from "./diagnostic.js";
import { readSiteConfig } from "./read-site-config.js";
import { emptySiteConfig, type SiteConfig } from "./site-config.js";

export const DOCS_JSON = "docs.json";

export interface DocsJsonResult {
  /** The configuration; undefined when docs.json exists but cannot be read or parsed. */
  readonly config: SiteConfig | undefined;
  /** The parsed JSON (for readers of parts the flat config leaves out, like the API reference). */
  readonly raw?: unknown;
  readonly diagnostics: readonly Diagnostic[];
  /** Repository-relative files the configuration was read from (docs.json and its `$ref`s),
   *  so the watcher knows which changes mean "reload the configuration". */
  readonly files: readonly string[];
}

/** Load docs.json from a repository root. A missing file yields the empty configuration. */
export async function loadDocsJson(root: string): Promise<DocsJsonResult> {
  let text: string;
  try {
    text = await readFile(join(root, DOCS_JSON), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { config: emptySiteConfig(basename(root)), diagnostics: [], files: [DOCS_JSON] };
    }
    return {
      config: undefined,
      diagnostics: [{ severity: "error", file: DOCS_JSON, message: `cannot read: ${(error as Error).message}` }],
      files: [DOCS_JSON],
    };
  }
  try {
    const raw: unknown = JSON.parse(text);
    return { config: readSiteConfig(raw, basename(root)), raw, diagnostics: [], files: [DOCS_JSON] };
  } catch (error) {
    return {
      config: undefined,
      diagnostics: [{ severity: "error", file: DOCS_JSON, message: `invalid JSON: ${(error as Error).message}` }],
      files: [DOCS_JSON],
    };
  }
}
