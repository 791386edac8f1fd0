import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFeedbackTool } from "../../src/mcp/feedback-tool.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { type Harness, startBridge, userTokens } from "../bridge/harness.js";
import { argumentError, connect } from "../helpers/mcp.js";
import { fixture } from "../helpers/paths.js";
import { startFeedbackServer, type FeedbackServer } from "./harness.js";

/**
 * Feedback names a page its caller may read (issue 25: `/nope` and `/../../etc/passwd` were
 * stored). A page that does not exist and a page the caller may not read are refused in the
 * same words, so the refusal tells nothing of the pages they cannot see; the caller who may
 * read it is taken. The MCP tool and the widgets' HTTP API alike.
 */
const REFUSED_PATHS = ["/nope", "/../../etc/passwd", "/internal/runbook", "internal/runbook.mdx"] as const;
/** As stored and named in the refusal: the path normalized (`internal/runbook.mdx` -> `/internal/runbook`). */
const NORMALIZED: Record<string, string> = { "/nope": "/nope", "/../../etc/passwd": "/../../etc/passwd", "/internal/runbook": "/internal/runbook", "internal/runbook.mdx": "/internal/runbook" };

describe("submit_feedback", () => {
  let srv: FeedbackServer;
  let runtime: DocsRuntime;
  beforeAll(async () => {
    srv = await startFeedbackServer({ projects: ["nimbus-storage"] });
    runtime = await DocsRuntime.load({ root: fixture("demo") });
  });
  afterAll(async () => {
    await runtime.close();
    await srv.close();
  });

  it("refuses a missing page and a restricted one in the same words, takes the page for the reader who may read it, stores nothing refused", async () => {
    const tools = [createFeedbackTool({ store: srv.store, projectId: "nimbus-storage" })];
    const anonymous = await connect(runtime, undefined, tools);
    const staff = await connect(runtime, readerWithGroups(["staff"]), tools);
    try {
      const refused = [];
      for (const path of REFUSED_PATHS) refused.push(await anonymous.call("submit_feedback", { path, feedback: "Wrong." }));
      expect(refused).toEqual(REFUSED_PATHS.map((p) => argumentError(`Invalid arguments for submit_feedback: path ${JSON.stringify(NORMALIZED[p])} is not a page of this site`)));
      const taken = await staff.call("submit_feedback", { path: "/internal/runbook", feedback: "Step 3 is out of date." });
      const index = await anonymous.call("submit_feedback", { path: "/", feedback: "The intro is fine." });
      expect([taken.isError, (taken.structuredContent as { path: string }).path, index.isError, (index.structuredContent as { path: string }).path]).toEqual([undefined, "/internal/runbook", undefined, "/"]);
      const page = (await (await srv.api("/v1/analytics/nimbus-storage/feedback?source=agent")).json()) as { feedback: { path: string }[] };
      expect(page.feedback.map((f) => f.path).sort()).toEqual(["/", "/internal/runbook"]);
    } finally {
      await anonymous.close();
      await staff.close();
    }
  });
});

describe("the widgets' HTTP API", () => {
  let h: Harness;
  let staff: string;
  beforeAll(async () => {
    h = await startBridge({ root: fixture("demo"), apps: true });
    await h.state.addUser("sam", "sam-password-1", ["staff"]);
    staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
  });
  afterAll(async () => {
    await h.close();
  });

  const rate = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${h.origin}/v1/feedback/docs/rating`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ path, helpful: false }) });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it("refuses a missing page and a restricted one with the same 400, takes a readable page, and a restricted one for a reader who may read it", async () => {
    const refused = [];
    for (const path of REFUSED_PATHS) refused.push(await rate(path));
    expect(refused).toEqual(
      REFUSED_PATHS.map((p) => {
        const message = `path ${JSON.stringify(NORMALIZED[p])} is not a page of this site`;
        return { status: 400, body: { error: { code: "invalid_parameter", message, param: "path", details: [{ code: "invalid_parameter", param: "path", message }] } } };
      }),
    );
    const taken = [await rate("/quickstart"), await rate("/internal/runbook", { authorization: `Bearer ${staff}` })];
    expect(taken.map((t) => [t.status, (t.body as { path: string }).path])).toEqual([
      [201, "/quickstart"],
      [201, "/internal/runbook"],
    ]);
    // Only the two taken were stored.
    const stored = await h.feedback!.list({ projectId: "docs", limit: 50 });
    expect(stored.feedback.map((f) => f.path).sort()).toEqual(["/internal/runbook", "/quickstart"]);
  });
});
