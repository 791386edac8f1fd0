import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { PREVIEW_PATHS } from "../../src/bridge/web/preview/preview-api.js";
import { createFeedbackApp } from "../../src/bridge/feedback/app.js";
import { openFeedbackStore } from "../../src/store/feedback/sqlite-store.js";
import { openKeyStore } from "../../src/store/keys/key-store.js";
import { type Harness, startBridge, tempDir } from "./harness.js";

/**
 * No app mounted on the bridge has an error handler of its own: what the feedback API's routes
 * and the preview's calls throw is answered by the bridge's one handler, as on every route. The
 * feedback widgets' routes add their CORS headers to that answer (a widget on the docs site's
 * origin must be able to read it).
 */

const state = tempDir("svc-feedback-errors-");
const store = openFeedbackStore(state.dir);
const keys = openKeyStore(state.dir);
let h: Harness;
beforeAll(async () => {
  h = await startBridge({ bridge: { extraRoutes: [(app) => app.route("/", createFeedbackApp({ store, keys, projects: new Set(["docs"]) }))] } });
});
afterAll(async () => {
  await h.close();
  await keys.close();
  state.cleanup();
});

async function post(path: string, body: string) {
  const r = await fetch(`${h.origin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  return { status: r.status, type: r.headers.get("content-type"), cors: r.headers.get("access-control-allow-origin"), body: (await r.json()) as unknown };
}

describe("feedback errors, mounted on the bridge", () => {
  it("a refusal is the API error, with the widgets' CORS headers", async () => {
    expect(await post("/v1/feedback/docs/rating", "[1]")).toEqual({
      status: 400,
      type: "application/json",
      cors: "*",
      body: { error: { code: "invalid_json", message: "request body must be a JSON object" } },
    });
    expect(await post("/v1/feedback/nope/rating", "{}")).toEqual({
      status: 404,
      type: "application/json",
      cors: "*",
      body: { error: { code: "project_not_found", message: 'no project "nope" on this server' } },
    });
  });

  it("a bug is the bridge's 500, logged once, with the widgets' CORS headers", async () => {
    // A closed store: every write throws an error that is neither an answer nor a state fault.
    await store.close();
    expect(await post("/v1/feedback/docs/rating", JSON.stringify({ path: "/a", helpful: true }))).toEqual({
      status: 500,
      type: "application/json",
      cors: "*",
      body: { error: { code: "server_error", message: "internal error; the server log has the details" } },
    });
    expect(h.logs.filter((l) => l.startsWith("error: POST /v1/feedback/docs/rating: "))).toHaveLength(1);
  });
});

describe("the preview's shell call, mounted on the bridge", () => {
  let site: Harness;
  beforeAll(async () => {
    site = await startBridge({ apps: true });
  });
  afterAll(() => site.close());

  const shell = async (body: string) => {
    const r = await fetch(`${site.origin}${PREVIEW_PATHS.shell}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    return { status: r.status, type: r.headers.get("content-type"), body: (await r.json()) as unknown };
  };

  it("a body that is not a JSON object, or too large, is the API error its reader threw", async () => {
    expect(await shell("[1]")).toEqual({ status: 400, type: "application/json", body: { error: { code: "invalid_json", message: "request body must be a JSON object" } } });
    const max = LIMITS.shell.maxCommandLength * 2;
    expect(await shell(JSON.stringify({ command: "x".repeat(max) }))).toEqual({
      status: 413,
      type: "application/json",
      body: { error: { code: "payload_too_large", message: `request body exceeds ${max} bytes` } },
    });
  });
});
