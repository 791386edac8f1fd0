import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFeedbackTool } from "../../src/mcp/feedback-tool.js";
import { CORE_TOOLS } from "../../src/mcp/tools.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { argumentError, connect } from "../helpers/mcp.js";
import { REPO, fixture } from "../helpers/paths.js";
import { type FeedbackServer, ms, startFeedbackServer, tempState } from "./harness.js";
import { TestClient } from "../helpers/test-client.js";

const NOW = "2024-05-01T09:30:00.000Z";
let srv: FeedbackServer;
let runtime: DocsRuntime;
let mcp: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  srv = await startFeedbackServer({ projects: ["nimbus-storage"] });
  runtime = await DocsRuntime.load({ root: fixture("demo") });
  mcp = await connect(runtime, undefined, [...CORE_TOOLS, createFeedbackTool({ store: srv.store, projectId: "nimbus-storage", clock: () => ms(NOW) })]);
});
afterAll(async () => {
  await mcp.close();
  await runtime.close();
  await srv.close();
});

describe("submit_feedback through the SDK client", () => {
  it("is listed with its input and output schemas, as a tool that writes", async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === "submit_feedback");
    expect(tool).toEqual({
      name: "submit_feedback",
      title: "Send feedback on the Nimbus Storage docs",
      description:
        "Report a problem with a page of the Nimbus Storage documentation to its maintainers: wrong or outdated content, a broken example, " +
        "something missing or unclear. Use it after you found the docs lacking while answering; say what is wrong and what would fix it. " +
        "Not for questions (search the docs instead).",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          path: {
            type: "string",
            description: "The page the feedback is about: its path (/guides/setup) or its file in the docs filesystem (/guides/setup.mdx).",
          },
          feedback: { type: "string", description: "What is wrong, missing or unclear on that page, and what would fix it (at most 5000 characters)." },
        },
        required: ["path", "feedback"],
        additionalProperties: false,
      },
      outputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          id: { type: "string", description: "The entry's id." },
          path: { type: "string", description: "The page path it was stored under." },
          status: { type: "string", description: "Its review status: `pending` until the docs team reads it." },
          createdAt: { type: "string", description: "When it was recorded (ISO 8601, UTC)." },
        },
        required: ["id", "path", "status", "createdAt"],
        additionalProperties: false,
      },
      annotations: { title: "Send documentation feedback", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    });
  });

  it("stores the feedback as source agent; the GET shows it", async () => {
    const result = await mcp.call("submit_feedback", { path: "/guides/uploading-files.mdx", feedback: "The multipart example omits the part size limit." });
    const id = (result.structuredContent as { id: string }).id;
    expect(result).toEqual({
      content: [{ type: "text", text: `Thank you: feedback on /guides/uploading-files recorded as ${id} for the docs maintainers.` }],
      structuredContent: { id, path: "/guides/uploading-files", status: "pending", createdAt: NOW },
    });
    const page = await (await srv.api("/v1/analytics/nimbus-storage/feedback?source=agent")).json();
    expect(page).toEqual({
      feedback: [
        { id, path: "/guides/uploading-files", comment: "The multipart example omits the part size limit.", createdAt: NOW, source: "agent", status: "pending" },
      ],
      nextCursor: null,
      hasMore: false,
    });
  });

  it("bad arguments are error results naming the argument (SEP-1303), and store nothing", async () => {
    const reject = (args: Record<string, unknown>) => mcp.client.callTool({ name: "submit_feedback", arguments: args });
    expect(await reject({ path: "/a" })).toEqual(argumentError("Invalid arguments for submit_feedback: feedback: is required"));
    expect(await reject({ path: "/a", feedback: "   " })).toEqual(argumentError("Invalid arguments for submit_feedback: feedback must not be empty"));
    expect(await reject({ path: "https://docs.example.com/a", feedback: "x".repeat(5001) })).toEqual(
      argumentError(
        "Invalid arguments for submit_feedback: path must be a page path such as /guides/setup, not a URL; " +
          'got "https://docs.example.com/a"; feedback must be at most 5000 characters',
      ),
    );
    const page = await (await srv.api("/v1/analytics/nimbus-storage/feedback?source=agent")).json();
    expect(page.feedback).toHaveLength(1);
  });
});

describe("submit_feedback on stdio (svc-mcp serve)", () => {
  it("a spawned server stores the agent's feedback in the project's state; the CLI lists it", async () => {
    const state = tempState();
    try {
      const bin = join(REPO, "bin", "svc-mcp.js");
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bin, "serve", "--dir", fixture("demo"), "--no-watch", "--state", state.dir],
        stderr: "pipe",
      });
      const client = new TestClient({ name: "stdio-feedback", version: "1.0.0" });
      await client.connect(transport);
      const result = await client.callTool({ name: "submit_feedback", arguments: { path: "quickstart", feedback: "Step 2 needs the region flag." } });
      const id = (result.structuredContent as { id: string }).id;
      await client.close();

      const { stdout } = await promisify(execFile)(process.execPath, [bin, "feedback", "list", "--json", "--dir", fixture("demo"), "--state", state.dir]);
      const page = JSON.parse(stdout);
      expect(page).toEqual({
        feedback: [{ id, path: "/quickstart", comment: "Step 2 needs the region flag.", createdAt: page.feedback[0].createdAt, source: "agent", status: "pending" }],
        nextCursor: null,
        hasMore: false,
      });
    } finally {
      state.cleanup();
    }
  });
});
