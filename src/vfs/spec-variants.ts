import type { SpecLoadResult } from "../config/openapi/spec-load-result.js";
import { parseDocument } from "../config/openapi/parse-document.js";
import type { Segments } from "../config/openapi/prune-spec.js";
import { prunedSpecText } from "../config/openapi/pruned-spec-text.js";
import { documentingGroups } from "../config/openapi/documenting-groups.js";
import { mayHaveMetadata, metadataParts, metadataPartsOfText } from "../config/openapi/restricted-parts.js";
import { readPageMeta, UNMATCHABLE_GROUP } from "../config/page-meta.js";
import { type Access, accessKey, restrictingGroups } from "./access.js";
import { distinctRules, FileVariants, reuse } from "./file-variants.js";
import type { Site } from "./site.js";
import type { SiteFile } from "./site-file.js";
import type { VariantTimes } from "./variant-times.js";

/**
 * A mounted spec file is each reader's own spec: operations, webhooks and channels whose page
 * they may not read are not in it (nor what only those used, see `pruneSpec`). A part's rule
 * is its page's: `x-svc`/`x-mint` `metadata.groups`, and the rule of an MDX page that documents
 * it through front matter `openapi` (a reader must pass both). A spec with no restricted part
 * has no variants: everyone reads the file as written.
 *
 * Fail closed: a spec the API reference could not load is read here as written; one that cannot
 * be parsed is not mounted at all (`loadedAsSpec` in `load-site.ts`, adversary round 59 F1), and
 * were it, one mentioning `x-svc`/`x-mint` would be shown to all-access readers only (what it
 * restricts cannot be told apart); a variant that cannot be built reads as empty. Each file's variants are
 * dated from `timesBefore` its path (`siteVariants`; none at a start).
 */
export async function specVariants(
  site: Pick<Site, "files" | "pages" | "api" | "config">,
  results: ReadonlyMap<string, SpecLoadResult>,
  previous: ReadonlyMap<string, FileVariants> | undefined,
  timesBefore: (path: string) => VariantTimes | undefined = () => undefined,
): Promise<FileVariants[]> {
  const out: FileVariants[] = [];
  for (const spec of site.config.specs) {
    if (spec.remote) continue;
    const file = site.files.get(`/${spec.source}`);
    if (file === undefined) continue;
    const variants = await fileVariants(site, file, results.get(spec.source), previous?.get(file.path), () => timesBefore(file.path));
    if (variants !== undefined) out.push(variants);
  }
  return out;
}

async function fileVariants(site: Pick<Site, "files" | "pages" | "api">, file: SiteFile, result: SpecLoadResult | undefined, previous: FileVariants | undefined, timesBefore: () => VariantTimes | undefined): Promise<FileVariants | undefined> {
  const parts: { part: Segments; access: Access }[] = [];
  const ownParts = partsOf(file, result);
  if (ownParts === undefined) {
    const nobody: Access = { groups: [UNMATCHABLE_GROUP] };
    return reuse(previous, file, "unreadable") ?? (await FileVariants.of(file, [nobody], () => undefined, undefined, "unreadable", () => true, timesBefore()));
  }
  for (const { part, metadata } of ownParts) {
    // As the part's page decides: `public: true` is readable by anyone, `groups` by those groups.
    const meta = readPageMeta(metadata);
    if (meta.groups !== undefined && meta.public !== true) parts.push({ part, access: { groups: meta.groups } });
  }
  const source = file.path.slice(1);
  // Every page documenting an operation, those a file before them hides from some readers too.
  const plans = site.api === undefined ? [] : [site.api.plan, ...(site.api.hidden?.plans ?? [])];
  const documenting = plans.flatMap((plan) => [...plan.frontMatter.values()]).filter((fm) => fm.spec.source === source);
  for (const { page, groups } of documentingGroups(documenting, (fm) => restrictingGroups(site.files.get(`/${fm.file}`)?.access)).values()) {
    const op = page.operation;
    parts.push({ part: op.kind === "webhook" ? ["webhooks", op.path] : ["paths", op.path, op.method.toLowerCase()], access: { groups } });
  }
  if (parts.length === 0) return undefined;
  const { rules, index } = distinctRules(parts.map((p) => p.access));
  const signature = JSON.stringify(parts.map((p) => [p.part, accessKey(p.access)]));
  const hit = reuse(previous, file, signature);
  if (hit !== undefined) return hit;
  let document: Record<string, unknown> | undefined;
  const render = (allowed: readonly boolean[]): string | undefined => {
    if (document === undefined) {
      const parsed = parseDocument(file.text);
      if (!parsed.ok) return undefined;
      document = parsed.document;
    }
    const removed = parts.filter((_, i) => allowed[index[i] as number] !== true).map((p) => p.part);
    try {
      return prunedSpecText(file.text, document, removed);
    } catch {
      // A document this cannot prune (a cycle through YAML aliases...) is not shown half-pruned:
      // the variant reads as empty.
      return undefined;
    }
  };
  // Each class's time carries over from the previous version of the file (`VariantTimes`).
  return FileVariants.of(file, rules, render, undefined, signature, undefined, timesBefore());
}

/**
 * The parts with `metadata` of the spec as mounted. A loaded result is the file's own, except one
 * kept as the last good version (`refused`: the text now is broken, over the limit, or a file its
 * `$ref`s read is): its pages are the last good ones, and the file is mounted as last read whole
 * (`mountKeptSpecs`) or, when that text is not known, as it reads now; either way what the
 * mounted text restricts counts too, read from the text; a text that cannot be parsed but
 * mentions `x-svc`/`x-mint` is all-access only (`undefined`). Before, such a text was mounted under
 * the last good version's rules: an edit adding a staff-only operation and a YAML error showed the
 * operation to anonymous readers of the raw file (adversary round 38, F2).
 */
function partsOf(file: SiteFile, result: SpecLoadResult | undefined): ReturnType<typeof metadataPartsOfText> {
  if (result?.ok === true && result.refused === undefined) return metadataParts(result.spec);
  const written = mayHaveMetadata(file.text) ? metadataPartsOfText(file.text) : [];
  if (result?.ok !== true || written === undefined) return written;
  return [...metadataParts(result.spec), ...written];
}
