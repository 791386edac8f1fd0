import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FeedbackStatus, STATUSES } from "../../src/store/feedback/model.js";
import { TRANSITIONS } from "../../src/store/feedback/transitions.js";
import { type FeedbackServer, entry, startFeedbackServer } from "./harness.js";

let srv: FeedbackServer;
let other: FeedbackServer;

beforeAll(async () => {
  srv = await startFeedbackServer({ projects: ["docs", "other"] });
  other = await startFeedbackServer();
});
afterAll(async () => {
  await srv.close();
  await other.close();
});

async function call(path: string, init: RequestInit & { auth?: boolean } = {}) {
  const res = await srv.api(path, init);
  return { status: res.status, challenge: res.headers.get("www-authenticate"), body: await res.json() };
}

const LIST = "/v1/analytics/docs/feedback";
const CHALLENGE = 'Bearer realm="svc-mcp"';
const invalidKey = (message: string) => ({
  status: 401,
  challenge: `${CHALLENGE}, error="invalid_token", error_description="${message.replace(/`/g, "'")}"`,
  body: { error: { code: "invalid_api_key", message } },
});

describe("authentication: 401 with WWW-Authenticate for every missing or invalid key", () => {
  it("no Authorization header", async () => {
    expect(await call(LIST, { auth: false })).toEqual({
      status: 401,
      challenge: CHALLENGE,
      body: {
        error: {
          code: "missing_api_key",
          message: "this endpoint needs an admin API key: send Authorization: Bearer svc_... (create one with `svc-mcp keys create`)",
        },
      },
    });
  });

  it.each(["Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "Token svc_x", "Bearer a b"])("not the Bearer scheme with one token: %j", async (header) => {
    expect(await call(LIST, { headers: { authorization: header } })).toEqual({
      status: 401,
      challenge: CHALLENGE,
      body: { error: { code: "invalid_authorization", message: "Authorization must be the Bearer scheme with an admin API key: Bearer svc_..." } },
    });
  });

  it("a token that is not an admin key", async () => {
    for (const token of ["abc", "sk_live_123", "svc_", `svc_${"A".repeat(44)}`, `${srv.adminKey}x`]) {
      expect([token, await call(LIST, { headers: { authorization: `Bearer ${token}` } })]).toEqual([
        token,
        invalidKey("not an admin API key: keys start with svc_ and come from `svc-mcp keys create`"),
      ]);
    }
  });

  it("a well-formed key this server does not know: another server's, or a wrong secret", async () => {
    const wrongSecret = srv.adminKey.slice(0, -1) + (srv.adminKey.endsWith("a") ? "b" : "a");
    for (const key of [other.adminKey, wrongSecret]) {
      expect(await call(LIST, { headers: { authorization: `Bearer ${key}` } })).toEqual(invalidKey("this API key is not valid for this server"));
    }
  });

  it("a revoked key, from the moment it is revoked", async () => {
    const { key, info } = await srv.keys.create("soon revoked", Date.now());
    expect((await call(LIST, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await srv.keys.revoke(info.id, Date.now());
    expect(await call(LIST, { headers: { authorization: `Bearer ${key}` } })).toEqual(invalidKey("this API key has been revoked"));
  });

  it("the scheme is case-insensitive; the key is not", async () => {
    expect((await call(LIST, { headers: { authorization: `bearer ${srv.adminKey}` } })).status).toBe(200);
    expect((await call(LIST, { headers: { authorization: `BEARER  ${srv.adminKey} ` } })).status).toBe(200);
    expect((await call(LIST, { headers: { authorization: `Bearer ${srv.adminKey.toUpperCase()}` } })).status).toBe(401);
  });

  it("a key in the query string is not accepted", async () => {
    expect((await call(`${LIST}?api_key=${srv.adminKey}`, { auth: false })).status).toBe(401);
  });

  it("every admin endpoint requires the key, before saying whether the project exists", async () => {
    const created = await srv.store.insert(entry({ createdAt: 1 }));
    for (const [method, path] of [
      ["GET", LIST],
      ["GET", "/v1/analytics/nope/feedback"],
      ["GET", `${LIST}/${created.id}`],
      ["PATCH", `${LIST}/${created.id}`],
      ["PATCH", `/v1/analytics/nope/feedback/${created.id}`],
    ] as const) {
      const res = await call(path, { method, auth: false, headers: { "content-type": "application/json" }, ...(method === "PATCH" ? { body: '{"status":"resolved"}' } : {}) });
      expect([method, path, res.status, res.challenge]).toEqual([method, path, 401, CHALLENGE]);
    }
    expect((await srv.store.get("docs", created.id))?.status).toBe("pending");
  });

  it("with a valid key, an unknown project is a 404", async () => {
    expect(await call("/v1/analytics/nope/feedback")).toEqual({
      status: 404,
      challenge: null,
      body: { error: { code: "project_not_found", message: 'no project "nope" on this server' } },
    });
  });

  it("records when a key was last used", async () => {
    const { key, info } = await srv.keys.create("usage", Date.now());
    expect(info.lastUsedAt).toBeNull();
    await call(LIST, { headers: { authorization: `Bearer ${key}` } });
    const listed = (await srv.keys.list()).find((k) => k.id === info.id);
    expect(listed?.lastUsedAt).not.toBeNull();
  });
});

describe("PATCH /v1/analytics/{projectId}/feedback/{id}", () => {
  const patch = (id: string, body: unknown, project = "docs") =>
    call(`/v1/analytics/${project}/feedback/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  /** A fresh entry brought to `status` through allowed steps. */
  async function entryWith(status: FeedbackStatus): Promise<string> {
    const created = await srv.store.insert(entry({ createdAt: Date.parse("2024-05-01T00:00:00Z") }));
    if (status !== "pending") await srv.store.setStatus("docs", created.id, status, Date.now());
    return created.id;
  }

  it("allows exactly the documented transitions; the same status is a no-op 200", async () => {
    const table: string[] = [];
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const id = await entryWith(from);
        const res = await patch(id, { status: to });
        const after = (await srv.store.get("docs", id))?.status;
        table.push(`${from} -> ${to}: ${res.status} (now ${after})`);
        if (res.status === 200) expect(res.body).toEqual({ ...(await srv.store.get("docs", id)), status: to });
        else {
          expect(res.body).toEqual({
            error: {
              code: "invalid_transition",
              param: "status",
              message: `cannot change status from ${from} to ${to}; from ${from} it can change to ${TRANSITIONS[from].join(" or ")}`,
            },
          });
        }
      }
    }
    expect(table).toEqual([
      "pending -> pending: 200 (now pending)",
      "pending -> in_progress: 200 (now in_progress)",
      "pending -> resolved: 200 (now resolved)",
      "pending -> dismissed: 200 (now dismissed)",
      "in_progress -> pending: 200 (now pending)",
      "in_progress -> in_progress: 200 (now in_progress)",
      "in_progress -> resolved: 200 (now resolved)",
      "in_progress -> dismissed: 200 (now dismissed)",
      "resolved -> pending: 200 (now pending)",
      "resolved -> in_progress: 200 (now in_progress)",
      "resolved -> resolved: 200 (now resolved)",
      "resolved -> dismissed: 409 (now resolved)",
      "dismissed -> pending: 200 (now pending)",
      "dismissed -> in_progress: 200 (now in_progress)",
      "dismissed -> resolved: 409 (now dismissed)",
      "dismissed -> dismissed: 200 (now dismissed)",
    ]);
  });

  it("the new status shows in the list and its status filter", async () => {
    const id = await entryWith("pending");
    await patch(id, { status: "in_progress" });
    const page = (await call(`${LIST}?status=in_progress&limit=100`)).body;
    expect(page.feedback.map((e: { id: string }) => e.id)).toContain(id);
    expect((await call(`${LIST}/${id}`)).body.status).toBe("in_progress");
  });

  it("bad bodies and unknown entries", async () => {
    const id = await entryWith("pending");
    expect(await patch(id, {})).toMatchObject({ status: 400, body: { error: { code: "missing_parameter", param: "status", message: "status is required" } } });
    expect(await patch(id, { status: "done" })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_parameter", param: "status", message: 'status must be one of pending, in_progress, resolved, dismissed; got "done"' } },
    });
    expect(await patch(id, { status: "resolved", note: "x" })).toMatchObject({
      status: 400,
      body: { error: { code: "unknown_parameter", param: "note", message: 'unknown field "note"; allowed: status' } },
    });
    expect(await patch("fb_nope", { status: "resolved" })).toEqual({
      status: 404,
      challenge: null,
      body: { error: { code: "feedback_not_found", message: 'no feedback entry "fb_nope" in project "docs"' } },
    });
    // An entry is only reachable through its own project.
    expect(await patch(id, { status: "resolved" }, "other")).toMatchObject({ status: 404, body: { error: { code: "feedback_not_found" } } });
    expect((await srv.store.get("docs", id))?.status).toBe("pending");
    const put = await call(`${LIST}/${id}`, { method: "PUT" });
    expect(put).toMatchObject({ status: 405, body: { error: { code: "method_not_allowed", message: "this endpoint accepts GET, PATCH" } } });
  });
});
