/**
 * Where an API description comes from, as docs.json writes it on a navigation element (or at
 * `api.openapi`): a path string, a URL, a `{source, directory}` object, or an array of these.
 */
export interface SpecSource {
  /** Repository-relative path without a leading `./` or `/` (`api/openapi.yaml`), or a URL. */
  readonly source: string;
  /** True for an http(s) URL: fetched only when the caller allows it (see docs/api-reference.md). */
  readonly remote: boolean;
  /** `{source, directory}`: the folder generated pages go into (`api-reference/store-api`). */
  readonly directory?: string;
}

export type SpecSourceResult =
  | { readonly ok: true; readonly sources: readonly SpecSource[] }
  | { readonly ok: false; readonly message: string };

const REMOTE = /^https?:\/\//i;

/** Repository-relative form of a local spec path: `./api/x.yaml` and `/api/x.yaml` are `api/x.yaml`. */
export function normalizeSpecPath(source: string): string {
  const s = source.trim();
  if (REMOTE.test(s)) return s;
  return s.replace(/^(\.\/)+/, "").replace(/^\/+/, "");
}

/** Read an `openapi`/`asyncapi` value. A wrong shape is a result with a message, never a throw. */
export function readSpecSources(value: unknown): SpecSourceResult {
  const items = Array.isArray(value) ? value : [value];
  const sources: SpecSource[] = [];
  for (const item of items) {
    if (typeof item === "string") {
      if (item.trim() === "") return { ok: false, message: "must not be empty" };
      sources.push(make(item, undefined));
      continue;
    }
    if (typeof item === "object" && item !== null && !Array.isArray(item)) {
      const obj = item as Record<string, unknown>;
      if (typeof obj.source !== "string" || obj.source.trim() === "") {
        return { ok: false, message: `"source" is required and must be a path or URL` };
      }
      if (obj.directory !== undefined && typeof obj.directory !== "string") {
        return { ok: false, message: `"directory" must be a string` };
      }
      sources.push(make(obj.source, obj.directory));
      continue;
    }
    return { ok: false, message: "must be a path, a URL, or an object with \"source\" (and optional \"directory\")" };
  }
  return { ok: true, sources };
}

function make(source: string, directory: string | undefined): SpecSource {
  const s = normalizeSpecPath(source);
  const dir = directory === undefined ? undefined : directory.trim().replace(/^\/+|\/+$/g, "");
  return {
    source: s,
    remote: REMOTE.test(s),
    ...(dir !== undefined && dir !== "" ? { directory: dir } : {}),
  };
}
