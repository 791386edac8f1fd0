import { mcpAvailable } from "../bridge/access-policy.js";
import { isLoopbackHost } from "../bridge/auth/redirect-domains.js";
import { createBridge } from "../bridge/bridge.js";
import { listen } from "../bridge/http-server.js";
import { parseRateLimits } from "../bridge/rate-limit.js";
import { bridgeUrls } from "../bridge/urls.js";
import { bearerReaderOf } from "../bridge/auth/bearer.js";
import { createFeedbackApp } from "../bridge/feedback/app.js";
import { createRelayApp } from "../bridge/playground/relay.js";
import { openFeedbackStore } from "../store/feedback/sqlite-store.js";
import { openKeyStore } from "../store/keys/key-store.js";
import { openStateStore } from "../store/state/sqlite-state-store.js";
import { createFeedbackTool } from "../tools/mcp/feedback-tool.js";
import type { DocsRuntime } from "../tools/runtime.js";
import { CliError, type CliIO } from "./io.js";
import { describeProject, type ProjectArgs, resolveProject } from "./project.js";

export interface HttpServeArgs extends ProjectArgs {
  readonly port: number;
  readonly host: string;
  readonly "public-url"?: string | undefined;
  readonly "trust-proxy": boolean;
  readonly "rate-limit"?: readonly string[] | undefined;
}

/**
 * `svc-mcp serve --http`: the bridge on a socket until SIGINT/SIGTERM. The site's auth mode, the
 * MCP toggle, accounts, credentials and redirect domains come from the state store (one source
 * of truth, changed by `svc-mcp mcp|users|credentials|redirect-domains` while this runs).
 * `onListening` runs once the socket accepts connections (serve starts fetching remote specs then).
 */
export async function serveHttp(args: HttpServeArgs, io: CliIO, runtime: DocsRuntime, log: (m: string) => void, onListening: () => void = () => {}): Promise<number> {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new CliError(`--port must be an integer from 0 to 65535; got ${args.port}`, 2);
  let publicUrl: string | undefined;
  if (args["public-url"] !== undefined) {
    const u = URL.canParse(args["public-url"]) ? new URL(args["public-url"]) : undefined;
    if (u === undefined || (u.protocol !== "http:" && u.protocol !== "https:") || u.pathname !== "/" || u.search !== "") {
      throw new CliError(`--public-url must be an origin such as https://docs.example.com; got ${JSON.stringify(args["public-url"])}`, 2);
    }
    publicUrl = u.origin;
  }
  const rateLimits = parseRateLimits(args["rate-limit"] ?? []);
  if (typeof rateLimits === "string") throw new CliError(rateLimits, 2);

  const project = await resolveProject(io, args, runtime.site.config.name);
  const state = openStateStore(project.stateDir);
  const settings = await state.settings();
  runtime.setAuthMode(settings.authMode);
  const host = args.host.replace(/^\[(.*)\]$/, "$1");
  const loopback = isLoopbackHost(host) || isLoopbackHost(`[${host}]`);
  // A loopback server answers only to loopback names (and its public name): DNS rebinding defence.
  const allowedHosts = loopback ? ["localhost", "127.0.0.1", "[::1]", ...(publicUrl !== undefined ? [new URL(publicUrl).hostname] : [])] : undefined;
  const feedback = openFeedbackStore(project.stateDir);
  const keys = openKeyStore(project.stateDir);
  const bridge = createBridge({
    runtime,
    state,
    rateLimits,
    log,
    extraTools: [createFeedbackTool({ store: feedback, projectId: project.id })],
    extraRoutes: [
      createFeedbackApp({ store: feedback, keys, projects: new Set([project.id]), log }),
      createRelayApp({
        lookupPage: (path) => runtime.site.api?.pages.get(path),
        readerOf: bearerReaderOf(state, publicUrl),
        authConfigured: async () => (await state.settings()).authMode !== "public",
      }),
    ],
    trustProxy: args["trust-proxy"],
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(allowedHosts !== undefined ? { allowedHosts } : {}),
  });
  let server;
  try {
    server = await listen(bridge, { host, port: args.port });
  } catch (error) {
    await bridge.close();
    await Promise.all([state.close(), feedback.close(), keys.close()]);
    throw new CliError((error as Error).message, 1);
  }
  const urls = bridgeUrls(publicUrl ?? server.origin);
  const names = runtime.names;
  log(`serving "${runtime.site.config.name}" (${runtime.site.pages.size} pages) over HTTP on ${server.origin}; tools ${names.search}, ${names.filesystem}`);
  log(`MCP (public):        ${urls.mcp}`);
  log(`MCP (authenticated): ${urls.authedMcp}`);
  log(`OAuth token:         ${urls.token}`);
  log(`Feedback API:        ${server.origin}/v1/analytics/${project.id}/feedback`);
  log(`site auth ${settings.authMode}; MCP server ${mcpAvailable(settings) ? "enabled" : "disabled (svc-mcp mcp enable)"}; ${describeProject(project)}`);
  onListening();
  await io.stopSignal;
  await server.close();
  await bridge.close();
  // The feedback store commits anything still queued before it closes.
  await Promise.all([state.close(), feedback.close(), keys.close()]);
  return 0;
}
