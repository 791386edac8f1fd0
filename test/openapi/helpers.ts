import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { loadSite } from "../../src/vfs/load-site.js";
import type { Site } from "../../src/vfs/site.js";

const made: string[] = [];
// Removed once the file's tests are done, not after each: a file may share one repository
// between its tests (made while collecting them, or in `beforeAll`). Only under vitest: the
// benches (`npm run bench`) import these helpers too, and a hook outside a test run throws.
if (process.env.VITEST !== undefined) {
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

/** Write a small docs repository into a temp dir (removed after the test file): `{ "docs.json": {...}, "a.mdx": "..." }`. */
export function writeRepo(files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), "svc-openapi-"));
  made.push(root);
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

export async function load(files: Record<string, unknown>): Promise<Site> {
  return (await loadSite(writeRepo(files))).site;
}

/** Diagnostics as `check` prints them. */
export function lines(site: Site): string[] {
  return site.diagnostics.map(formatDiagnostic);
}

export function generated(site: Site): string[] {
  return [...site.pages.values()].filter((p) => p.generated).map((p) => p.path);
}

/** A small OpenAPI 3.0 spec: users and pets. */
export function usersSpec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Users API", version: "1.0.0" },
    servers: [{ url: "https://api.example.com/v1" }],
    paths: {
      "/users": {
        get: { summary: "List users", tags: ["Users"], responses: { "200": { description: "OK" } } },
        post: { summary: "Create user", tags: ["Users"], responses: { "201": { description: "Created" } } },
      },
      "/users/{id}": {
        get: {
          summary: "Get user",
          tags: ["Users"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "OK" } },
        },
      },
      "/pets/": { get: { summary: "List pets", tags: ["Pets"], responses: { "200": { description: "OK" } } } },
      ...extra,
    },
  };
}
