import { describe, expect, it } from "vitest";
import { lines, load } from "./helpers.js";

const spec = {
  openapi: "3.1.0",
  info: { title: "Notes", version: "1" },
  servers: [{ url: "https://api.notes.test/v1" }],
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  security: [{ bearer: [] }],
  paths: {
    "/notes/{id}": {
      patch: {
        summary: "Update a note",
        description: "Changes the text of a note.\nOnly the owner may do this.",
        tags: ["Notes"],
        parameters: [
          { name: "id", in: "path", required: true, description: "Note id", schema: { type: "string", format: "uuid" } },
          { name: "notify", in: "query", schema: { type: "boolean", default: false } },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["text"],
                properties: {
                  text: { type: "string", description: "New text", example: "Buy milk" },
                  meta: { type: "object", properties: { color: { type: "string", enum: ["red", "blue"] } } },
                },
              },
            },
          },
        },
        responses: {
          "200": { description: "The note", content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" }, text: { type: "string" } } }, example: { id: "n1", text: "Buy milk" } } } },
          "404": { description: "No such note" },
        },
      },
    },
  },
};

describe("a generated operation page", () => {
  it("is written whole: front matter, endpoint, parameters with anchors, body, responses, examples, source", async () => {
    const site = await load({ "docs.json": { api: { examples: { languages: ["curl", "python", "javascript"], prefill: true } }, navigation: { groups: [{ group: "API", openapi: "notes.json", pages: ["PATCH /notes/{id}"] }] } }, "notes.json": spec });
    expect(lines(site)).toEqual([]);
    const page = site.pages.get("/api-reference/notes/update-a-note");
    expect(page?.generated).toBe(true);
    expect(page?.title).toBe("Update a note");
    expect(page?.file.path).toBe("/api-reference/notes/update-a-note.mdx");
    expect(page?.file.text).toBe(`---
title: "Update a note"
description: "Changes the text of a note."
openapi: "notes.json PATCH /notes/{id}"
playground: "interactive"
---

# Update a note

\`PATCH /notes/{id}\`

Changes the text of a note.
Only the owner may do this.

**Base URL:** \`https://api.notes.test/v1\`
**Authentication:** Bearer token (\`Authorization: Bearer <token>\`)
**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request

## Path parameters

- [\`id\`](#id) \`string<uuid>\` required: Note id

## Query parameters

- [\`notify\`](#notify) \`boolean\` (default: false)

## Request body

\`application/json\` (required)

- [\`text\`](#text) \`string\` required: New text
- [\`meta\`](#meta) \`object\`
  - [\`meta.color\`](#meta.color) \`string\` (one of: "red", "blue")

## Responses

### 200: The note

\`application/json\`

- \`id\` \`string\`
- \`text\` \`string\`

### 404: No such note

## Examples

### Request

\`\`\`bash cURL
curl --request PATCH \\
  --url 'https://api.notes.test/v1/notes/3fa85f64-5717-4562-b3fc-2c963f66afa6?notify=false' \\
  --header 'Authorization: Bearer <token>' \\
  --header 'Content-Type: application/json' \\
  --data '{
  "text": "Buy milk",
  "meta": {
    "color": "red"
  }
}'
\`\`\`

\`\`\`python Python
import requests

url = "https://api.notes.test/v1/notes/3fa85f64-5717-4562-b3fc-2c963f66afa6?notify=false"
headers = {"Authorization": "Bearer <token>", "Content-Type": "application/json"}
payload = {
    "text": "Buy milk",
    "meta": {
        "color": "red"
    }
}

response = requests.request("PATCH", url, headers=headers, json=payload)

print(response.text)
\`\`\`

\`\`\`javascript JavaScript
const response = await fetch("https://api.notes.test/v1/notes/3fa85f64-5717-4562-b3fc-2c963f66afa6?notify=false", {
  method: "PATCH",
  headers: {
    "Authorization": "Bearer <token>",
    "Content-Type": "application/json",
  },
  body: JSON.stringify({
    "text": "Buy milk",
    "meta": {
      "color": "red"
    }
  }),
});

console.log(await response.text());
\`\`\`

### Response

\`\`\`json 200
{
  "id": "n1",
  "text": "Buy milk"
}
\`\`\`

## Source

Generated from \`/notes.json\`: \`jq '.["paths"]["/notes/{id}"]["patch"]' /notes.json\`
`);
    expect(site.api?.pages.get("/api-reference/notes/update-a-note")?.anchors).toEqual([
      { in: "path", name: "id", anchor: "id" },
      { in: "query", name: "notify", anchor: "notify" },
      { in: "body", name: "text", anchor: "text" },
      { in: "body", name: "meta", anchor: "meta" },
      { in: "body", name: "meta.color", anchor: "meta.color" },
    ]);
  });

  it("lists the security schemes by name, with their descriptions, when two read alike or one says more", async () => {
    // Polar: personal and organization access tokens are both bearer tokens; their descriptions tell them apart.
    const authSpec = {
      ...spec,
      components: {
        securitySchemes: {
          pat: { type: "http", scheme: "bearer", description: "A personal access token,\n  from your account settings." },
          oat: { type: "http", scheme: "bearer", description: "An organization access token." },
          key: { type: "apiKey", in: "header", name: "X-Key", description: "   " },
        },
      },
      security: [{ pat: [] }, { oat: [], key: [] }, {}],
    };
    const described = { ...authSpec, security: [{ key: [] }], components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key", description: "The project key." } } } };
    const plain = { ...authSpec, security: [{ key: [] }, {}], components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } } };
    const authLines = async (s: unknown): Promise<string[]> => {
      const site = await load({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "notes.json", pages: ["PATCH /notes/{id}"] }] } }, "notes.json": s });
      const text = site.pages.get("/api-reference/notes/update-a-note")?.file.text ?? "";
      return text.slice(text.indexOf("**Authentication:**"), text.indexOf("## Path parameters")).split("\n");
    };
    expect(await authLines(authSpec)).toEqual([
      "**Authentication:** Bearer token (`Authorization: Bearer <token>`), or Bearer token (`Authorization: Bearer <token>`) and API key in header `X-Key`, or none",
      "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request",
      "",
      "## Authentication",
      "",
      "- `pat`: Bearer token (`Authorization: Bearer <token>`). A personal access token, from your account settings.",
      "- `oat`: Bearer token (`Authorization: Bearer <token>`). An organization access token.",
      "- `key`: API key in header `X-Key`",
      "",
      "",
    ]);
    expect(await authLines(described)).toEqual([
      "**Authentication:** API key in header `X-Key`",
      "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request",
      "",
      "## Authentication",
      "",
      "- `key`: API key in header `X-Key`. The project key.",
      "",
      "",
    ]);
    // Each way reads differently and none says more: the line alone, as before.
    expect(await authLines(plain)).toEqual(["**Authentication:** API key in header `X-Key`, or none", "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request", "", ""]);
  });

  it("defaults: required keeps only required parameters; without prefill values are placeholders; url: full shows the base URL", async () => {
    const site = await load({
      "docs.json": { api: { playground: { url: "full", display: "auth", proxy: false }, examples: { languages: ["curl", "cobol"], defaults: "required" } }, navigation: { groups: [{ group: "API", openapi: "notes.json", pages: ["PATCH /notes/{id}"] }] } },
      "notes.json": spec,
    });
    expect(lines(site)).toEqual(['docs.json api.examples.languages[1]: warning: no code examples are generated for "cobol" (supported: curl, bash, sh, shell, python, py, javascript, js, node, nodejs, typescript, ts, go, golang, ruby, rb, php)']);
    const text = site.pages.get("/api-reference/notes/update-a-note")?.file.text ?? "";
    expect(text).toContain("`PATCH https://api.notes.test/v1/notes/{id}`");
    expect(text).toContain("**Playground:** signed-in readers; requests go from the browser straight to the API (it must allow CORS)");
    expect(text).toContain(`\`\`\`bash cURL
curl --request PATCH \\
  --url 'https://api.notes.test/v1/notes/{id}' \\
  --header 'Authorization: Bearer <token>' \\
  --header 'Content-Type: application/json' \\
  --data '{
  "text": "<string>"
}'
\`\`\``);
    expect(text).not.toContain("```python");
    expect(site.api?.pages.get("/api-reference/notes/update-a-note")?.playground).toEqual({ display: "auth", public: false, fullUrl: true, transport: "direct", prefill: false });
  });
});
