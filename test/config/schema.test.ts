import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO, SHARED } from "../helpers/paths.js";
import { REAL_SITES, itShared } from "../helpers/shared.js";

async function schema(): Promise<Record<string, unknown>> {
  const run = await runCli(["schema"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe("svc-mcp schema", () => {
  it("prints a draft 2020-12 JSON Schema with a definition per navigation element", async () => {
    const s = await schema();
    expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(s.title).toBe("docs.json");
    expect(Object.keys(s.$defs as object).sort()).toEqual(
      ["anchor", "anchorList", "dropdown", "dropdownList", "globalAnchor", "group", "language", "languageList", "menuItem", "product", "productList", "tab", "tabList", "version", "versionList"].sort(),
    );
    expect((s.required as string[])).toEqual(["navigation"]);
  });

  itShared("accepts every shared corpus's docs.json", async () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    const validate = ajv.compile(await schema());
    for (const corpus of REAL_SITES) {
      const doc = JSON.parse(readFileSync(join(SHARED, "corpora", corpus, "docs.json"), "utf8")) as unknown;
      expect([corpus, validate(doc), validate.errors ?? null]).toEqual([corpus, true, null]);
    }
  });

  it("accepts the fixtures that only break rules the schema cannot express", async () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    const validate = ajv.compile(await schema());
    const nav = JSON.parse(readFileSync(join(REPO, "fixtures/nav-demo/docs.json"), "utf8")) as unknown;
    expect(validate(nav)).toBe(true);
  });

  it("refuses what the model refuses, with the path of the problem", async () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    const validate = ajv.compile(await schema());
    expect(validate({ navigation: { groups: [{ group: "G", pages: ["a"], directory: "grid" }] } })).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toContain("/navigation/groups/0/directory must be equal to one of the allowed values");
    expect(validate({ navigation: { tabs: [{ pages: ["a"] }] } })).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toContain("/navigation/tabs/0 must have required property 'tab'");
    expect(validate({ name: "x" })).toBe(false);
  });
});
