import { readAsyncapi } from "../asyncapi/read-asyncapi.js";
import type { LoadedApiSpec } from "./load-api-spec.js";
import { readOperations } from "./operations.js";
import { parseDocument } from "./parse-document.js";
import type { Segments } from "./prune-spec.js";

/**
 * The parts of an API description that carry page front matter of their own (`x-svc` or
 * `x-mint` `metadata`: `groups`, `public`...): OpenAPI operations and webhooks, AsyncAPI
 * channels. Who may read each is the reader rule of its page; the mounted spec file leaves
 * out, for each reader, the parts that reader may not read (see `pruneSpec`).
 */
export interface MetadataPart {
  /** `["paths", path, method]`, `["webhooks", name]` or `["channels", id]`. */
  readonly part: Segments;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** The parts of a loaded spec with `metadata`. */
export function metadataParts(spec: LoadedApiSpec): MetadataPart[] {
  const out: MetadataPart[] = [];
  if (spec.format === "asyncapi") {
    for (const ch of spec.channels) {
      const metadata = ch.extension?.metadata;
      if (metadata !== undefined) out.push({ part: ["channels", ch.id], metadata });
    }
    return out;
  }
  for (const op of spec.operations) {
    const metadata = op.extension?.metadata;
    if (metadata === undefined) continue;
    out.push({ part: op.kind === "webhook" ? ["webhooks", op.path] : ["paths", op.path, op.method.toLowerCase()], metadata });
  }
  return out;
}

/** Whether a spec text may hold such parts at all (most hold none: nothing more to read). */
export function mayHaveMetadata(text: string): boolean {
  return text.includes("x-svc") || text.includes("x-mint");
}

/**
 * The parts with `metadata` of a spec text the API reference did not load (invalid, or loading
 * off), read from the document as written; `undefined` when the text cannot be parsed (the
 * caller then restricts the whole file: what it holds cannot be told apart).
 */
export function metadataPartsOfText(text: string): MetadataPart[] | undefined {
  const parsed = parseDocument(text);
  if (!parsed.ok) return undefined;
  const { document, type } = parsed;
  if (type.kind === "asyncapi") {
    const read = readAsyncapi(document, "", type.version);
    return read.ok ? metadataParts(read.spec) : undefined;
  }
  return metadataParts({ format: "openapi", source: "", version: "", title: "", servers: [], operations: readOperations(document, []) });
}
