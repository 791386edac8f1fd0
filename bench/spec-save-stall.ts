/**
 * How long one edit to a large OpenAPI spec holds every reader: serve a copy of the demo whose
 * navigation names a spec of N operations (shared component schemas, parameters, several
 * responses each, as generated specs are), search once, then change one operation's description
 * in the spec file and ping without pause until a search finds the new word; prints the longest
 * ping and how long the edit took to be searchable, for three edits one after another.
 *
 *   npx tsx bench/spec-save-stall.ts [N] [--props P] [--bin path/to/bin/svc-mcp.js]
 *
 * `--props P`: each resource schema has P more properties (adversary round 44 F2 used 60).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const bin = option("--bin") ?? new URL("../bin/svc-mcp.js", import.meta.url).pathname;
const props = Number(option("--props") ?? "0");
const [size = "3000"] = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const n = Number(size);

const RESOURCES = ["bucket", "object", "policy", "webhook", "key", "region", "invoice", "member", "project", "token"];
function spec(marked: number | undefined): unknown {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const resource = RESOURCES[i % RESOURCES.length] as string;
    const description = `Returns the ${resource} number ${i} with its settings, owner and the time it was last changed.${i === marked ? " zebramarker" : ""}`;
    paths[`/v1/${resource}s/${i}/{id}`] = {
      get: {
        operationId: `get${resource}${i}`,
        summary: `Get ${resource} ${i}`,
        description,
        tags: [resource],
        parameters: [
          { name: "id", in: "path", required: true, description: `The ${resource}'s id.`, schema: { type: "string" } },
          { $ref: "#/components/parameters/Limit" },
        ],
        responses: {
          "200": { description: "OK", content: { "application/json": { schema: { $ref: `#/components/schemas/${resource}` } } } },
          "401": { $ref: "#/components/responses/Unauthorized" },
          "404": { $ref: "#/components/responses/NotFound" },
        },
      },
    };
  }
  const schemas: Record<string, unknown> = {
    Error: { type: "object", properties: { code: { type: "string" }, message: { type: "string", description: "What went wrong." } } },
  };
  for (const r of RESOURCES) {
    schemas[r] = {
      type: "object",
      properties: {
        id: { type: "string", description: `The ${r}'s id.` },
        name: { type: "string", description: `The ${r}'s name, as shown in the dashboard.` },
        created_at: { type: "string", format: "date-time" },
        owner: { type: "object", properties: { id: { type: "string" }, email: { type: "string", format: "email" } } },
        labels: { type: "array", items: { type: "string" } },
        ...Object.fromEntries(Array.from({ length: props }, (_, k) => [`field_${k}`, { type: k % 3 === 0 ? "integer" : "string", description: `Field ${k} of the ${r}, as the dashboard shows it.` }])),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Big API", version: "1.0.0" },
    servers: [{ url: "https://api.example.com" }],
    paths,
    components: {
      schemas,
      parameters: { Limit: { name: "limit", in: "query", schema: { type: "integer", maximum: 100 }, description: "How many to return." } },
      responses: {
        Unauthorized: { description: "No valid key.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        NotFound: { description: "No such thing.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    },
  };
}

const root = mkdtempSync(join(tmpdir(), "spec-save-stall-"));
cpSync(new URL("../fixtures/demo", import.meta.url).pathname, root, { recursive: true });
const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as { navigation: { tabs: { tab: string; groups: unknown[] }[] } };
docs.navigation.tabs.push({ tab: "Big API", groups: [{ group: "Endpoints", openapi: "big-openapi.json" }] } as { tab: string; groups: unknown[] });
writeFileSync(join(root, "docs.json"), JSON.stringify(docs, null, 2));
writeFileSync(join(root, "big-openapi.json"), JSON.stringify(spec(undefined), null, 2));

const client = new Client({ name: "spec-save-stall", version: "1" });
const started = performance.now();
await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "serve", "--dir", root, "--state", mkdtempSync(join(tmpdir(), "spec-save-stall-state-"))], stderr: "ignore" }));
const search = (await client.listTools()).tools.find((t) => t.name.startsWith("search"))?.name ?? "search";
const first = (await client.callTool({ name: search, arguments: { query: "get the region with its owner" } })) as { content: { text: string }[] };
const readyMs = performance.now() - started;
if (!first.content[0]?.text.includes("region")) throw new Error(`the spec's pages are not searched: ${first.content[0]?.text.slice(0, 300)}`);

// Three edits one after another: the first after the start, then two more (a spec edited while
// an author works on it), each to another operation.
const edits: { worstPingMs: number; pings: number; searchableAfterMs: number }[] = [];
for (const marked of [Math.floor(n / 2), Math.floor(n / 3), Math.floor(n / 5)]) {
  const t0 = performance.now();
  writeFileSync(join(root, "big-openapi.json"), JSON.stringify(spec(marked), null, 2));
  let worst = 0;
  let pings = 0;
  let found = 0;
  while (found === 0 && performance.now() - t0 < 900_000) {
    const s = performance.now();
    await client.ping();
    worst = Math.max(worst, performance.now() - s);
    pings++;
    if (pings % 50 === 0) {
      const r = (await client.callTool({ name: search, arguments: { query: "zebramarker" } })) as { content: { text: string }[] };
      if (r.content[0]?.text.includes(`number ${marked} `)) found = performance.now() - t0;
    }
  }
  edits.push({ worstPingMs: Math.round(worst), pings, searchableAfterMs: Math.round(found) });
}
console.log(JSON.stringify({ operations: n, props, readyMs: Math.round(readyMs), edits }));
await client.close();
