import { z } from "zod";
import { success } from "../engine/use-cases/outcome.js";
import { defineTool } from "./tool.js";

/** The tool's `structuredContent`: the relay's answer as `POST /_svc/api/request` gives it. */
const apiRequestOutput = z.object({
  relayStatus: z.number().describe("The relay's own HTTP status: 200 when the API answered (whatever its status), else why the relay refused."),
  answer: z.record(z.string(), z.unknown()).describe("The relay's JSON answer: the API's status, headers and body, or the relay's `error` (docs/api-reference.md)."),
});

/**
 * The API playground app's Send (MCP Apps, `visibility: ["app"]`): one request through the
 * playground relay as the caller's reader, with every check the HTTP relay makes (the page is
 * theirs to read, its playground theirs to use, the target under the spec's servers). Listed and
 * callable only for a client that renders MCP Apps; the model is never offered it. Its input is
 * the relay's own request body, checked by the relay (one schema: `RelayRequest`).
 */
export const apiRequestTool = defineTool({
  key: "api_request",
  name: (n) => `api_request_${n.slug}`,
  app: true,
  title: ({ siteName }) => `Send an API request from a ${siteName} playground`,
  description: ({ siteName }) =>
    `The ${siteName} API playground app's Send button: sends one request through the docs server's playground relay, as the relay's POST /_svc/api/request does, and returns its answer. For the app only.`,
  input: z.looseObject({}),
  output: apiRequestOutput,
  annotations: { title: "Send an API playground request", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  run: async (args, ctx) => {
    if (ctx.apps === undefined) throw new Error("api_request ran for a client without MCP Apps");
    const answer = await ctx.apps.relay(args, ctx.request, Buffer.byteLength(JSON.stringify(args), "utf8"), ctx.signal ?? ctx.request.gone);
    const body = answer.body as Record<string, unknown>;
    const structuredContent = { relayStatus: answer.status, answer: body };
    if (answer.status === 200) return success({ content: [{ type: "text", text: `${String(body.status)} ${String(body.statusText ?? "")}`.trim() }], structuredContent });
    const error = body.error as { message?: string } | undefined;
    return success({ content: [{ type: "text", text: `The relay refused the request (${answer.status}): ${error?.message ?? "no reason given"}` }], structuredContent, isError: true });
  },
});
