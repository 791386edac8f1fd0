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
  /** Its index in an array of several entries as written (findings point at `openapi[i]`, also
   *  when an entry before it could not be read); absent for a single value or a one-entry array. */
  readonly index?: number;
}

/** What an `openapi`/`asyncapi` value names, and what in it cannot be read. */
export interface SpecSourceRead {
  /** The sources that can be read (for an array: every good entry, in order). */
  readonly sources: readonly SpecSource[];
  /** One per entry that cannot be read (`index` in the array; absent for a single value). */
  readonly problems: readonly { readonly index?: number; readonly message: string }[];
}

const REMOTE = /^https?:\/\//i;

/** Whether a spec source is a URL (fetched, never a repository file). */
export function isRemoteSpec(source: string): boolean {
  return REMOTE.test(source.trim());
}

/** Repository-relative form of a local spec path: `./api/x.yaml` and `/api/x.yaml` are `api/x.yaml`. */
export function normalizeSpecPath(source: string): string {
  const s = source.trim();
  if (REMOTE.test(s)) return s;
  return s.replace(/^(\.\/)+/, "").replace(/^\/+/, "");
}

/**
 * Read an `openapi`/`asyncapi` value. A wrong shape is a problem in the result, never a throw;
 * in an array, a bad entry costs only itself (as in a page list): the others are read.
 */
export function readSpecSources(value: unknown): SpecSourceRead {
  if (!Array.isArray(value)) {
    const one = readOne(value);
    return "message" in one ? { sources: [], problems: [{ message: one.message }] } : { sources: [one], problems: [] };
  }
  const sources: SpecSource[] = [];
  const problems: { index: number; message: string }[] = [];
  value.forEach((item: unknown, index) => {
    const one = readOne(item);
    if ("message" in one) problems.push({ index, message: one.message });
    else sources.push(value.length > 1 ? { ...one, index } : one);
  });
  return { sources, problems };
}

function readOne(item: unknown): SpecSource | { readonly message: string } {
  if (typeof item === "string") return item.trim() === "" ? { message: "must not be empty" } : make(item, undefined);
  if (typeof item === "object" && item !== null && !Array.isArray(item)) {
    const obj = item as Record<string, unknown>;
    if (typeof obj.source !== "string" || obj.source.trim() === "") return { message: `"source" is required and must be a path or URL` };
    if (obj.directory !== undefined && typeof obj.directory !== "string") return { message: `"directory" must be a string` };
    return make(obj.source, obj.directory);
  }
  return { message: "must be a path, a URL, or an object with \"source\" (and optional \"directory\")" };
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
