/**
 * Security row 212's residue: an AsyncAPI channel page's lists are cut at the page's budget, and
 * the MDX page ends each cut list saying how many entries it left out; the HTML page (the page
 * route of `serve --http`) ended its parameters, operations and messages as if they were whole.
 * Now it says the same count as the MDX page, over the real bridge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { type Harness, startBridge } from "../bridge/harness.js";
import { tempRepo } from "../config/temp-repo.js";
import { asyncSite } from "../openapi/async-budget-specs.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";

const N = 600;
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const SPEC = {
  asyncapi: "3.0.0",
  info: { title: "T", version: "1" },
  channels: {
    room: { address: "room", messages: {} },
    params: { address: "params", parameters: Object.fromEntries(range(N).map((i) => [`p${i}`, {}])), messages: {} },
    msgs: { address: "msgs", messages: Object.fromEntries(range(N).map((i) => [`m${i}`, {}])) },
  },
  operations: Object.fromEntries(range(N).map((i) => [`op${i}`, { action: "send", channel: { $ref: "#/channels/room" } }])),
};

describe("an AsyncAPI channel's HTML page counts what its budget left out of each list", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({ root: tempRepo(asyncSite(SPEC)), apps: true });
  });
  afterAll(async () => {
    await h?.close();
  });
  const article = async (path: string): Promise<string> => {
    const res = await fetch(`${h.origin}${path}`, { headers: { accept: "text/html" } });
    const html = await res.text();
    return `${res.status}\n${/<article class="operation">[\s\S]*<\/article>/.exec(html)?.[0] ?? html}`;
  };
  const mdxMore = async (path: string): Promise<string> => (await h.runtime.readerState(localContext(ANONYMOUS)).shell.run(`grep '^\\(- \\)\\?… (+' ${path}.mdx`)).stdout;

  const CUT =
    "<p class=\"notice cut\">Cut: this page shows 5,000 schema nodes' worth of text at most, and its lists (servers, operations, messages, parameters, bindings) are longer than that: some entries are left out, each list saying how many. The spec file holds them whole.</p>";
  // 5,000 nodes, 10 an entry: 500 entries of each list shown, 100 counted.
  const shown = LIMITS.api.maxPageSchemaNodes / LIMITS.api.listEntryNodes;
  const MORE = `<p class="meta more">… (+${N - shown} more: see the spec file)</p>`;
  const head = (name: string): string[] => ["200", `<article class="operation">`, `<h1>${name}</h1>`, `<p class="endpoint"><span class="method m-channel">CHANNEL</span> <code data-testid="endpoint">${name}</code></p>`, CUT];

  it("operations: the 500 its budget holds, then how many more, as the MDX page counts them", async () => {
    expect(await article("/api-reference/room")).toBe([...head("room"), "<h2>Operations</h2>", ...range(shown).map((i) => `<h3><span class="method m-send">SEND</span> op${i}</h3>`), MORE, "</article>"].join("\n"));
    expect(await mdxMore("/api-reference/room")).toBe(`… (+${N - shown} more: see the spec file)\n`);
  });

  it("parameters: the same (each charged in the MDX page's order)", async () => {
    const field = (i: number): string => `<div class="field" id="p${i}"><span class="alias" id="path-p${i}"></span><dt><code><a href="#p${i}">p${i}</a></code> <span class="type">any</span> <span class="required">required</span></dt></div>`;
    expect(await article("/api-reference/params")).toBe([...head("params"), "<h2>Parameters</h2>", `<dl class="fields">`, ...range(shown).map(field), "</dl>", MORE, "</article>"].join("\n"));
    expect(await mdxMore("/api-reference/params")).toBe(`- … (+${N - shown} more: see the spec file)\n`);
  });

  it("messages: the same", async () => {
    // An empty line where the message has no payload to list (`contentHtml`).
    const section = (i: number): string[] => [`<h3>m${i}</h3>`, `<p class="media"><code>application/json</code></p>`, ""];
    expect(await article("/api-reference/msgs")).toBe([...head("msgs"), "<h2>Messages</h2>", ...range(shown).flatMap(section), MORE, "</article>"].join("\n"));
    expect(await mdxMore("/api-reference/msgs")).toBe(`… (+${N - shown} more: see the spec file)\n`);
  });
});
