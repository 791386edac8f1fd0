import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openFeedbackStore, type SqliteFeedbackStore } from "../../../src/store/feedback/sqlite-store.js";
import { submitFeedback } from "../../../src/engine/use-cases/submit-feedback.js";
import { ANONYMOUS } from "../../../src/vfs/access.js";
import { requestContext } from "../../../src/vfs/request-context.js";
import { tempState } from "../../feedback/harness.js";

/** The feedback use case driven directly over a real SQLite store: no MCP server, no HTTP. */
const NOW = Date.parse("2024-05-01T09:30:00.000Z");
let state: ReturnType<typeof tempState>;
let store: SqliteFeedbackStore;
beforeEach(() => {
  state = tempState();
  store = openFeedbackStore(state.dir);
});
afterEach(async () => {
  await store.close();
  state.cleanup();
});

describe("submitFeedback", () => {
  it("stores an agent's report dated by the context's clock", async () => {
    const context = { request: requestContext(ANONYMOUS, "public", () => NOW), store, projectId: "nimbus" };
    const stored = await submitFeedback(context, { path: "/guides/setup.mdx", feedback: "The example is out of date." });
    if (!stored.ok) throw new Error(JSON.stringify(stored.issues));
    expect(stored.value).toEqual({
      id: stored.value.id,
      path: "/guides/setup",
      comment: "The example is out of date.",
      createdAt: "2024-05-01T09:30:00.000Z",
      source: "agent",
      status: "pending",
    });
    expect((await store.list({ projectId: "nimbus", limit: 10 })).feedback).toEqual([stored.value]);
  });

  it("names each bad argument, and stores nothing", async () => {
    const context = { request: requestContext(ANONYMOUS, "public", () => NOW), store, projectId: "nimbus" };
    expect(await submitFeedback(context, { path: "https://docs.example.com/a", feedback: " " })).toEqual({
      ok: false,
      issues: [{ message: 'path must be a page path such as /guides/setup, not a URL; got "https://docs.example.com/a"' }, { message: "feedback must not be empty" }],
    });
    expect((await store.list({ projectId: "nimbus", limit: 10 })).feedback).toEqual([]);
  });
});
