import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeRepo } from "../openapi/helpers.js";

/** A 1x1 PNG (a real image the browser decodes). */
export const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5d7a1d50000000049454e44ae426082", "hex");
/** Enough of an MP3 and an MP4 for a content type; the page shows a player either way. */
export const MP3 = Buffer.from("494433030000000000", "hex");
export const MP4 = Buffer.from("000000186674797069736f6d0000020069736f6d69736f32", "hex");

/** What the test API received: method, path with query, headers and body. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** A local API on 127.0.0.1 answering JSON, PNG (`png`), MP3 and MP4; it records every request. */
export async function startTestApi(png: Buffer = PNG): Promise<{ server: Server; origin: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      // Any origin may call it (the `proxy: false` pages call it from the browser).
      res.setHeader("access-control-allow-origin", "*");
      res.setHeader("access-control-expose-headers", "x-request-id");
      if (req.method === "OPTIONS") {
        res.writeHead(204, { "access-control-allow-methods": "GET, POST", "access-control-allow-headers": "content-type, x-api-key, x-trace" });
        res.end();
        return;
      }
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const path = (req.url ?? "").split("?")[0] ?? "";
      if (/^\/v1\/pets\/[^/]+\/photo$/.test(path)) {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(png);
      } else if (/^\/v1\/pets\/[^/]+\/bark$/.test(path)) {
        res.writeHead(200, { "content-type": "audio/mpeg" });
        res.end(MP3);
      } else if (/^\/v1\/pets\/[^/]+\/video$/.test(path)) {
        res.writeHead(200, { "content-type": "video/mp4" });
        res.end(MP4);
      } else if (path.startsWith("/v1/")) {
        res.writeHead(req.method === "POST" ? 201 : 200, { "content-type": "application/json", "x-request-id": "req-1" });
        res.end(JSON.stringify({ path, query: (req.url ?? "").split("?")[1] ?? null, body: body === "" ? null : (JSON.parse(body) as unknown) }));
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      }
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  return { server, origin: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const op = (summary: string, extra: Record<string, unknown> = {}) => ({ summary, tags: ["Pets"], responses: { "200": { description: "OK" } }, ...extra });
const petId = { name: "petId", in: "path", required: true, description: "The pet's id.", schema: { type: "string" }, example: "rex" };

/**
 * The pets site of the page tests (and the screenshots and bench): every media type the
 * playground renders, and every display rule. `apiOrigin` is the test API's.
 */
export function petsRepo(apiOrigin: string, api: Record<string, unknown> = {}): string {
  return writeRepo({
    "docs.json": {
      name: "Pets Docs",
      api: { playground: { url: "full" }, examples: { languages: ["curl", "python"], prefill: true }, ...api },
      navigation: {
        groups: [
          { group: "Start", pages: ["index", "adopt"] },
          {
            group: "Pets",
            openapi: "pets.json",
            pages: ["GET /pets/{petId}", "GET /pets/{petId}/photo", "GET /pets/{petId}/bark", "GET /pets/{petId}/video", "GET /stats", "GET /members", "GET /kennel", "GET /vault"],
          },
          { group: "Events", asyncapi: "events.yaml" },
        ],
      },
    },
    "index.mdx": "---\ntitle: Home\n---\n\nWelcome to the pets API.\n",
    "adopt.mdx": '---\ntitle: Adopting a pet\nopenapi: "pets.json POST /pets"\n---\n\nADOPT-PROSE-17 Fill in the form below to adopt.\n',
    "pets.json": {
      openapi: "3.0.3",
      info: { title: "Pets", version: "1" },
      servers: [{ url: `${apiOrigin}/v1` }],
      components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } } },
      paths: {
        "/pets/{petId}": {
          get: op("Get a pet", {
            description: "Returns one pet by its id.",
            parameters: [
              petId,
              { name: "species", in: "query", description: "Filter by species.", schema: { type: "string", enum: ["dog", "cat"] }, example: "dog" },
              { name: "X-Trace", in: "header", schema: { type: "string" } },
            ],
            security: [{ key: [] }],
            responses: { "200": { description: "The pet", content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } } } } },
          }),
        },
        "/pets": {
          post: op("Create a pet", {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["name"],
                    properties: { name: { type: "string", example: "Rex" }, owner: { type: "object", properties: { email: { type: "string", format: "email" } } } },
                  },
                },
              },
            },
          }),
        },
        "/pets/{petId}/photo": { get: op("Pet photo", { parameters: [petId] }) },
        "/pets/{petId}/bark": { get: op("Pet bark", { parameters: [petId] }) },
        "/pets/{petId}/video": { get: op("Pet video", { parameters: [petId] }) },
        "/stats": { get: op("Statistics", { "x-svc": { metadata: { playground: "none" } } }) },
        "/members": { get: op("Members area", { "x-svc": { metadata: { playground: "auth" } } }) },
        "/kennel": { get: op("Kennel staff tools", { "x-svc": { metadata: { playground: "auth", groups: ["staff"], public: true } } }) },
        "/vault": { get: op("Vault VAULT-OP-61", { "x-svc": { metadata: { groups: ["staff"] } } }) },
      },
    },
    "events.yaml": [
      "asyncapi: 3.0.0",
      "info: { title: Pet events, version: 1.0.0 }",
      "channels:",
      "  petAdopted:",
      "    address: pets.{petId}.adopted",
      "    parameters:",
      "      petId: { description: The adopted pet. }",
      "    messages:",
      "      adopted: { payload: { type: object, properties: { petId: { type: string } } } }",
      "operations:",
      "  onAdopted:",
      "    action: receive",
      '    channel: { $ref: "#/channels/petAdopted" }',
      "",
    ].join("\n"),
  });
}
