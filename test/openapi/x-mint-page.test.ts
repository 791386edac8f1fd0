import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationHtml } from "../../src/bridge/web/api-page.js";
import type { ApiSettings } from "../../src/config/openapi/api-settings.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { localContext } from "../../src/vfs/request-context.js";
import { lines, writeRepo } from "./helpers.js";

/**
 * `x-mint` (or `x-svc`) on an operation, as the platform documents it: `metadata` overrides the
 * generated page's front matter with "any field that's valid in MDX frontmatter except openapi",
 * and `content` goes "before the generated API documentation". A real Korean site sets each
 * operation's description in `x-mint.metadata` and an `<Info>` in `x-mint.content`: before, the
 * description was dropped and the content came after the response examples.
 */
const spec = {
  openapi: "3.0.3",
  info: { title: "Events", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/authenticate": {
      post: {
        summary: "Authenticate",
        description: "Exchanges keys for a token. Long explanation follows.",
        "x-mint": {
          metadata: { description: "Access Key와 Secret Key로 1시간 유효한 토큰을 받습니다.", sidebarTitle: "Auth", tag: "NEW", openapi: "GET /elsewhere", keywords: ["token", "토큰"], "x\npublic": true, "has space": 1, constructor: "c", prototype: "p" },
          content: "<Info>Tokens expire after one hour.</Info>",
        },
        responses: { "200": { description: "OK", content: { "application/json": { example: { token: "t" } } } } },
      },
    },
    "/events": {
      post: { summary: "Track event", description: "Records an event.", responses: { "202": { description: "Accepted" } } },
    },
  },
};

describe("x-mint metadata and content on a generated endpoint page", () => {
  let runtime: DocsRuntime;
  const sh = async (command: string) => {
    const r = await runtime.readerState(localContext()).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    const root = writeRepo({
      "docs.json": { name: "Events", navigation: { groups: [{ group: "API", openapi: "openapi.json", pages: ["POST /authenticate", "POST /events"] }] } },
      "openapi.json": spec,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("take every front matter field the metadata sets but openapi (and keys that would write other fields), its description first", async () => {
    expect(lines(runtime.site)).toEqual([]);
    expect(await sh("ls /api-reference; sed -n '1,15p' /api-reference/authenticate.mdx")).toBe(
      [
        "authenticate.mdx",
        "track-event.mdx",
        "---",
        'title: "Authenticate"',
        'description: "Access Key와 Secret Key로 1시간 유효한 토큰을 받습니다."',
        'openapi: "openapi.json POST /authenticate"',
        'playground: "interactive"',
        'sidebarTitle: "Auth"',
        'tag: "NEW"',
        'keywords: ["token","토큰"]',
        "---",
        "",
        "# Authenticate",
        "",
        "<Info>Tokens expire after one hour.</Info>",
        "",
        "`POST /authenticate`",
      ].join("\n") + "\n",
    );
    // An operation without metadata keeps its own description's first sentence.
    expect(await sh("sed -n '2,3p' /api-reference/track-event.mdx")).toBe(['title: "Track event"', 'description: "Records an event."'].join("\n") + "\n");
  });

  it("search finds the page by the metadata's description, and the content in its opening section", async () => {
    const hits = await runtime.search(localContext(), { query: "1시간 유효한 토큰" });
    expect(hits.map((h) => [h.page.path, h.section.anchor])).toEqual([["/api-reference/authenticate", "authenticate"]]);
    const info = await runtime.search(localContext(), { query: "tokens expire after one hour" });
    expect(info.map((h) => [h.page.path, h.section.anchor, h.snippet])).toEqual([[
        "/api-reference/authenticate",
        "authenticate",
        "Tokens expire after one hour. POST /authenticate Exchanges keys for a token. Long explanation follows. Base URL: https://api.example.com Playground: interactive, for every reader; requests are relayed by POST /_svc/api/request",
      ]]);
  });

  it("puts the content before the endpoint in the page's HTML too", () => {
    const item = runtime.site.api?.plan.pages[0]?.item;
    const info = runtime.site.api?.pages.get("/api-reference/authenticate");
    if (item?.kind !== "operation" || info === undefined) throw new Error("no page");
    const html = operationHtml({ spec: item.spec, op: item.operation, pagePath: info.pagePath, title: "Authenticate", settings: runtime.site.api?.settings as ApiSettings, playground: info.playground, view: { kind: "form" }, markdown: (t) => `<p>${t}</p>`, schemaNodes: info.schemaNodes });
    expect(html.split("\n").slice(0, 4)).toEqual([
      '<article class="operation">',
      "<h1>Authenticate</h1>",
      "<p><Info>Tokens expire after one hour.</Info></p>",
      '<p class="endpoint"><span class="method m-post">POST</span> <code data-testid="endpoint">/authenticate</code></p>',
    ]);
    expect(html.split("\n").filter((l) => l.includes("Tokens expire"))).toHaveLength(1);
  });
});
