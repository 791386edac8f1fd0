import { describe, expect, it } from "vitest";
import { compileIgnoreRules } from "../../src/config/ignore-rules.js";
import { LIMITS } from "../../src/limits.js";
import { createApiCache, generateApiPages } from "../../src/vfs/api-pages.js";
import { writeRepo } from "./helpers.js";

/**
 * Making a spec's pages gives the thread back every `LIMITS.api.pagesPerTurn` pages: a saved spec
 * of thousands of operations made them in one stretch while every caller on the thread waited.
 * Counted on a load whose spec is cached (nothing read, nothing else to wait for): the turns
 * callers get are the pages' own.
 */

const OPERATIONS = LIMITS.api.pagesPerTurn * 3 + 5;

const spec = {
  openapi: "3.1.0",
  info: { title: "Many", version: "1" },
  paths: Object.fromEntries(Array.from({ length: OPERATIONS }, (_, i) => [`/things/${i}`, { get: { summary: `Get thing ${i}`, responses: { "200": { description: "OK" } } } }])),
};

describe("making a spec's pages", () => {
  it("gives callers a turn between slices of pages", async () => {
    const root = writeRepo({ "api/many.json": spec });
    const docsJson = { navigation: { groups: [{ group: "API", openapi: "api/many.json" }] } };
    const options = { ignore: compileIgnoreRules([]), cache: createApiCache() };
    // The spec read and built once: the load below finds it in the cache.
    expect((await generateApiPages(root, docsJson, new Map(), options)).pages).toHaveLength(OPERATIONS);
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const again = await generateApiPages(root, docsJson, new Map(), options);
    counting = false;
    expect(again.pages).toHaveLength(OPERATIONS);
    // A turn per slice; the ticker runs once in each.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
