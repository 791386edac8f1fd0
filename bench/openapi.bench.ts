import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSpec } from "../src/config/openapi/load-api-spec.js";
import { createOpenapiValidator } from "../src/config/openapi/validate-openapi.js";
import { compileValidator } from "../src/config/openapi/validators/generate.js";
import { createApiCache, generateApiPages } from "../src/vfs/api-pages.js";
import { type BenchSuite, percentile, timeMany } from "./bench.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));

/**
 * Load, validate, dereference and render every page of the 150-path Discord 3.1 spec (242
 * operations), as `loadSite` does for an element whose `openapi` names it. Baseline: the same
 * pipeline recompiling the OpenAPI schema on every load, which is what
 * `@readme/openapi-parser`'s `validate()` does.
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
      const { readFileSync } = await import("node:fs");
      const text = readFileSync(join(root, "discord.json"), "utf8");
      const baseline = await timeMany(5, async () => {
        await buildSpec(text, "discord.json", false, { root, validator: createOpenapiValidator(compileValidator) });
      });
      let pages = 0;
      // Cold: a fresh process state each time (schema compile included).
      const cold = await timeMany(5, async () => {
        const r = await generateApiPages(root, docsJson, new Map());
        pages = r.pages.length;
      });
      // Warm: a reload after the spec changed (validators already compiled).
      const cache = createApiCache();
      await generateApiPages(root, docsJson, new Map(), { cache });
      const warm = await timeMany(5, async () => {
        cache.specs.clear();
        await generateApiPages(root, docsJson, new Map(), { cache });
      });
      const validateOnly = await timeMany(5, async () => {
        await buildSpec(text, "discord.json", false, { root, validator: cache.validator });
      });
      log(`${pages} pages generated from discord.json`);
      const p50 = (v: number[]) => percentile(v, 50);
      return [
        {
          area: "openapi",
          metric: `Discord 3.1 (150 paths): load+validate+${pages} pages, cold p50`,
          value: p50(cold),
          unit: "ms",
          baseline: { name: "schema recompiled per load (readme validate())", value: p50(baseline) },
          target: "<= 1000 ms",
          ok: p50(cold) <= 1000,
        },
        { area: "openapi", metric: "same, warm (validators compiled; spec changed)", value: p50(warm), unit: "ms", target: "<= 1000 ms", ok: p50(warm) <= 1000 },
        { area: "openapi", metric: "parse+validate+dereference only, warm", value: p50(validateOnly), unit: "ms" },
      ];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
