import { createHash } from "node:crypto";
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { request } from "node:http";
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

  it("an edit to the file changes its ETag, even one keeping its size and modification time; an unchanged file keeps it", async () => {
    const path = join(root, "images/logo.png");
    const bytes = readFileSync(path);
    const tagOf = (b: Buffer): string => `"sha256-${createHash("sha256").update(b).digest("hex")}"`;
    const before = statSync(path);
    const edited = Buffer.from(bytes);
    edited.writeUInt8(edited.readUInt8(edited.length - 1) ^ 0xff, edited.length - 1);
    writeFileSync(path, edited);
    utimesSync(path, before.atime, before.mtime);
    const res = await fetch(`${h.origin}/images/logo.png`, { headers: { "If-None-Match": tagOf(bytes) } });
    expect([res.status, res.headers.get("etag"), Buffer.from(await res.arrayBuffer()).equals(edited)]).toEqual([200, tagOf(edited), true]);
    const same = await fetch(`${h.origin}/images/logo.png`, { headers: { "If-None-Match": tagOf(edited) } });
    expect([same.status, same.headers.get("etag")]).toEqual([304, tagOf(edited)]);
    writeFileSync(path, bytes);
  });

  it("HEAD answers the headers of GET without the bytes, over HTTP", async () => {
    const bytes = readFileSync(join(root, "images/logo.png"));
    const head = await new Promise<{ status: number; length: string | undefined; body: string }>((resolve, reject) => {
      const req = request(`${h.origin}/images/logo.png`, { method: "HEAD" }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, length: res.headers["content-length"], body }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(head).toEqual({ status: 200, length: String(bytes.length), body: "" });
  });
});
