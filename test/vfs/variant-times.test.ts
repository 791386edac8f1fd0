import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * Times of a spec with a restricted operation, as each reader sees them: an edit to the
 * restricted operation moves neither the spec's time nor its public pages' for a reader outside
 * the group (it would tell them the restricted part changed, and when); a generated API page is
 * dated by its spec as its readers see it, not 1970.
 */

const STAFF: Reader = { authenticated: true, groups: new Set(["staff"]), allGroups: false };

const spec = (secret: string, pub: string) =>
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Shop", version: "1.0.0" },
    paths: {
      "/orders": { get: { summary: "List orders", description: pub, responses: { "200": { description: "OK" } } } },
      "/vault": { get: { summary: "Open the vault", description: secret, "x-svc": { metadata: { groups: ["staff"] } }, responses: { "200": { description: "OK" } } } },
    },
  });

const T0 = new Date("2026-01-01T00:00:00Z");
const T1 = new Date("2026-02-01T00:00:00Z");
const T2 = new Date("2026-03-01T00:00:00Z");

let root: string;
let runtime: DocsRuntime;

function writeSpec(text: string, at: Date): void {
  const abs = join(root, "api/shop.json");
  writeFileSync(abs, text);
  utimesSync(abs, at, at);
}

/** `stat -c %y` of paths, as `reader` sees them. */
async function times(reader: Reader, ...paths: string[]): Promise<string> {
  return (await runtime.readerState(localContext(reader)).shell.run(`stat -c '%n %y' ${paths.join(" ")}`)).stdout;
}

beforeAll(async () => {
  root = writeRepo({
    "docs.json": { name: "Shop", navigation: { groups: [{ group: "API", openapi: "api/shop.json" }] } },
    "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
    "api/shop.json": "{}",
  });
  writeSpec(spec("SECRET-1", "v1"), T0);
  runtime = await DocsRuntime.load({ root });
});
afterAll(async () => {
  await runtime?.close();
});

describe("spec and API page times", () => {
  it("a generated API page is dated by its spec file, not 1970", async () => {
    expect(await times(ANONYMOUS, "/api/shop.json", "/api-reference/list-orders.mdx")).toBe(
      "/api/shop.json 2026-01-01 00:00:00.000000000 +0000\n/api-reference/list-orders.mdx 2026-01-01 00:00:00.000000000 +0000\n",
    );
  });

  it("an edit to the restricted operation moves the times staff see, not the anonymous reader's (spec, page, folder)", async () => {
    // Read once as each reader before the edit, as a reader polling the times would.
    await times(ANONYMOUS, "/api/shop.json");
    await times(STAFF, "/api/shop.json");
    writeSpec(spec("SECRET-2", "v1"), T1);
    await runtime.applyChanges(["api/shop.json"]);
    expect(await times(ANONYMOUS, "/api/shop.json", "/api-reference/list-orders.mdx", "/api-reference")).toBe(
      "/api/shop.json 2026-01-01 00:00:00.000000000 +0000\n/api-reference/list-orders.mdx 2026-01-01 00:00:00.000000000 +0000\n/api-reference 2026-01-01 00:00:00.000000000 +0000\n",
    );
    expect(await times(STAFF, "/api/shop.json", "/api-reference/open-the-vault.mdx")).toBe("/api/shop.json 2026-02-01 00:00:00.000000000 +0000\n/api-reference/open-the-vault.mdx 2026-02-01 00:00:00.000000000 +0000\n");
  });

  it("an edit to the public operation moves everyone's", async () => {
    writeSpec(spec("SECRET-2", "v2"), T2);
    await runtime.applyChanges(["api/shop.json"]);
    expect(await times(ANONYMOUS, "/api/shop.json", "/api-reference/list-orders.mdx")).toBe(
      "/api/shop.json 2026-03-01 00:00:00.000000000 +0000\n/api-reference/list-orders.mdx 2026-03-01 00:00:00.000000000 +0000\n",
    );
  });
});
