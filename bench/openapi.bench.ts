import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dereferenceDocument, dereferenceWithRefParser } from "../src/config/openapi/dereference.js";
import { readApiSettings } from "../src/config/openapi/api-settings.js";
import { readOperations } from "../src/config/openapi/operations.js";
import { parseDocument } from "../src/config/openapi/parse-document.js";
import { resolvePlayground } from "../src/config/openapi/playground.js";
import { renderOperationPage } from "../src/config/openapi/render-page.js";
import { pageSchemaBudget } from "../src/config/openapi/schema-budget.js";
import { openSpecCache } from "../src/config/openapi/spec-cache.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSpec } from "../src/config/openapi/load-api-spec.js";
import { createOpenapiValidator } from "../src/config/openapi/validate-openapi.js";
import { compileValidator } from "../src/config/openapi/validators/generate.js";
import { createApiCache, generateApiPages } from "../src/vfs/api-pages.js";
import { type BenchSuite, percentile, timeMany } from "./bench.js";
import { compileIgnoreRules } from "../src/config/ignore-rules.js";
import { userSeal } from "./user-seal.js";

/** The bench corpora have no ignore files. */
const NO_RULES = compileIgnoreRules([]);

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));

/**
 * Load, validate, dereference and render every page of the 150-path Discord 3.1 spec (242
 * operations), as `loadSite` does for an element whose `openapi` names it (pages render when
 * first read; the bench reads them all). Baseline: the pipeline as it was before, in the same
 * run: the OpenAPI schema compiled at run time on every load (what `@readme/openapi-parser`'s
 * `validate()` does), json-schema-ref-parser's dereference, every page rendered. Also with a warm
 * spec cache, and dereferencing alone beside json-schema-ref-parser.
 */
export const openapiSuite: BenchSuite = {
  name: "openapi",
  async run(log) {
    const root = mkdtempSync(join(tmpdir(), "svc-bench-openapi-"));
    try {
      mkdirSync(root, { recursive: true });
      symlinkSync(join(SHARED, "specs/discord-openapi-3.1.json"), join(root, "discord.json"));
      const docsJson = { navigation: { groups: [{ group: "Discord", openapi: "discord.json" }] } };
      writeFileSync(join(root, "docs.json"), JSON.stringify(docsJson));
      const text = readFileSync(join(root, "discord.json"), "utf8");
      // The pipeline before precompiled validators, the in-place dereferencer and lazy pages.
      const settings = readApiSettings({}).settings;
      const playground = resolvePlayground(settings, {});
      const baseline = await timeMany(5, async () => {
        const p = parseDocument(text);
        if (!p.ok || p.type.kind !== "openapi") throw new Error("discord.json did not parse");
        const problems = await createOpenapiValidator(compileValidator).validate(p.document, p.type.version);
        const { document } = await dereferenceWithRefParser(p.document, { root, ignore: NO_RULES, file: "discord.json" });
        const spec = { format: "openapi" as const, source: "discord.json", version: p.type.version, title: "Discord", servers: [], operations: readOperations(document, problems), schemas: [] };
        for (const op of spec.operations) renderOperationPage(spec, op, { pagePath: "/x", settings, playground, schemaNodes: () => pageSchemaBudget(spec.operations.length).max });
      });
      let pages = 0;
      // Pages render when first read: read every one, so that "generate" includes rendering.
      const renderAll = (r: Awaited<ReturnType<typeof generateApiPages>>): number => r.pages.reduce((n, p) => n + p.file.text.length, 0);
      // Cold: fresh state each time (validators loaded, no cache of any kind).
      const cold = await timeMany(5, async () => {
        const r = await generateApiPages(root, docsJson, new Map(), { ignore: NO_RULES });
        renderAll(r);
        pages = r.pages.length;
      });
      // Warm: a reload after the spec changed (validators already loaded).
      const cache = createApiCache();
      await generateApiPages(root, docsJson, new Map(), { ignore: NO_RULES, cache });
      const warm = await timeMany(5, async () => {
        cache.specs.clear();
        renderAll(await generateApiPages(root, docsJson, new Map(), { ignore: NO_RULES, cache }));
      });
      // Warm spec cache on disk (a new process, spec unchanged): no parse, validation or dereferencing.
      const cacheDir = mkdtempSync(join(tmpdir(), "svc-bench-openapi-cache-"));
      const specCache = openSpecCache(cacheDir, userSeal());
      await generateApiPages(root, docsJson, new Map(), { ignore: NO_RULES, specCache });
      const cached = await timeMany(5, async () => renderAll(await generateApiPages(root, docsJson, new Map(), { ignore: NO_RULES, specCache })));
      rmSync(cacheDir, { recursive: true, force: true });
      // Dereferencing alone: the in-place pass against json-schema-ref-parser, on fresh parses.
      const parsed = () => {
        const p = parseDocument(text);
        if (!p.ok) throw new Error(p.message);
        return p.document;
      };
      const deref = await timeMany(5, async () => dereferenceDocument(parsed(), { root, ignore: NO_RULES, file: "discord.json" }));
      const refParser = await timeMany(5, async () => dereferenceWithRefParser(parsed(), { root, ignore: NO_RULES, file: "discord.json" }));
      const validateOnly = await timeMany(5, async () => {
        await buildSpec(text, "discord.json", false, { root, ignore: NO_RULES, validator: cache.validator });
      });
      log(`${pages} pages generated from discord.json`);
      const p50 = (v: number[]) => percentile(v, 50);
      return [
        {
          area: "openapi",
          metric: `Discord 3.1 (150 paths): load+validate+${pages} pages, cold p50`,
          value: p50(cold),
          unit: "ms",
          baseline: { name: "schema compiled per load, json-schema-ref-parser, every page rendered", value: p50(baseline) },
          target: "<= 1000 ms",
          ok: p50(cold) <= 1000,
        },
        { area: "openapi", metric: "same, warm (validators loaded; spec changed)", value: p50(warm), unit: "ms", target: "<= 1000 ms", ok: p50(warm) <= 1000 },
        { area: "openapi", metric: "same, spec unchanged (warm spec cache, as a new process finds it)", value: p50(cached), unit: "ms", target: "<= 1000 ms", ok: p50(cached) <= 1000 },
        { area: "openapi", metric: "dereference Discord (parse + in-place pass)", value: p50(deref), unit: "ms", baseline: { name: "parse + json-schema-ref-parser", value: p50(refParser) } },
        { area: "openapi", metric: "parse+validate+dereference only, warm", value: p50(validateOnly), unit: "ms" },
      ];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
