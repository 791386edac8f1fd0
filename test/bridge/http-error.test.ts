import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidClient } from "../../src/bridge/auth/oauth-errors.js";
import { ApiError } from "../../src/bridge/middleware/api-error.js";
import { type Harness, startBridge } from "./harness.js";

/** One error type at the HTTP edge: whatever route throws an `HttpError`, the bridge's one handler answers it, in the error's own shape. */

let h: Harness;
beforeAll(async () => {
  h = await startBridge({
    bridge: {
      extraRoutes: [
        (app) =>
          app.get("/extra/api-error", () => {
            throw new ApiError(409, "name_taken", "the name is taken", { param: "name", headers: { "Retry-After": "5" } });
          }),
        (app) =>
          app.get("/extra/oauth-error", () => {
            throw invalidClient("unknown client_id or wrong client_secret", true);
          }),
      ],
    },
  });
});
afterAll(() => h.close());

async function answer(path: string) {
  const r = await fetch(`${h.origin}${path}`);
  return { status: r.status, type: r.headers.get("content-type"), retryAfter: r.headers.get("retry-after"), challenge: r.headers.get("www-authenticate"), cache: r.headers.get("cache-control"), body: (await r.json()) as unknown };
}

describe("HttpError", () => {
  it("an API error thrown by any route is answered with its status, body and headers", async () => {
    expect(await answer("/extra/api-error")).toEqual({
      status: 409,
      type: "application/json",
      retryAfter: "5",
      challenge: null,
      cache: null,
      body: { error: { code: "name_taken", message: "the name is taken", param: "name" } },
    });
  });

  it("an OAuth error likewise, with its challenge and no-store", async () => {
    expect(await answer("/extra/oauth-error")).toEqual({
      status: 401,
      type: "application/json",
      retryAfter: null,
      challenge: 'Basic realm="svc-mcp"',
      cache: "no-store",
      body: { error: "invalid_client", error_description: "unknown client_id or wrong client_secret" },
    });
  });
});
