import { normalizeSpecPath } from "../openapi/spec-source.js";
import { childPath } from "./json-path.js";

/** One spec file named by an `openapi` / `asyncapi` value, in a form easy to load. */
export interface SpecSource {
  /** As written in docs.json. */
  readonly raw: string;
  /** Repository-relative path (leading `./` and `/` removed) of a local file, or the URL. */
  readonly source: string;
  /** True when `source` is an http(s) URL (never fetched unless the user asks). */
  readonly remote: boolean;
  /** `{source, directory}`: the folder generated operation pages go in. */
  readonly directory?: string;
  /** JSON path of this source (`navigation.tabs[1].openapi`, `api.openapi[0]`, `....openapi.source`). */
  readonly path: string;
}

const URL_RE = /^https?:\/\//i;

/**
 * The sources an `openapi` / `asyncapi` value names: a string, a `{source, directory}` object, or
 * an array of either. Malformed parts are skipped (the schema reports them).
 */
export function specSources(value: unknown, path: string): SpecSource[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => (Array.isArray(v) ? [] : specSources(v, childPath(path, i))));
  if (typeof value === "string") {
    if (value.trim() === "") return [];
    return [{ raw: value, source: normalizeSpecPath(value), remote: URL_RE.test(value.trim()), path }];
  }
  if (value !== null && typeof value === "object") {
    const { source, directory } = value as { source?: unknown; directory?: unknown };
    if (typeof source !== "string" || source.trim() === "") return [];
    return [
      {
        raw: source,
        source: normalizeSpecPath(source),
        remote: URL_RE.test(source.trim()),
        ...(typeof directory === "string" && directory.trim() !== "" ? { directory: directory.trim().replace(/^\/+|\/+$/g, "") } : {}),
        path: childPath(path, "source"),
      },
    ];
  }
  return [];
}
