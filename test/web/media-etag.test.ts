import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge } from "../bridge/harness.js";
import { previewRepo } from "./preview-site.js";

/** The repository's media as the preview serves them: tagged by content, revalidated with 304. */
let h: Harness;
let root: string;

beforeAll(async () => {
  root = previewRepo();
  h = await startBridge({ root, authMode: "partial", mcp: "enabled", apps: true });
});
afterAll(async () => {
  await h?.close();
});

describe("media of the repository", () => {
  it("carry an ETag of their bytes, and a matching If-None-Match is answered 304 without them", async () => {
    const bytes = readFileSync(join(root, "images/logo.png"));
    const tag = `"sha256-${createHash("sha256").update(bytes).digest("hex")}"`;
    const first = await fetch(`${h.origin}/images/logo.png`);
    expect([first.status, first.headers.get("etag"), first.headers.get("cache-control"), Buffer.from(await first.arrayBuffer()).equals(bytes)]).toEqual([200, tag, "no-cache", true]);
    const again = await fetch(`${h.origin}/images/logo.png`, { headers: { "If-None-Match": tag } });
    expect([again.status, again.headers.get("etag"), await again.text()]).toEqual([304, tag, ""]);
    const other = await fetch(`${h.origin}/images/logo.png`, { headers: { "If-None-Match": '"sha256-0"' } });
    expect(other.status).toBe(200);
  });
});
