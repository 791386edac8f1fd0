/**
 * Spec values a generated page writes as inline code, headings or code blocks: a line break or a
 * backtick in them must not end the code they are in. Before, a server variable's enum value
 * "a\n# injected H1\n" or a messageId "M\n# MSGHEAD" added headings to the page (and search
 * sections), a default "1` [l](https://evil.example/) `" made a live link, and an
 * `x-codeSamples` source holding ``` closed its code block and added a heading.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fencedLines } from "../../src/config/markup-lines.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { localContext } from "../../src/vfs/request-context.js";
import { startBridge } from "../bridge/harness.js";
import { writeRepo } from "./helpers.js";

/** The page's headings: lines starting with `#` outside its fenced code blocks, as Markdown reads them. */
function headings(page: string): string[] {
  const lines = page.split("\n");
  const code = fencedLines(lines);
  return lines.filter((l, i) => code[i] !== true && l.startsWith("#"));
}

const ASYNC = {
  asyncapi: "2.6.0",
  info: { title: "Events", version: "1" },
  servers: {
    "prod`x": {
      url: "broker.example.com:{port}",
      protocol: "mqtt\n# PROTO",
      variables: {
        "po`rt": { default: "1` [l](https://evil.example/) `", enum: ["a\n# injected H1\n", "8883"] },
      },
    },
  },
  channels: {
    events: {
      subscribe: {
        operationId: "onEvent",
        message: {
          messageId: "M\n# MSGHEAD",
          headers: { type: "object", properties: { "X-``Trace\n# HDR": { type: "string" } } },
          payload: { type: "object", properties: { id: { type: "string" } } },
        },
      },
    },
  },
};

const OPENAPI = {
  openapi: "3.0.3",
  info: { title: "Plants", version: "1" },
  paths: {
    "/plants": {
      get: {
        summary: "List plants",
        responses: { "200": { description: "OK" } },
        "x-codeSamples": [{ lang: "python", label: "SDK\n# LABEL `x`", source: "a = 1\n```\n# FENCEHEAD\n````\n~~~~~\n" }],
      },
    },
  },
};

describe("spec values written into generated pages", () => {
  let runtime: DocsRuntime;
  let root: string;
  const sh = async (command: string) => {
    const r = await runtime.readerState(localContext()).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Events", navigation: { groups: [{ group: "Events", asyncapi: "events.json" }, { group: "API", openapi: "openapi.json" }] } },
      "index.mdx": "# Home\n",
      "events.json": ASYNC,
      "openapi.json": OPENAPI,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("a channel page writes server, variable and message names and values as one-line inline code, headings on one line", async () => {
    const page = await sh("cat /api-reference/events.mdx");
    expect(headings(page)).toEqual(["# events", "## Operations", "### SUBSCRIBE onEvent", "## Messages", "### M # MSGHEAD", "## Source"]);
    expect(page.split("\n").filter((l) => /Servers|Messages:|Trace/.test(l))).toEqual([
      "**Servers:** `` prod`x `` (`mqtt # PROTO broker.example.com:{port}`; `` po`rt ``: `` 1` [l](https://evil.example/) ` `` (default), `a # injected H1`, `8883`)",
      "Messages: `M # MSGHEAD`",
      "- ``` X-``Trace # HDR ``` `string`",
    ]);
  });

  it("the HTML page shows the default as code, not a link", async () => {
    const h = await startBridge({ root, authMode: "partial", apps: true });
    try {
      const html = await (await fetch(`${h.origin}/api-reference/events`, { headers: { accept: "text/html" } })).text();
      expect(html.split("\n").filter((l) => l.includes("Servers:"))).toEqual([
        '<p class="meta">Servers: <code>prod`x</code> (<code>mqtt # PROTO broker.example.com:{port}</code>; <code>po`rt</code>: <code>1` [l](https://evil.example/) `</code> (default), <code>a # injected H1</code>, <code>8883</code>)</p>',
      ]);
      expect(html).not.toContain('href="https://evil.example/"');
    } finally {
      await h.close();
    }
  });

  it("an x-codeSamples source holding ``` stays in its code block, fenced by a longer run; its label on the info line", async () => {
    const page = await sh("cat /api-reference/list-plants.mdx");
    expect(headings(page)).toEqual(["# List plants", "## Responses", "### 200: OK", "## Examples", "### Request", "## Source"]);
    const at = page.indexOf("``````python");
    expect(page.slice(at, page.indexOf("```bash", at))).toBe(["``````python SDK # LABEL 'x'", "a = 1", "```", "# FENCEHEAD", "````", "~~~~~", "``````", "", ""].join("\n"));
  });
});
