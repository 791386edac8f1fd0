import { describe, expect, it } from "vitest";
import { diagramText } from "../../../src/engine/search/diagram-text.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { splitSections } from "../../../src/engine/search/sections.js";
import { inlineSite } from "./inline-site.js";

/**
 * A ```mermaid fence is a diagram the platform draws: a reader reads its labels, not its source.
 * Read as code, trama's snippet showed `direction LR A : To contact A --> B : the rep sends...`
 * (a site new on 2026-12-05; 900 pages of the 49 eval sites draw diagrams).
 */
describe("Mermaid diagrams", () => {
  it("are their labels, messages and titles, without ids, arrows, shapes, styles or the diagram's type", () => {
    const lines = [
      "graph LR",
      "  A[Start] --> B{Is it?}",
      "  B -->|Yes| C[OK]",
      '  db[(Postgres store)]:::blue --> E["Quoted label"]',
      "  classDef blue fill:#f9f",
      "  participant U as User",
      "  U->>API: POST /v1/orders",
      "  CUSTOMER ||--o{ ORDER : places",
      "  [*] --> Still",
      "pie title Pets adopted",
      "%% a comment",
      "  client<br/>app --> server",
    ];
    expect(lines.map(diagramText)).toEqual(["", "Start Is it?", "B Yes OK", "Postgres store Quoted label", "", "User", "U API: POST /v1/orders", "CUSTOMER ORDER : places", "Still", "title Pets adopted", "", "client app server"]);
  });

  it("read long runs of one character once (a pattern tried at each start of a run re-read it)", () => {
    const runs = ["|", " ", "<", "}", "\"", ";a", "a["].map((unit) => `z${unit.repeat(400_000 / unit.length)}q`);
    expect(runs.map((line) => diagramText(line).length)).toEqual([3, 3, 3, 3, 3, 400_002, 399_999]);
  });

  it("are the section's prose, and the snippet reads them; other fences stay code", () => {
    const body = "## Flow\n\nHow a quote moves.\n\n```mermaid\nflowchart LR\n  A[New lead] -->|rep sends a price| B[Quoted]\n  classDef x fill:#fff\n```\n\n```js\nconst a = 1;\n```\n";
    const [flow] = splitSections(body);
    expect([flow?.prose, flow?.code]).toEqual(["How a quote moves.\n\nNew lead rep sends a price Quoted", "const a = 1;"]);
    const site = inlineSite({ "/board.mdx": `---\ntitle: Board\n---\n\n${body}` });
    const index = new SearchIndex();
    index.sync(site);
    expect(index.search({ query: "lead quoted price", canRead: () => true }).map((h) => [h.page.path, h.snippet])).toEqual([["/board", "How a quote moves. New lead rep sends a price Quoted const a = 1;"]]);
  });
});
