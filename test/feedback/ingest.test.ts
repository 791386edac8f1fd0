import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { type FeedbackServer, ms, postJson, startFeedbackServer, testClock } from "./harness.js";

const NOW = "2024-05-01T09:30:00.000Z";
const ID = /^fb_[a-z2-7]{20}$/;
let srv: FeedbackServer;

beforeAll(async () => {
  srv = await startFeedbackServer({ clock: testClock(ms(NOW)).now });
});
afterAll(async () => {
  await srv.close();
});

const post = (kind: string, body: unknown, headers?: Record<string, string>) => postJson(`${srv.url}/v1/feedback/docs/${kind}`, body, headers);

async function errorOf(res: Response) {
  return { status: res.status, body: await res.json() };
}

describe("ingestion: each widget's body becomes an entry with exactly its source's fields", () => {
  it("page rating (thumbs_only): the vote is the comment", async () => {
    const res = await post("rating", { path: "/guides/setup", helpful: false });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.json();
    expect(body.id).toMatch(ID);
    expect(body).toEqual({ id: body.id, path: "/guides/setup", comment: "not helpful", createdAt: NOW, source: "thumbs_only", status: "pending" });
    expect(Object.keys(body)).toEqual(["id", "path", "comment", "createdAt", "source", "status"]);
  });

  it("contextual feedback with and without a contact address", async () => {
    const withContact = await (await post("contextual", { path: "/a", helpful: true, comment: "  Clear, thanks. ", contact: "Ana@Example.com" })).json();
    expect(withContact).toEqual({
      id: withContact.id,
      path: "/a",
      comment: "Clear, thanks.",
      createdAt: NOW,
      source: "contextual",
      status: "pending",
      helpful: true,
      contact: "Ana@Example.com",
    });
    // Forms send an empty field as "" or null: no contact, and no `contact` key at all.
    for (const contact of [undefined, "", "  ", null]) {
      const body = await (await post("contextual", { path: "/a", helpful: false, comment: "Step 3 fails", ...(contact === undefined ? {} : { contact }) })).json();
      expect(body).toEqual({ id: body.id, path: "/a", comment: "Step 3 fails", createdAt: NOW, source: "contextual", status: "pending", helpful: false });
    }
  });

  it("code-snippet feedback keeps the code verbatim; missing file name and language are null", async () => {
    const code = "  npm install\n\tnpx svc-mcp serve\n";
    const full = await (await post("code-snippet", { path: "/quickstart", comment: "Fails on Windows", code, filename: "install.sh", lang: "bash" })).json();
    expect(full).toEqual({
      id: full.id,
      path: "/quickstart",
      comment: "Fails on Windows",
      createdAt: NOW,
      source: "code_snippet",
      status: "pending",
      code,
      filename: "install.sh",
      lang: "bash",
    });
    const bare = await (await post("code-snippet", { path: "/quickstart", comment: "Typo", code: "x = 1", filename: "", lang: null })).json();
    expect(bare).toMatchObject({ code: "x = 1", filename: null, lang: null });
  });

  it("the entry is in the analytics API right after the 201", async () => {
    const created = await (await post("rating", { path: "/just-now", helpful: true })).json();
    const page = await (await srv.api("/v1/analytics/docs/feedback?limit=1")).json();
    expect(page.feedback).toEqual([created]);
  });

  it("page paths are normalized: leading slash, no trailing slash, extension, query or fragment", async () => {
    const cases: [string, string][] = [
      ["guides/setup", "/guides/setup"],
      ["/guides/setup/", "/guides/setup"],
      ["/guides//setup.mdx", "/guides/setup"],
      ["/guides/setup.md?x=1#step-2", "/guides/setup"],
      ["/", "/"],
    ];
    for (const [path, stored] of cases) {
      const body = await (await post("rating", { path, helpful: true })).json();
      expect([path, body.path]).toEqual([path, stored]);
    }
  });

  it("sendBeacon's text/plain and a missing Content-Type are read as JSON", async () => {
    const beacon = await fetch(`${srv.url}/v1/feedback/docs/rating`, {
      method: "POST",
      headers: { "content-type": "text/plain;charset=UTF-8" },
      body: JSON.stringify({ path: "/b", helpful: true }),
    });
    expect(beacon.status).toBe(201);
  });
});

describe("ingestion: bad input is a 400 naming each parameter, and stores nothing", () => {
  it("every problem of a body at once, each with its parameter", async () => {
    const before = (await (await srv.api("/v1/analytics/docs/feedback?limit=100")).json()).feedback.length;
    const res = await post("contextual", { path: "https://example.com/a", helpful: "yes", comment: " ", contact: "not-an-address", comments: "x" });
    expect(await errorOf(res)).toEqual({
      status: 400,
      body: {
        error: {
          code: "invalid_parameter",
          param: "path",
          message:
            '5 invalid parameters: path must be a page path such as /guides/setup, not a URL; got "https://example.com/a"; ' +
            'helpful must be a boolean (true or false); got "yes"; comment must not be empty; contact must be an e-mail address; got "not-an-address"; ' +
            'unknown field "comments"; allowed: path, helpful, comment, contact',
          details: [
            { code: "invalid_parameter", param: "path", message: 'path must be a page path such as /guides/setup, not a URL; got "https://example.com/a"' },
            { code: "invalid_parameter", param: "helpful", message: 'helpful must be a boolean (true or false); got "yes"' },
            { code: "invalid_parameter", param: "comment", message: "comment must not be empty" },
            { code: "invalid_parameter", param: "contact", message: 'contact must be an e-mail address; got "not-an-address"' },
            { code: "unknown_parameter", param: "comments", message: 'unknown field "comments"; allowed: path, helpful, comment, contact' },
          ],
        },
      },
    });
    const after = (await (await srv.api("/v1/analytics/docs/feedback?limit=100")).json()).feedback.length;
    expect(after).toBe(before);
  });

  it("a field holding half a surrogate pair is refused, naming it; whole pairs and U+FFFD are stored exactly as answered (adversary round 58, F11)", async () => {
    const list = async () => (await (await srv.api("/v1/analytics/docs/feedback?limit=100")).json()).feedback as { id: string }[];
    const before = (await list()).length;
    const raw = (kind: string, body: string) => fetch(`${srv.url}/v1/feedback/docs/${kind}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    // Before, answered 201 with "x\ud800y" and stored as "x\ufffd\ufffd\ufffdy".
    expect(await errorOf(await raw("contextual", '{"path":"/a","helpful":false,"comment":"x\\ud800y"}'))).toEqual({
      status: 400,
      body: {
        error: {
          code: "invalid_parameter",
          param: "comment",
          message: "comment must be text: it holds \\ud800 at character 1, half of a surrogate pair, which no store keeps",
          details: [{ code: "invalid_parameter", param: "comment", message: "comment must be text: it holds \\ud800 at character 1, half of a surrogate pair, which no store keeps" }],
        },
      },
    });
    const snippet = await errorOf(await raw("code-snippet", '{"path":"/a","comment":"ok \\ud83d\\ude00","code":"a\\udc00","filename":"\\ud83d","lang":"sh"}'));
    expect(snippet).toEqual({
      status: 400,
      body: {
        error: {
          code: "invalid_parameter",
          param: "code",
          message: "2 invalid parameters: code must be text: it holds \\udc00 at character 1, half of a surrogate pair, which no store keeps; filename must be text: it holds \\ud83d at character 0, half of a surrogate pair, which no store keeps",
          details: [
            { code: "invalid_parameter", param: "code", message: "code must be text: it holds \\udc00 at character 1, half of a surrogate pair, which no store keeps" },
            { code: "invalid_parameter", param: "filename", message: "filename must be text: it holds \\ud83d at character 0, half of a surrogate pair, which no store keeps" },
          ],
        },
      },
    });
    expect((await list()).length).toBe(before);
    const answered = await (await raw("contextual", '{"path":"/a","helpful":true,"comment":"x\\ud83d\\ude00y \\ufffd"}')).json();
    expect(answered.comment).toBe("x\u{1f600}y \ufffd");
    expect((await list()).find((e) => e.id === answered.id)).toEqual(answered);
  });

  it("missing fields", async () => {
    expect(await errorOf(await post("code-snippet", { comment: "x" }))).toEqual({
      status: 400,
      body: {
        error: {
          code: "missing_parameter",
          param: "path",
          message: "2 invalid parameters: path is required; code is required",
          details: [
            { code: "missing_parameter", param: "path", message: "path is required" },
            { code: "missing_parameter", param: "code", message: "code is required" },
          ],
        },
      },
    });
  });

  it("over-long fields name their limit", async () => {
    const res = await post("code-snippet", { path: "/a", comment: "x".repeat(LIMITS.feedback.maxCommentChars + 1), code: "  ", lang: "l".repeat(65) });
    expect((await res.json()).error.details).toEqual([
      { code: "invalid_parameter", param: "comment", message: "comment must be at most 5000 characters" },
      { code: "invalid_parameter", param: "code", message: "code must not be blank" },
      { code: "invalid_parameter", param: "lang", message: "lang must be at most 64 characters" },
    ]);
  });

  it("bodies that are not a JSON object", async () => {
    const raw = (body: string, type = "application/json") =>
      fetch(`${srv.url}/v1/feedback/docs/rating`, { method: "POST", headers: { "content-type": type }, body });
    expect(await errorOf(await raw("{nope"))).toEqual({
      status: 400,
      body: { error: { code: "invalid_json", message: expect.stringMatching(/^request body is not valid JSON: /) } },
    });
    expect(await errorOf(await raw("[1]"))).toEqual({ status: 400, body: { error: { code: "invalid_json", message: "request body must be a JSON object" } } });
    expect(await errorOf(await raw(""))).toEqual({ status: 400, body: { error: { code: "invalid_json", message: "request body is empty; send a JSON object" } } });
    expect(await errorOf(await raw("path=/a", "application/x-www-form-urlencoded"))).toEqual({
      status: 415,
      body: { error: { code: "unsupported_media_type", message: "send the body as application/json; got Content-Type application/x-www-form-urlencoded" } },
    });
  });

  it("decodes a body by its declared charset, UTF-8 or UTF-16, and refuses any other with a 415 (issue 25)", async () => {
    // Before, every body was read as UTF-8: UTF-16's NULs made it a 400 (invalid JSON).
    const send = (body: Uint8Array, type: string) => fetch(`${srv.url}/v1/feedback/docs/contextual`, { method: "POST", headers: { "content-type": type }, body: Buffer.from(body) });
    const json = JSON.stringify({ path: "/a", helpful: true, comment: "Très clair ✓" });
    const le = new Uint8Array(Buffer.from(json, "utf16le"));
    const be = new Uint8Array(Buffer.from(json, "utf16le").swap16());
    const entry = (res: Response) => res.json().then((b: { path: string; comment: string }) => [res.status, b.path, b.comment]);
    const stored = [201, "/a", "Très clair ✓"];
    expect(await entry(await send(le, "application/json; charset=utf-16le"))).toEqual(stored);
    expect(await entry(await send(be, "application/json; charset=UTF-16BE"))).toEqual(stored);
    // `utf-16`: a byte-order mark says which; without one, little-endian (as TextDecoder reads it).
    expect(await entry(await send(new Uint8Array([0xfe, 0xff, ...be]), 'application/json; charset="utf-16"'))).toEqual(stored);
    expect(await entry(await send(le, "application/json; charset=utf-16"))).toEqual(stored);
    expect(await entry(await send(new TextEncoder().encode(json), "application/json; charset=utf-8"))).toEqual(stored);
    expect(await errorOf(await send(new TextEncoder().encode(json), "application/json; charset=iso-8859-1"))).toEqual({
      status: 415,
      body: { error: { code: "unsupported_media_type", message: 'charset "iso-8859-1" is not supported; send the body as UTF-8 (or UTF-16)' } },
    });
    // An odd byte cannot be UTF-16: a 400, never a 5xx.
    expect(await errorOf(await send(le.subarray(0, le.length - 1), "application/json; charset=utf-16le"))).toEqual({
      status: 400,
      body: { error: { code: "invalid_json", message: "request body is not valid UTF-16" } },
    });
  });

  it("a body over the limit is a 413, with or without Content-Length", async () => {
    const big = JSON.stringify({ path: "/a", comment: "x", code: "y".repeat(LIMITS.feedback.maxBodyBytes) });
    const expected = { status: 413, body: { error: { code: "payload_too_large", message: "request body exceeds 65536 bytes" } } };
    expect(await errorOf(await post("code-snippet", JSON.parse(big)))).toEqual(expected);
    // Streamed (chunked, no Content-Length): cut off while reading.
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const chunked = await fetch(`${srv.url}/v1/feedback/docs/code-snippet`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(await errorOf(chunked)).toEqual(expected);
  });

  it("an unknown project is a 404; other methods a 405; CORS preflight is answered", async () => {
    expect(await errorOf(await postJson(`${srv.url}/v1/feedback/nope/rating`, { path: "/a", helpful: true }))).toEqual({
      status: 404,
      body: { error: { code: "project_not_found", message: 'no project "nope" on this server' } },
    });
    const get = await fetch(`${srv.url}/v1/feedback/docs/rating`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await get.json()).toEqual({ error: { code: "method_not_allowed", message: "this endpoint accepts POST, OPTIONS" } });
    const preflight = await fetch(`${srv.url}/v1/feedback/docs/contextual`, {
      method: "OPTIONS",
      headers: { origin: "https://docs.example.com", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    const cors: Record<string, string> = {};
    preflight.headers.forEach((value, name) => {
      if (name.startsWith("access-control-")) cors[name] = value;
    });
    expect(cors).toEqual({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": "Content-Type",
      "access-control-max-age": "86400",
    });
  });

  it("error responses to widgets carry CORS headers too (the page can read the message)", async () => {
    const res = await post("rating", { path: "/a" });
    expect(res.status).toBe(400);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
