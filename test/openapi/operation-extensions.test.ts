/**
 * Operation extensions real specs write in more than one shape: Redoc's `x-codeSamples` (and its
 * older `x-code-samples`), shown first on the page with their label; `x-hidden` and `x-excluded`
 * (the platform's: a page out of navigation; no page at all), also written as strings. A shape no
 * page can use is a `check` warning at the spec naming the JSON pointer, never a crash. Before,
 * each was dropped without a word, and `x-hidden: "yes"` or `x-excluded: "true"` did nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { localContext } from "../../src/vfs/request-context.js";
import { generated, lines, load, writeRepo } from "./helpers.js";

const ok = { responses: { "200": { description: "OK" } } };
const SPEC = {
  openapi: "3.0.3",
  info: { title: "Plants", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/plants": {
      get: {
        summary: "List plants",
        ...ok,
        "x-codeSamples": [
          { lang: "python", label: "Python SDK", source: "import planter\n\nplanter.list(potted=True)\n" },
          { lang: 5, source: "five" },
          { label: "No source", lang: "go" },
          "curl https://api.example.com/plants",
          { lang: "ruby", label: 7, source: "Planter.list" },
        ],
      },
      post: { summary: "Add plant", ...ok, "x-code-samples": [{ lang: "javascript", source: "planter.add({ name: 'fern' });" }] },
    },
    "/samples-object": { get: { summary: "Object samples", ...ok, "x-codeSamples": { lang: "python", source: "x" } } },
    "/hidden-yes": { get: { summary: "Hidden yes", ...ok, "x-hidden": "yes" } },
    "/hidden-no": { get: { summary: "Hidden no", ...ok, "x-hidden": "no" } },
    "/hidden-odd": { get: { summary: "Hidden odd", ...ok, "x-hidden": 1 } },
    "/excluded": { get: { summary: "Excluded", ...ok, "x-excluded": true } },
    "/excluded-string": { get: { summary: "Excluded string", ...ok, "x-excluded": "true" } },
  },
};

describe("x-codeSamples, x-hidden and x-excluded", () => {
  let runtime: DocsRuntime;
  const sh = async (command: string) => {
    const r = await runtime.readerState(localContext()).shell.run(command);
    return r.stdout + r.stderr;
  };
  const files = { "docs.json": { name: "Plants", navigation: { groups: [{ group: "API", openapi: "openapi.json" }] } }, "index.mdx": "# Home\n", "openapi.json": SPEC };

  beforeAll(async () => {
    runtime = await DocsRuntime.load({ root: writeRepo(files) });
  });
  afterAll(() => runtime.close());

  it("check names each bad shape by the spec and its JSON pointer", async () => {
    expect(lines(await load(files))).toEqual([
      'openapi.json:27:11 warning: /paths/~1plants/get/x-codeSamples/1: a code sample needs a lang (a string such as "python"), not a number (5); left out',
      "openapi.json:31:11 warning: /paths/~1plants/get/x-codeSamples/2: a code sample needs a source (a string), and has none; left out",
      'openapi.json:35:11 warning: /paths/~1plants/get/x-codeSamples/3: a code sample must be an object with lang and source, not a string ("curl https://api.example.com/plants"); left out',
      "openapi.json:38:13 warning: /paths/~1plants/get/x-codeSamples/4/label: label must be a string, not a number (7); the sample is labelled by its lang",
      "openapi.json:66:9 warning: /paths/~1samples-object/get/x-codeSamples: x-codeSamples must be an array of {lang, label, source}, not an object; no code sample is shown from it",
      'openapi.json:80:9 warning: /paths/~1hidden-yes/get/x-hidden: x-hidden must be true or false, not a string ("yes"); read as true',
      'openapi.json:91:9 warning: /paths/~1hidden-no/get/x-hidden: x-hidden must be true or false, not a string ("no"); read as false',
      "openapi.json:102:9 warning: /paths/~1hidden-odd/get/x-hidden: x-hidden must be true or false, not a number (1); ignored",
      'openapi.json:124:9 warning: /paths/~1excluded-string/get/x-excluded: x-excluded must be true or false, not a string ("true"); read as true',
    ]);
  });

  it("x-excluded (also \"true\") makes no page; x-hidden \"yes\" a page out of navigation; \"no\" and 1 leave the page listed", async () => {
    const site = await load(files);
    expect(generated(site)).toEqual(["/api-reference/add-plant", "/api-reference/hidden-no", "/api-reference/hidden-odd", "/api-reference/hidden-yes", "/api-reference/list-plants", "/api-reference/object-samples"]);
    expect([...site.config.navPages.keys()].filter((p) => p.startsWith("/api-reference/"))).toEqual([
      "/api-reference/list-plants",
      "/api-reference/add-plant",
      "/api-reference/object-samples",
      "/api-reference/hidden-no",
      "/api-reference/hidden-odd",
    ]);
    expect(await sh("head -3 /api-reference/hidden-yes.mdx; ls /api-reference/excluded.mdx /api-reference/excluded-string.mdx")).toBe(
      [
        "---",
        'title: "Hidden yes"',
        'openapi: "openapi.json GET /hidden-yes"',
        "ls: cannot access '/api-reference/excluded.mdx': No such file or directory",
        "ls: cannot access '/api-reference/excluded-string.mdx': No such file or directory",
        "",
      ].join("\n"),
    );
  });

  it("code samples come first, labelled, the items no page can use left out", async () => {
    expect(await sh("sed -n '/^### Request/,/^```bash cURL/p' /api-reference/list-plants.mdx")).toBe(
      ["### Request", "", "```python Python SDK", "import planter", "", "planter.list(potted=True)", "```", "", "```ruby ruby", "Planter.list", "```", "", "```bash cURL", ""].join("\n"),
    );
    expect(await sh("sed -n '/^### Request/,/^```bash cURL/p' /api-reference/add-plant.mdx")).toBe(
      ["### Request", "", "```javascript javascript", "planter.add({ name: 'fern' });", "```", "", "```bash cURL", ""].join("\n"),
    );
    // Samples written as an object: none shown, the generated examples as on any page.
    expect(await sh("sed -n '/^### Request/,+2p' /api-reference/object-samples.mdx")).toBe(["### Request", "", "```bash cURL", ""].join("\n"));
  });

  it("an explicit entry naming an x-excluded operation makes no page either, and check says so", async () => {
    const site = await load({ ...files, "docs.json": { name: "Plants", navigation: { groups: [{ group: "API", openapi: "openapi.json", pages: ["GET /plants", "GET /excluded"] }] } } });
    expect(generated(site)).toEqual(["/api-reference/list-plants"]);
    expect(lines(site).filter((l) => l.startsWith("docs.json"))).toEqual([
      'docs.json navigation.groups[0].pages[1]: warning: "GET /excluded" names an operation marked x-excluded in openapi.json: no page is made for it; remove the entry, or x-excluded',
    ]);
  });
});
