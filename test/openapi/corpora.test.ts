import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import fg from "fast-glob";
import { describe, expect, it } from "vitest";
import { compileIgnoreRules } from "../../src/config/ignore-rules.js";
import { loadApiSpec } from "../../src/config/openapi/load-api-spec.js";
import { createOpenapiValidator } from "../../src/config/openapi/validate-openapi.js";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { parseFrontMatter } from "../../src/config/frontmatter.js";
import { isIndexed } from "../../src/vfs/site.js";
import { loadSite } from "../../src/vfs/load-site.js";
import { SHARED } from "../helpers/paths.js";
import { describeShared } from "../helpers/shared.js";
import { lines, load } from "./helpers.js";

const validator = createOpenapiValidator();
const specs = join(SHARED, "specs");

describeShared("shared specs", () => {
  it.each([
    ["discord-openapi-3.1.json", "3.1", 242],
    ["mem0-openapi-3.0.1.json", "3.0", 55],
    ["pipecat-cloud-openapi-3.0.0.json", "3.0", 31],
    ["oai-v3.0-petstore-expanded.yaml", "3.0", 4],
    ["oai-v3.0-uspto.yaml", "3.0", 3],
    ["oai-v3.1-webhook-example.yaml", "3.1", 1],
  ])("%s loads, validates and dereferences (%s, %i operations, none invalid)", async (file, version, count) => {
    const r = await loadApiSpec(file, false, { root: specs, ignore: compileIgnoreRules([]), validator });
    if (!r.ok) throw new Error(r.message);
    expect(r.spec.format).toBe("openapi");
    if (r.spec.format !== "openapi") return;
    expect([r.spec.version, r.spec.operations.length, r.spec.operations.filter((o) => o.problems.length > 0).length, r.warnings]).toEqual([version, count, 0, []]);
  });

  it.each(["oai-v2.0-petstore.yaml", "oai-v2.0-uspto.yaml".replace("uspto", "uber")])("%s (Swagger 2.0) is refused with the convert-to-3 message", async (file) => {
    expect(await loadApiSpec(file, false, { root: specs, ignore: compileIgnoreRules([]), validator })).toEqual({
      ok: false,
      message: 'Swagger 2.0 is not supported: convert it to OpenAPI 3 (for example with swagger2openapi, or "Convert to OpenAPI 3" in editor.swagger.io)',
    });
  });

  it("the 3.1 webhook example becomes a WEBHOOK page", async () => {
    const r = await loadApiSpec("oai-v3.1-webhook-example.yaml", false, { root: specs, ignore: compileIgnoreRules([]), validator });
    expect(r.ok && r.spec.format === "openapi" ? r.spec.operations.map((o) => [o.method, o.path, o.webhookMethod]) : r).toEqual([["WEBHOOK", "newPet", "POST"]]);
  });

  it("AsyncAPI 3 channels with their operations", async () => {
    const r = await loadApiSpec("asyncapi-3.1-streetlights-kafka.yml", false, { root: specs, ignore: compileIgnoreRules([]), validator });
    if (!r.ok || r.spec.format !== "asyncapi") throw new Error("not loaded");
    expect(r.spec.channels.map((c) => [c.id, c.address, c.operations.map((o) => `${o.action} ${o.id}`), c.messages.map((m) => m.name)])).toEqual([
      ["lightingMeasured", "smartylighting.streetlights.1.0.event.{streetlightId}.lighting.measured", ["receive receiveLightMeasurement"], ["lightMeasured"]],
      ["lightTurnOn", "smartylighting.streetlights.1.0.action.{streetlightId}.turn.on", ["send turnOn"], ["turnOnOff"]],
      ["lightTurnOff", "smartylighting.streetlights.1.0.action.{streetlightId}.turn.off", ["send turnOff"], ["turnOnOff"]],
      ["lightsDim", "smartylighting.streetlights.1.0.action.{streetlightId}.dim", ["send dimLight"], ["dimLight"]],
    ]);
  });

  it("an asyncapi element generates one page per channel; an entry naming a channel selects it", async () => {
    const spec = readFileSync(join(specs, "asyncapi-3.1-streetlights-kafka.yml"), "utf8");
    const site = await load({
      "docs.json": { navigation: { groups: [{ group: "Events", asyncapi: { source: "streetlights.yml", directory: "events" } }, { group: "One", asyncapi: "streetlights.yml", pages: ["lightsDim"] }] } },
      "streetlights.yml": spec,
    });
    expect(lines(site)).toEqual([]);
    // The explicit entry means only referenced channels appear (same rule as operations).
    expect([...site.pages.values()].filter((p) => p.generated).map((p) => p.path)).toEqual(["/api-reference/lightsdim"]);
    expect(site.pages.get("/api-reference/lightsdim")?.file.text).toContain("### SEND dimLight");
  });
});

describeShared("shared corpora", () => {
  it("spree: every {source, directory} spec generates into its folder, and every link the pages make to an operation page resolves", async () => {
    const root = join(SHARED, "corpora/spree");
    const { site } = await loadSite(root);
    expect(site.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic)).toEqual([]);
    // A real defect of the corpus, reported as a warning (the spec still renders).
    expect(site.diagnostics.map(formatDiagnostic).filter((l) => l.includes("unresolved $ref"))).toEqual([
      'api-reference/store.yaml:10288:11 warning: unresolved $ref (at components.schemas.MeResponse.properties.user): Missing $ref pointer "#/components/schemas/AdminUser". Token "AdminUser" does not exist.; left as is',
    ]);
    const gen = [...site.pages.values()].filter((p) => p.generated);
    const byDir = (d: string) => gen.filter((p) => p.path.startsWith(`/api-reference/${d}/`)).length;
    expect([byDir("store-api"), byDir("admin-api"), byDir("storefront"), byDir("platform")]).toEqual([84, 318, 74, 230]);
    const links = new Set<string>();
    for (const f of fg.sync("**/*.mdx", { cwd: root })) {
      for (const m of readFileSync(join(root, f), "utf8").matchAll(/\]\((\/api-reference\/(?:storefront|platform|store-api|admin-api)\/[a-z0-9-]+\/[a-z0-9/-]+)\)/g)) links.add(m[1] as string);
    }
    expect(links.size).toBeGreaterThan(5);
    expect([...links].filter((l) => !site.pages.has(l))).toEqual([]);
    // Generated pages are indexed, titled by their summary, and placed under their version.
    const page = site.pages.get("/api-reference/storefront/adyen/create-an-adyen-payment-session");
    expect(page?.title).toBe("Create an Adyen Payment Session");
    expect(page !== undefined && isIndexed(site, page)).toBe(true);
    expect(site.config.navPages.get(page?.path ?? "")?.breadcrumbs).toEqual(["API Reference", "Legacy API v2", "Storefront API", "Adyen"]);
  });

  it("spree: a generated page, rendered when first read, reads exactly as its text parses (front matter, body, body line, size)", async () => {
    const { site } = await loadSite(join(SHARED, "corpora/spree"));
    const gen = [...site.pages.values()].filter((p) => p.generated);
    expect(gen.length).toBe(706);
    const differing = gen.filter((page) => {
      const text = page.file.text;
      const parsed = parseFrontMatter(text);
      const expected = parsed.ok ? { data: parsed.data, body: parsed.body, bodyLine: parsed.bodyLine, size: Buffer.byteLength(text) } : parsed;
      return !isDeepStrictEqual({ data: page.frontMatter, body: page.body, bodyLine: page.bodyLine, size: page.file.size }, expected);
    });
    expect(differing.map((p) => p.path)).toEqual([]);
  });

  it("open-wearables: a remote spec is not fetched offline, and nothing is reported against its entries", async () => {
    const { site } = await loadSite(join(SHARED, "corpora/open-wearables"));
    expect(site.api?.plan.unverified).toEqual(["https://api.openwearables.io/openapi.json"]);
    expect(site.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("open-wearables: with a fetch (a stand-in for the internet), entries become pages at the URLs its own pages link to", async () => {
    const fetched: string[] = [];
    const spec = {
      openapi: "3.1.0",
      info: { title: "OW", version: "1" },
      paths: {
        "/api/v1/users": { post: { summary: "Create User", tags: ["users"], responses: { "200": { description: "OK" } } } },
      },
    };
    const { site } = await loadSite(join(SHARED, "corpora/open-wearables"), () => {}, undefined, {
      fetchRemoteSpecs: async (url) => {
        fetched.push(url);
        return new Response(JSON.stringify(spec), { headers: { "content-type": "application/json" } });
      },
    });
    expect(fetched).toEqual(["https://api.openwearables.io/openapi.json"]);
    expect(site.pages.has("/api-reference/users/create-user")).toBe(true);
    // The other entries match nothing in this small stand-in spec: reported as errors.
    expect(site.diagnostics.filter((d) => d.severity === "error").length).toBeGreaterThan(10);
  });
});

describe("remote specs", () => {
  it("an unreachable remote spec is an error naming it; the site keeps serving", async () => {
    const site = (await loadSite(
      (await import("./helpers.js")).writeRepo({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "https://api.example.test/openapi.json", pages: ["intro"] }] } }, "intro.mdx": "# Hi" }),
      () => {},
      undefined,
      { fetchRemoteSpecs: async () => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } })) },
    )).site;
    expect(lines(site)).toEqual(["docs.json navigation.groups[0].openapi: API spec https://api.example.test/openapi.json: unreachable: ENOTFOUND"]);
    expect(site.pages.has("/intro")).toBe(true);
  });
});
