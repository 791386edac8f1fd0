/**
 * Adversary F8 residue (integrity): a generated page wrote spec values into its anchor links
 * (`[name](#name)`, a parameter's or body field's name) and into the `jq`/`yq` line of its
 * Source section as they were. A `)` ended the link early and the rest of the name was the
 * page's text (a line break in it a heading of its own), and a `'` in a path key closed the
 * quoted jq program: the line the page tells its reader to run ran something else
 * (`$(touch ...)` outside the quotes). Now a link's target is the name percent-encoded where it
 * must be (`anchorLink`) and each word of the command line is quoted for the shell
 * (`shellWord`), inside one code span (`inlineCode`).
 */
import { rmSync } from "node:fs";
import { fromMarkdown } from "mdast-util-from-markdown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const PATH = "/x'$(touch /tmp/pwned)`;\nrm -rf ~)";
const NAMES = ["a)\n# HEAD [l](https://evil.example/)", "b`c' $(id) <d>", "filter[name]"];
const FIELD = "f)\n# BODYHEAD";
const OPENAPI = {
  openapi: "3.0.3",
  info: { title: "T", version: "1" },
  paths: {
    [PATH]: {
      get: {
        summary: "Hostile",
        parameters: [
          { name: NAMES[0], in: "query", schema: { type: "string" } },
          { name: NAMES[1], in: "header", schema: { type: "string" } },
          { name: NAMES[2], in: "query", schema: { type: "string" } },
        ],
        requestBody: { content: { "application/json": { schema: { type: "object", properties: { [FIELD]: { type: "string" } } } } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
};
const CHANNEL = "user/{id'$(x)}";
const ASYNC = {
  asyncapi: "2.6.0",
  info: { title: "E", version: "1" },
  channels: { [CHANNEL]: { parameters: { "id'$(x)": { description: "p", schema: { type: "string" } } }, subscribe: { message: { payload: { type: "string" } } } } },
};

interface Node {
  type: string;
  url?: string;
  value?: string;
  children?: Node[];
}
/** Every node of a kind in the page's Markdown tree, as CommonMark reads the page. */
function nodesOf(markdown: string, type: string): Node[] {
  const out: Node[] = [];
  const walk = (n: Node): void => {
    if (n.type === type) out.push(n);
    for (const c of n.children ?? []) walk(c);
  };
  walk(fromMarkdown(markdown) as Node);
  return out;
}

describe("spec values in a generated page's anchor links and its jq/yq line", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (command: string): Promise<string> => (await runtime.readerState(localContext(ANONYMOUS)).shell.run(command)).stdout;

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "S", navigation: { groups: [{ group: "API", openapi: "api.yaml" }, { group: "Ev", asyncapi: "ev.json" }] } },
      "api.yaml": JSON.stringify(OPENAPI),
      "ev.json": JSON.stringify(ASYNC),
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("an operation page: each name is one link to its own anchor, and no heading comes from a name", async () => {
    const page = await run("cat /api-reference/hostile.mdx");
    expect(page.split("\n").filter((l) => l.startsWith("- ") || l.startsWith("Generated"))).toEqual([
      "- [`a) # HEAD [l](https://evil.example/)`](#a%29%0A%23%20HEAD%20[l]%28https://evil.example/%29) `string`",
      "- [`filter[name]`](#filter[name]) `string`",
      "- [`` b`c' $(id) <d> ``](#b%60c%27%20$%28id%29%20%3Cd%3E) `string`",
      "- [`f) # BODYHEAD`](#f%29%0A%23%20BODYHEAD) `string`",
      "Generated from `/api.yaml`: `` yq '.[\"paths\"][\"/x'\\''$(touch /tmp/pwned)`;\\nrm -rf ~)\"][\"get\"]' /api.yaml ``",
    ]);
    const links = nodesOf(page, "link").map((l) => decodeURIComponent((l.url ?? "").slice(1)));
    expect(links).toEqual([NAMES[0], NAMES[2], NAMES[1], FIELD]);
    // The body after the front matter (whose closing `---` Markdown alone reads as a heading's underline).
    const body = page.slice(page.indexOf("\n---\n") + 5);
    expect(nodesOf(body, "heading").map((h) => h.children?.[0]?.value)).toEqual([
      "Hostile",
      "Query parameters",
      "Headers",
      "Request body",
      "Responses",
      "200: ok",
      "Examples",
      "Request",
      "Source",
    ]);
  });

  it("the Source line's command, run as written, prints the part the page is made from", async () => {
    for (const [page, expected] of [
      ["/api-reference/hostile.mdx", "Hostile"],
      ["/api-reference/userid$x.mdx", '{\n  "id\'$(x)": {\n    "description": "p",\n    "schema": {\n      "type": "string"\n    }\n  }\n}\n'],
    ] as const) {
      const text = await run(`cat '${page}'`);
      const source = nodesOf(text, "paragraph").find((p) => p.children?.[0]?.value === "Generated from ");
      const command = source?.children?.[3]?.value ?? "";
      // The operation's summary; the channel's parameters.
      const narrowed = page.includes("hostile") ? `${command.replace(/\]' \/api\.yaml$/, "][\"summary\"]' /api.yaml")}` : command.replace(/\]' \/ev\.json$/, "][\"parameters\"]' /ev.json");
      expect(await run(narrowed)).toBe(page.includes("hostile") ? `${expected}\n` : expected);
    }
  });

  it("a channel page's parameter link", async () => {
    const page = await run("cat '/api-reference/userid$x.mdx'");
    expect(page.split("\n").filter((l) => l.startsWith("- [") || l.startsWith("Generated"))).toEqual([
      "- [`id'$(x)`](#id%27$%28x%29) `string`: p",
      "Generated from `/ev.json`: `jq '.[\"channels\"][\"user/{id'\\''$(x)}\"]' /ev.json`",
    ]);
    expect(nodesOf(page, "link").map((l) => decodeURIComponent((l.url ?? "").slice(1)))).toEqual(["id'$(x)"]);
  });
});
