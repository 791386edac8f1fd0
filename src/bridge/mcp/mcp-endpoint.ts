import type { ServerResponse } from "node:http";
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type Server, createMcpHandler, isInitializeRequest, isLegacyRequest, type McpHttpHandler, PROTOCOL_VERSION_META_KEY, SUBSCRIPTION_ID_META_KEY, SUPPORTED_PROTOCOL_VERSIONS, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { LIMITS } from "../../limits.js";
import { createMcpServer } from "../../mcp/server.js";
import { ANONYMOUS } from "../../vfs/access.js";
import type { RequestContext } from "../../vfs/request-context.js";
import { mcpAvailable } from "../middleware/access-policy.js";
import { authenticateBearer } from "../auth/bearer.js";
import { grantExtensions } from "../auth/grants.js";
import { clientCharges } from "../middleware/client-budget.js";
import { type BridgeContext, type BridgeDeps, clientIp, urlsFor } from "../context.js";
import { JSON_RPC, jsonRpcError, jsonRpcRefusal } from "../middleware/http-errors.js";
import { siteToolCharge, siteToolKey, takeWithReserves } from "../middleware/caller-reserve.js";
import type { Charge } from "../middleware/rate-limit.js";
import { ipCharge, rateLimitedResponse } from "../middleware/rate-limit-response.js";
import { readBody } from "../middleware/read-body.js";
import { unsupportedCharsetMessage } from "../middleware/body-charset.js";
import { connectionGone } from "../middleware/connection-gone.js";
import { type AuthInfoWithContext, authInfoWithContext, bridgeContext, contextFromAuthInfo } from "../middleware/request-context.js";
import { batchMemberProblem, paramsProblem, schemaProblem, shapeProblem } from "../../mcp/message-problems.js";
import { rawIds, readableId } from "../../mcp/raw-ids.js";
import { jsonComplexity, jsonComplexityMessage, type JsonComplexity } from "../../json-complexity.js";
import { toolArguments } from "../../mcp/tool-calls.js";
import { APP_MIME_TYPE, UI_EXTENSION_ID, rendersApps } from "../../mcp/ui-extension.js";
import { type BatchStep, type MessageCharge, runBatch } from "./batch-runner.js";
import { CallerLanes } from "./caller-lanes.js";
import { CLIENT_CHARGES } from "./client-charges.js";
import { DirectToolCalls } from "./direct-tool-call.js";
import { closableStream } from "./closable-stream.js";
import { ListenBus } from "./listen-bus.js";
import type { QuietSlot } from "../quiet-streams.js";
import { type ListenPlaceKeeper, type ListenRefusal, ListenQuota } from "./listen-quota.js";
import { callerAddress } from "../middleware/caller-address.js";
import { type ListKind, NotificationStreams, type StreamOpening } from "./notification-streams.js";
import { ServerPool } from "./server-pool.js";
import { SessionCalls, idInUse } from "./session-calls.js";
import { SessionIds, type SessionTraits } from "./session-ids.js";
import { SessionToolCalls } from "./session-tool-call.js";
import { type ClosedBy, type Endpoint, type Session, SessionTable } from "./sessions.js";
import type { SessionCancel, SharedSessions } from "./shared-sessions.js";
import { appendAll } from "../../arrays.js";
import { notePostedMessages } from "../posted-messages.js";

/** A JSON-RPC message as far as the bridge looks at it (the SDK validates the rest). */
interface Message {
  readonly jsonrpc: "2.0";
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: { readonly name?: unknown; readonly arguments?: unknown };
}

const SESSION_HEADER = "mcp-session-id";

/** The first revision without JSON-RPC batches: a session that negotiated it or later refuses them. */
const NO_BATCHES_FROM = "2025-06-18";

/** The 2025 revisions the SDK's server negotiates in `initialize`, its preferred first. */
const SESSION_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < "2026-07-28");

/** What MCP callers may hold at once (`LIMITS.bridge`): sessions and listen streams, per endpoint and per caller, and a batch's answers. */
export interface HoldLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerCaller: number;
  readonly maxListenStreams: number;
  readonly maxListenStreamsPerCaller: number;
  /** Bytes of answers after which no further message of a batch runs (`runBatch`). */
  readonly maxBatchAnswerBytes: number;
}

/**
 * MCP Streamable HTTP for `/mcp` (anonymous, public content) and `/authed/mcp` (bearer token,
 * content of the token's groups), in both protocol generations (docs/protocol.md):
 * - 2025 revisions are sessions: `initialize` opens one (the `Mcp-Session-Id` response header),
 *   later POSTs carry it, GET opens its notification stream, DELETE ends it.
 * - 2026-07-28 is stateless: each POST carries its version and capabilities in `_meta`, and the
 *   SDK's `createMcpHandler` answers it with a server built for that one request, except a
 *   plain tool call, which the tool answers directly (`DirectToolCalls`);
 *   `subscriptions/listen` is its notification stream.
 * The SDK's classification (`isLegacyRequest`) tells them apart, and one factory
 * (`createMcpServer`) builds the server of both. Every request is checked again (availability,
 * token, rate limits), so a revoked token or a disabled server stops a session at its next
 * request. Open notification streams (a session's GET stream, `subscriptions/listen`) are told
 * of a site change only for the lists their own reader sees changed, and are closed when their
 * token no longer holds (`NotificationStreams`).
 */
export class McpEndpoint {
  readonly sessions: SessionTable;
  private readonly sweeper: NodeJS.Timeout;
  /** The 2026-07-28 handler of each endpoint (they differ in the extensions they offer). */
  private readonly modern: Readonly<Record<Endpoint, McpHttpHandler>>;
  private readonly unsubscribe: () => void;
  private readonly ids: SessionIds;
  /** The open list_changed streams of both generations, told per reader (`NotificationStreams`). */
  readonly streams: NotificationStreams;
  private readonly listenBus: ListenBus;
  /** Idle 2026-07-28 servers, used again (`ServerPool`). */
  readonly servers: ServerPool;
  /** Plain 2026-07-28 tool calls, answered without a server per request; undefined when turned off. */
  private readonly direct: DirectToolCalls | undefined;
  /** Plain tool calls of 2025 sessions, answered without the session's SDK transport; undefined when turned off. */
  private readonly sessionCalls: SessionToolCalls | undefined;
  /** Open listen streams per endpoint and per caller (this process's, or the primary's for every worker). */
  private readonly listenQuota: ListenPlaceKeeper;
  private readonly maxListenStreams: number;
  private readonly maxBatchAnswerBytes: number;
  /** Each caller's lane for the messages of its batches (`CallerLanes`). */
  private readonly lanes = new CallerLanes();
  /** Sessions of sibling workers being taken up here, one at a time per id; `ended` if ended meanwhile. */
  private readonly resuming = new Map<string, { ended: boolean; readonly session: Promise<Session | undefined> }>();

  /** `shared`: the sessions of the processes that serve one site (`--workers`), so any of them resumes a session another opened, until it ends. */
  constructor(
    private readonly deps: BridgeDeps,
    private readonly shared?: SharedSessions,
    directToolCalls = true,
    holdLimits: Partial<HoldLimits> = {},
    /** Told after each message of a batch ran (tests: how many ran before the client left). */
    private readonly observeBatch?: (step: BatchStep) => void,
    /** Listen streams' places kept by another process (`--workers`: the primary counts for all); this process's own when absent. */
    listenPlaces?: ListenPlaceKeeper,
  ) {
    const hold: HoldLimits = { ...LIMITS.bridge, ...holdLimits };
    this.direct = directToolCalls ? new DirectToolCalls(deps) : undefined;
    this.sessionCalls = directToolCalls ? new SessionToolCalls(deps) : undefined;
    this.ids = new SessionIds(shared?.key);
    this.sessions = new SessionTable({ maxSessions: hold.maxSessions, maxSessionsPerCaller: hold.maxSessionsPerCaller, idleMs: LIMITS.bridge.sessionIdleMs, now: deps.now }, (id, why) => this.closedHere(id, why));
    shared?.listen({ end: (id) => this.endedElsewhere(id), cancel: (news) => this.cancelledElsewhere(news) });
    this.listenQuota = listenPlaces ?? new ListenQuota({ maxStreams: hold.maxListenStreams, maxStreamsPerCaller: hold.maxListenStreamsPerCaller });
    this.maxListenStreams = hold.maxListenStreams;
    this.maxBatchAnswerBytes = hold.maxBatchAnswerBytes;
    this.streams = new NotificationStreams(deps);
    this.listenBus = new ListenBus(this.streams);
    this.servers = new ServerPool(deps.runtime, (endpoint, context) => this.modernServer(endpoint, context));
    // Between changes too, a stream whose token was revoked or expired is closed.
    this.sweeper = setInterval(() => void Promise.all([this.sessions.sweep(), this.streams.recheck()]), LIMITS.bridge.sessionSweepMs);
    this.sweeper.unref();
    this.modern = { mcp: this.modernHandler("mcp"), authed: this.modernHandler("authed") };
    // Site changes are announced here for both generations, on each open stream as its own
    // reader's lists changed (a 2025 session's GET stream, a 2026-07-28 listen stream), each
    // against the snapshot that changed: the next is served once it is told (`announceChanges`).
    this.unsubscribe = deps.runtime.announceChanges(() => this.streams.announce());
  }

  async handle(endpoint: Endpoint, c: BridgeContext): Promise<Response> {
    const { deps } = this;
    const method = c.req.method;
    if (method !== "POST" && method !== "GET" && method !== "DELETE") {
      return jsonRpcError(405, JSON_RPC.serverError, `Method ${method} is not allowed: use POST (and GET or DELETE with an Mcp-Session-Id)`, {
        headers: { Allow: "GET, POST, DELETE" },
      });
    }

    const settings = await deps.state.settings();
    if (!mcpAvailable(settings)) {
      return jsonRpcError(403, JSON_RPC.serverError, `The MCP server of the ${deps.runtime.site.config.name} documentation is not enabled`, {
        data: { reason: "mcp_disabled" },
      });
    }

    let authInfo: AuthInfoWithContext;
    // Whose bounds what this request opens counts against: the token's principal, or the address.
    let owner = `address:${callerAddress(clientIp(deps, c))}`;
    // Whose sessions this request may use: an anonymous caller's are its address's (an IPv6 /64),
    // so another address cannot continue or close them (adversary round 40, F1: every anonymous
    // caller was "anonymous", and a session opened from one address answered any other).
    let principal = owner;
    if (endpoint === "authed") {
      const auth = await authenticateBearer(c.req.header("authorization"), deps.state, urlsFor(deps, c));
      if (!auth.ok) return auth.response;
      // Its address keeps the last of the process's connections for a while (`ConnectionCap`).
      deps.signedIn.mark(callerAddress(clientIp(deps, c)));
      principal = auth.caller.principal;
      owner = principal;
      authInfo = authInfoWithContext(bridgeContext(settings, auth.caller.reader, deps.now, principal, connectionGone(c)), auth.authInfo);
    } else {
      // An anonymous caller is its address (an IPv6 /64): its many sessions share its bounds in the shell pool.
      authInfo = authInfoWithContext(bridgeContext(settings, ANONYMOUS, deps.now, owner, connectionGone(c)));
    }

    const sessionId = c.req.header(SESSION_HEADER);
    if (sessionId === undefined && method === "GET") {
      return jsonRpcError(405, JSON_RPC.serverError, "GET opens the notification stream of a session: initialize with POST first, then send its Mcp-Session-Id", {
        headers: { Allow: "POST" },
      });
    }
    if (sessionId === undefined && method === "DELETE") return jsonRpcError(400, JSON_RPC.serverError, "Bad Request: Mcp-Session-Id header is required");
    // A 2026-07-28 request never carries a session; without one, the body tells the generation.
    if (sessionId === undefined) {
      const body = await this.readJsonRpc(c);
      if (body instanceof Response) return body;
      if (claimsModernRevision(body.raw) || !(await isLegacyRequest(c.req.raw, body.raw, { maxRequestBodySize: LIMITS.bridge.maxBodyBytes }))) {
        const charged = await this.chargeTools(endpoint, c, owner, body);
        if (charged instanceof Response) return charged;
        if (this.direct !== undefined && body.messages[0]?.method === "tools/call") {
          const answered = await this.direct.answer(endpoint, c.req.raw, body.raw, authInfo.extra.context);
          if (answered !== undefined) return answered;
        }
        const serve = async (): Promise<Response> => this.settle(await this.modern[endpoint].fetch(c.req.raw, { authInfo, parsedBody: body.raw }), charged);
        if (body.messages[0]?.method !== "subscriptions/listen") return serve();
        const refusal = await this.listenQuota.reserve(endpoint, owner);
        if (refusal !== undefined) return this.settle(listenRefused(refusal, body.raw), charged);
        // This process's bound on streams, by the address the connection bounds count (`QuietStreams`).
        const slot = deps.quietStreams.admit(callerAddress(clientIp(deps, c)));
        if (slot === undefined) {
          this.listenQuota.release(endpoint, owner);
          return this.settle(listenRefused(quietRefusal(deps.quietStreams.bound), body.raw), charged);
        }
        const opening = { endpoint, authorization: c.req.header("authorization"), urls: urlsFor(deps, c), context: authInfo.extra.context, apps: rendersApps(envelopeCapabilities(body.messages[0])) };
        const ended = (): void => {
          slot.remove();
          this.listenQuota.release(endpoint, owner);
        };
        const id = body.messages[0].id;
        return this.listenBus.serve(opening, serve, ended, (close) => slot.attach(c.env?.outgoing, () => close(gracefulClose(id))));
      }
      // A lone message only: `readJsonRpc` refused a batch holding an initialize.
      const initialize = Array.isArray(body.raw) ? undefined : body.messages[0];
      if (initialize?.method !== "initialize") {
        return jsonRpcError(400, JSON_RPC.serverError, "Bad Request: Mcp-Session-Id header is required (send initialize first to open a session, or use protocol version 2026-07-28, which needs none)");
      }
      const charged = await this.chargeTools(endpoint, c, owner, body);
      if (charged instanceof Response) return charged;
      return this.settle(await this.open(endpoint, principal, owner, c.req.raw, initialize, authInfo), charged);
    }

    let session = this.sessions.get(sessionId);
    // Opened by a sibling worker for this same caller: continue it here.
    if (session === undefined) {
      const traits = this.ids.resumable(sessionId, endpoint, principal);
      if (traits !== undefined) session = await this.resume(sessionId, traits, endpoint, principal, owner, c.req.raw, authInfo);
    }
    // A session of another endpoint or another caller is answered exactly like an unknown one.
    if (session === undefined || session.endpoint !== endpoint || session.principal !== principal) {
      return jsonRpcError(404, JSON_RPC.sessionNotFound, "Session not found: it expired or was closed; initialize a new one");
    }

    return this.inSession(endpoint, c, session, authInfo, owner);
  }

  /** A request of an open `session` (its caller checked): a POST's messages, its GET stream, its DELETE. */
  private async inSession(endpoint: Endpoint, c: BridgeContext, session: Session, authInfo: AuthInfoWithContext, owner: string): Promise<Response> {
    const method = c.req.method;
    let parsedBody: unknown;
    let charged: readonly Charge[] = [];
    if (method === "POST") {
      const body = await this.readJsonRpc(c);
      if (body instanceof Response) return body;
      parsedBody = body.raw;
      const version = session.server.server.getNegotiatedProtocolVersion();
      if (Array.isArray(body.raw) && version !== undefined && version >= NO_BATCHES_FROM) {
        return jsonRpcRefusal(400, body.raw, {
          code: JSON_RPC.invalidRequest,
          message: `Invalid Request: JSON-RPC batches were removed in protocol version ${NO_BATCHES_FROM}, and this session uses ${version}; send one message per request`,
        });
      }
      // A batch runs as the calls it holds (`runBatch`); one holding an `initialize` was refused whole (`readJsonRpc`).
      if (Array.isArray(body.raw)) {
        this.cancelCalls(session, body.messages);
        const sessionCalls = this.sessionCalls;
        return runBatch({
          transport: session.transport,
          request: c.req.raw,
          authInfo,
          messages: body.messages,
          lanes: this.lanes,
          caller: owner,
          gone: authInfo.extra.context.gone,
          answerBytes: this.maxBatchAnswerBytes,
          charge: (message, first) => this.chargeMessage(endpoint, c, owner, message as Message, first),
          settle: (response, taken) => this.settle(response, taken),
          // Its plain tool calls as they are answered alone: through the SDK's transport a batch's
          // search call cost what a single one did before `SessionToolCalls` (issue 23).
          direct: sessionCalls === undefined ? undefined : (message) => sessionCalls.answer(session, c.req.raw, message, authInfo.extra.context),
          ids: session.calls,
          observe: this.observeBatch,
        });
      }
      // A request whose id names one of the session's requests still running is refused: the
      // SDK's transport keys its answers by id, so the first request was never answered and held
      // its connection for good, and a call answered directly could no longer be stopped by its
      // id (adversary round 27, F1 and F2). MCP forbids reusing an id within a session.
      const id = requestIdOf(body.raw);
      if (id !== undefined) {
        if (!session.calls.claim(id)) return jsonRpcRefusal(400, body.raw, idInUse(id));
        try {
          return await this.postRequest(endpoint, c, session, authInfo, owner, body);
        } finally {
          session.calls.release(id);
        }
      }
      // Notifications and responses (and what the transport refuses): charged per IP as ever.
      const taken = await this.chargeTools(endpoint, c, owner, body);
      if (taken instanceof Response) return taken;
      charged = taken;
    }

    // A session's GET stream holds its connection as a listen stream does: the same bound and
    // shedding (`QuietStreams`), by the address the connection bounds count.
    let slot: QuietSlot | undefined;
    if (method === "GET") {
      slot = this.deps.quietStreams.admit(callerAddress(clientIp(this.deps, c)));
      if (slot === undefined) {
        const refusal = quietRefusal(this.deps.quietStreams.bound);
        return jsonRpcError(503, JSON_RPC.serverError, refusal.message, { data: { reason: refusal.reason, limit: refusal.limit }, headers: { "Retry-After": "60" } });
      }
    }
    let response: Response;
    try {
      response = await this.settle(await session.transport.handleRequest(c.req.raw, { parsedBody, authInfo }), charged);
    } catch (error) {
      slot?.remove();
      throw error;
    }
    // Notifications the transport took (202): a cancellation also stops a call answered directly.
    if (response.status === 202 && parsedBody !== undefined && !Array.isArray(parsedBody)) this.cancelCalls(session, [parsedBody as Message]);
    // Ended here: answered once no other worker holds it (every worker then answers its id as unknown).
    if (method === "DELETE" && response.ok) await this.shared?.end(session.id).catch(() => {});
    if (method !== "GET") return response;
    // A 2025 session's capabilities, declared once in `initialize`.
    const apps = rendersApps(session.server.server.getClientCapabilities());
    return this.followGetStream(session, { endpoint, authorization: c.req.header("authorization"), urls: urlsFor(this.deps, c), context: authInfo.extra.context, apps }, response, slot, c.env?.outgoing);
  }

  /** One request of `session` (its id claimed): charged, then answered directly (a plain tool call) or by the SDK's transport. */
  private async postRequest(endpoint: Endpoint, c: BridgeContext, session: Session, authInfo: AuthInfoWithContext, owner: string, body: { raw: unknown; messages: Message[] }): Promise<Response> {
    const charged = await this.chargeTools(endpoint, c, owner, body);
    if (charged instanceof Response) return charged;
    if (this.sessionCalls !== undefined && body.messages[0]?.method === "tools/call") {
      const answered = await this.sessionCalls.answer(session, c.req.raw, body.raw, authInfo.extra.context);
      if (answered !== undefined) return answered;
    }
    return this.settle(await session.transport.handleRequest(c.req.raw, { parsedBody: body.raw, authInfo }), charged);
  }

  /**
   * The calls of `session` answered directly (`SessionToolCalls`) that `messages` cancel: a
   * `notifications/cancelled` naming a request id (a string or a safe integer), with a string
   * reason or none, as the SDK's schema takes it. The SDK cancels its own requests by the same
   * notification. The other workers holding the session are told too: the call may run in one of
   * them (the client's connections reach any worker).
   */
  private cancelCalls(session: Session, messages: readonly Message[]): void {
    for (const m of messages) {
      if (m.method !== "notifications/cancelled" || "id" in m) continue;
      const params = m.params as { requestId?: unknown; reason?: unknown } | undefined;
      const id = params?.requestId;
      const reason = params?.reason;
      if ((typeof id !== "string" && !Number.isSafeInteger(id)) || (reason !== undefined && typeof reason !== "string")) continue;
      session.calls.cancel(id as string | number, reason);
      this.shared?.cancel({ op: "cancel", id: session.id, requestId: id as string | number, ...(reason !== undefined ? { reason } : {}) });
    }
  }

  /** The table closed a session on its own: evicted, it ends on every worker; idle, this worker's copy is gone (`SessionLedger`). */
  private closedHere(id: string, why: ClosedBy): void {
    if (this.shared === undefined) return;
    if (why === "idle") this.shared.dropped(id);
    else this.shared.end(id).catch(() => {});
  }

  /** Session `id` ended on another worker (DELETE, eviction): closed here too, its calls stopped. */
  private async endedElsewhere(id: string): Promise<void> {
    const pending = this.resuming.get(id);
    if (pending !== undefined) pending.ended = true;
    await this.sessions.close(id);
  }

  /**
   * A client cancelled a call of a session held here through another worker: a call answered
   * directly stops (`SessionCalls`), and the session's SDK server is given the notification for
   * one it runs, as if the client had sent it here.
   */
  private cancelledElsewhere(news: SessionCancel): void {
    const session = this.sessions.peek(news.id);
    if (session === undefined) return;
    session.calls.cancel(news.requestId, news.reason);
    const version = session.server.server.getNegotiatedProtocolVersion();
    const notification = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: news.requestId, ...(news.reason !== undefined ? { reason: news.reason } : {}) } };
    const request = new Request("http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session.id, ...(version !== undefined ? { "mcp-protocol-version": version } : {}) },
      body: "",
    });
    session.transport.handleRequest(request, { parsedBody: notification }).catch(() => {});
  }

  /** Open (or opening) `subscriptions/listen` streams on `endpoint`. */
  listenStreams(endpoint: Endpoint): number {
    return this.listenQuota.size(endpoint);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.unsubscribe();
    this.streams.closeAll();
    await Promise.all(Object.values(this.modern).map((h) => h.close()));
    await this.sessions.closeAll();
  }

  /** Read, parse and shape-check a POST body; a Response is the error to answer. */
  private async readJsonRpc(c: BridgeContext): Promise<{ raw: unknown; messages: Message[] } | Response> {
    const type = c.req.header("content-type");
    if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
      return jsonRpcError(415, JSON_RPC.serverError, "Unsupported Media Type: Content-Type must be application/json");
    }
    const read = await readBody(c, LIMITS.bridge.maxBodyBytes);
    if (read.tooLarge) {
      // Named as the other refusals by a bound are (`data.reason`, `data.limit`), so a client tells them apart by data, not by wording.
      return jsonRpcError(413, JSON_RPC.serverError, `Payload Too Large: the request body must not exceed ${LIMITS.bridge.maxBodyBytes} bytes`, {
        data: { reason: "payload_too_large", limit: LIMITS.bridge.maxBodyBytes },
        headers: { Connection: "close" },
      });
    }
    if (!("text" in read)) {
      // A charset other than UTF-8 or UTF-16 is refused; bytes that are not the declared one cannot be JSON.
      const bad = read.undecodable;
      return bad.problem === "unsupported"
        ? jsonRpcError(415, JSON_RPC.serverError, `Unsupported Media Type: ${unsupportedCharsetMessage(bad.charset)}`)
        : jsonRpcError(400, JSON_RPC.parseError, `Parse error: the body is not valid ${bad.encoding}`);
    }
    // Before anything is parsed: the SDK's schemas recurse, and a body nested thousands deep overflowed their stack into a 500.
    const complex = jsonComplexity(read.text);
    if (complex !== undefined) return complexRefusal(read.text, complex);
    let raw: unknown;
    try {
      raw = parseMessages(read.text);
    } catch (error) {
      return jsonRpcError(400, JSON_RPC.parseError, `Parse error: the body is not valid JSON (${(error as Error).message})`);
    }
    // Kept with the request: an answer refused later (too many unread bytes) names these ids.
    notePostedMessages((c.env as { incoming?: unknown } | undefined)?.incoming, raw, read.text);
    const list = Array.isArray(raw) ? raw : [raw];
    if (list.length === 0) return jsonRpcError(400, JSON_RPC.invalidRequest, "Invalid Request: an empty batch");
    if (list.length > LIMITS.bridge.maxBatchMessages) {
      return jsonRpcError(400, JSON_RPC.invalidRequest, `Invalid Request: a batch must not exceed ${LIMITS.bridge.maxBatchMessages} messages`);
    }
    const bad = list.findIndex((m) => shapeProblem(m) !== undefined);
    if (bad !== -1) {
      // The SDK takes a batch whole: one invalid message refuses it, and every request in it says so.
      const refused = { code: JSON_RPC.invalidRequest, message: `Invalid Request: the batch was not processed because its message at index ${bad} is invalid` };
      return jsonRpcRefusal(400, raw, refused, {
        rawIds: rawIds(read.text),
        errorOf: (m) => {
          const problem = shapeProblem(m);
          return problem === undefined ? undefined : { code: JSON_RPC.invalidRequest, message: `Invalid Request: ${problem}` };
        },
      });
    }
    const odd = list.findIndex((m) => paramsProblem(m) !== undefined);
    if (odd !== -1) {
      // The SDK's transports would call these unparseable (-32700); they are a request's params, named.
      const refused = { code: JSON_RPC.invalidParams, message: `Invalid params: ${paramsProblem(list[odd]) as string}` };
      return jsonRpcRefusal(400, raw, refused, {
        rawIds: rawIds(read.text),
        errorOf: (m) => {
          const problem = paramsProblem(m);
          return problem === undefined ? undefined : { code: JSON_RPC.invalidParams, message: `Invalid params: ${problem}` };
        },
      });
    }
    const wrong = list.findIndex((m) => schemaProblem(m) !== undefined);
    if (wrong !== -1) {
      // The rest of what the SDK's schema refuses: -32600 for that message, as the stdio guard answers, not the SDK's -32700 for the whole body.
      const refused = { code: JSON_RPC.invalidRequest, message: `Invalid Request: the batch was not processed because its message at index ${wrong} is invalid` };
      return jsonRpcRefusal(400, raw, refused, {
        rawIds: rawIds(read.text),
        errorOf: (m) => {
          const problem = schemaProblem(m);
          return problem === undefined ? undefined : { code: JSON_RPC.invalidRequest, message: problem };
        },
      });
    }
    const alone = Array.isArray(raw) ? list.findIndex((m) => batchMemberProblem(m) !== undefined) : -1;
    if (alone !== -1) {
      // Refused before any version is looked at: a batched initialize is wrong at every revision,
      // with or without a session (a 2025-06-18 or later session would refuse the batch anyway).
      const refused = { code: JSON_RPC.invalidRequest, message: `Invalid Request: the batch was not processed because its message at index ${alone} is invalid` };
      return jsonRpcRefusal(400, raw, refused, {
        rawIds: rawIds(read.text),
        errorOf: (m) => {
          const problem = batchMemberProblem(m);
          return problem === undefined ? undefined : { code: JSON_RPC.invalidRequest, message: `Invalid Request: ${problem}` };
        },
      });
    }
    return { raw, messages: list as Message[] };
  }

  /**
   * Count tool calls against the per-site tool limits, and what a tool stores against the
   * caller's per-IP budgets (`CLIENT_CHARGES`): what was charged, or the 429 to answer.
   */
  private async chargeTools(endpoint: Endpoint, c: BridgeContext, owner: string, body: { raw: unknown; messages: readonly Message[] }): Promise<Response | readonly Charge[]> {
    const charges = this.toolCharges(endpoint, c, owner, body.messages);
    if (charges.length === 0) return charges;
    // All or none: a batch is refused whole, and each request in it is answered with the 429.
    const { decision, taken } = await takeWithReserves(this.deps.limiter, charges);
    return decision.ok ? taken : rateLimitedResponse(c.req.path, decision, body.raw);
  }

  /** What `messages`' tool calls take of the per-site tool limits (`owner`'s reserve behind them) and the caller's per-IP budgets. */
  private toolCharges(endpoint: Endpoint, c: BridgeContext, owner: string, messages: readonly Message[]): Charge[] {
    const { deps } = this;
    const names = deps.runtime.names;
    const charges: Charge[] = [];
    for (const m of messages) {
      if (m.method !== "tools/call" || m.id === undefined || typeof m.params?.name !== "string" || !runsATool(m.params)) continue;
      const name = m.params.name;
      const tool = deps.tools.find((t) => t.name(names) === name);
      // A call its schema refuses runs nothing and answers the error naming the argument: it
      // costs no tool budget (it spent the site's hourly searches, and the caller's reserve, on a
      // typo; the POST's own unit of the per-IP limit is taken as for any request).
      if (tool !== undefined && !toolArguments(tool, m.params.arguments).ok) continue;
      const units = tool === undefined ? undefined : CLIENT_CHARGES[tool.key]?.(m.params.arguments);
      if (units !== undefined) appendAll(charges, clientCharges(deps, c, units));
      const limit = tool === undefined ? undefined : deps.limits.tools[tool.key];
      if (tool === undefined || limit === undefined) continue;
      charges.push(siteToolCharge(siteToolKey(endpoint, tool.key), endpoint === "authed" ? limit.authed : limit.public, `${endpoint === "authed" ? "authenticated " : ""}${tool.key} calls`, owner));
    }
    return charges;
  }

  /**
   * One message of a batch, charged as the call it would be on its own: a request past the first
   * takes the per-IP limit's unit the bridge took for the POST itself, and a tool call its tool's
   * charges, all or none.
   */
  private async chargeMessage(endpoint: Endpoint, c: BridgeContext, owner: string, message: Message, first: boolean): Promise<MessageCharge<readonly Charge[]>> {
    const tools = this.toolCharges(endpoint, c, owner, [message]);
    const charges = first ? tools : [ipCharge(this.deps, c), ...tools];
    if (charges.length === 0) return { ok: true, charged: tools };
    const { decision, taken } = await takeWithReserves(this.deps.limiter, charges);
    // Only the tool's charges are given back if the transport refuses the message: the POST's own unit is not either.
    return decision.ok ? { ok: true, charged: first ? taken : taken.slice(1) } : { ok: false, refusal: rateLimitedResponse(c.req.path, decision, message) };
  }

  /**
   * Give back what a request was charged when the SDK refused it whole without running a tool
   * (an error status: headers that disagree with the body, a batch the revision does not take,
   * an unsupported version...): only calls that ran count against the limits, or a client could
   * spend the site's hourly search budget with requests that search nothing. Not a 499 (the
   * client hung up: the tool ran on) nor a 5xx. A refund that fails (the database away) leaves
   * the count high, never low.
   */
  private async settle(response: Response, charged: readonly Charge[]): Promise<Response> {
    if (charged.length > 0 && refusedWhole(response.status)) await this.deps.limiter.refund(charged).catch(() => {});
    return response;
  }

  /** The 2026-07-28 handler of an endpoint: a server per request (used again after it answered: `ServerPool`), from the one factory both generations share. */
  private modernHandler(endpoint: Endpoint): McpHttpHandler {
    return createMcpHandler(
      ({ authInfo }) => this.servers.acquire(endpoint, contextFromAuthInfo(authInfo)),
      // 2025 traffic is ours to route (sessions, above). Answers are plain JSON: no handler of
      // ours sends anything before its result. Listen streams are subscribed per reader (`ListenBus`).
      // `ListenQuota` refuses past our bounds first, naming them; the SDK's own cap stays as a backstop.
      { legacy: "reject", maxRequestBodySize: LIMITS.bridge.maxBodyBytes, maxSubscriptions: this.maxListenStreams, bus: this.listenBus },
    );
  }

  /** A new 2026-07-28 server for `context`'s reader on `endpoint` (each request's own context reaches its handlers). */
  private modernServer(endpoint: Endpoint, context: RequestContext): Server {
    return createMcpServer(this.serverOptions(endpoint, context)).server;
  }

  /**
   * A server's options on `endpoint`, opened by `context` (for a session, the `initialize`
   * request's: it writes the instructions; every later request brings its own).
   */
  private serverOptions(endpoint: Endpoint, context: RequestContext): Parameters<typeof createMcpServer>[0] {
    const { deps } = this;
    return {
      runtime: deps.runtime,
      context,
      contextOf: contextFromAuthInfo,
      tools: deps.tools,
      endpoint,
      version: deps.version,
      forwardDiagnostics: false,
      ...(deps.apps !== undefined ? { apps: deps.apps } : {}),
      // Changes are announced by `NotificationStreams` and the listen bus, per reader.
      live: false,
      // The token endpoint's client-credentials grant is an MCP extension (SEP-1046): say so where it applies.
      ...(endpoint === "authed" ? { extensions: grantExtensions() } : {}),
    };
  }

  /** Open a session for an `initialize` request, sent alone (the id is signed with what that one message settles). */
  private async open(endpoint: Endpoint, principal: string, owner: string, request: Request, initialize: Message, authInfo: AuthInfoWithContext): Promise<Response> {
    const traits = initializeTraits(initialize);
    const id = this.ids.mint(endpoint, principal, traits);
    const { server, transport } = await this.connect(endpoint, principal, owner, authInfo, id);
    const response = await transport.handleRequest(request, { parsedBody: keptInitialize(initialize, traits), authInfo });
    // The SDK refused the request (bad Accept header...): no session was opened, free the server.
    if (transport.sessionId === undefined) {
      await server.server.close();
      return response;
    }
    // The id was minted before the server negotiated (the transport asks for it first): a sibling
    // would resume the session at another version than this server's, should the SDK's rule change.
    const negotiated = server.server.getNegotiatedProtocolVersion();
    if (negotiated !== traits.protocolVersion) {
      await this.sessions.close(id);
      throw new Error(`session ${id} was signed for protocol version ${traits.protocolVersion} but negotiated ${String(negotiated)}`);
    }
    // Known to the primary before the client can name it to a sibling.
    await this.shared?.opened(id, `${endpoint} ${owner}`);
    return response;
  }

  /**
   * Take up a session a sibling worker (or this one, before it closed its idle copy) opened, its id
   * signed for this endpoint and caller, if it still lives (`SharedSessions.hold`: not ended by
   * DELETE, eviction or idleness on every worker). Concurrent requests of one id share one take-up;
   * a session ended while it was taken up is closed again and unknown.
   */
  private resume(id: string, traits: SessionTraits, endpoint: Endpoint, principal: string, owner: string, request: Request, authInfo: AuthInfoWithContext): Promise<Session | undefined> {
    const shared = this.shared;
    if (shared === undefined) return Promise.resolve(undefined);
    const pending = this.resuming.get(id);
    if (pending !== undefined) return pending.session;
    const takeUp = async (): Promise<Session | undefined> => {
      if (!(await shared.hold(id))) return undefined;
      const session = await this.takeUp(id, traits, endpoint, principal, owner, request, authInfo);
      if (session === undefined) shared.dropped(id);
      if (session === undefined || !entry.ended) return session;
      await this.sessions.close(id);
      return undefined;
    };
    const entry: { ended: boolean; readonly session: Promise<Session | undefined> } = { ended: false, session: takeUp().finally(() => this.resuming.delete(id)) };
    this.resuming.set(id, entry);
    return entry.session;
  }

  /**
   * A server and transport for session `id`, initialized the way the client's own `initialize`
   * did: at the protocol version it negotiated and with the traits its id carries
   * (`SessionTraits`). The tools keep no other per-session state, so the client sees the same
   * session on every worker.
   */
  private async takeUp(id: string, traits: SessionTraits, endpoint: Endpoint, principal: string, owner: string, request: Request, authInfo: AuthInfoWithContext): Promise<Session | undefined> {
    const { server, transport } = await this.connect(endpoint, principal, owner, authInfo, id);
    const protocolVersion = traits.protocolVersion;
    const initialize = new Request(request.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "",
    });
    const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities: traitCapabilities(traits), clientInfo: { name: "resumed-session", version: "0" } } };
    await transport.handleRequest(initialize, { parsedBody: body, authInfo });
    if (transport.sessionId !== id) {
      await server.server.close();
      return undefined;
    }
    return this.sessions.get(id);
  }

  /** A server and its transport for session `id`; the session joins the table once initialized. */
  private async connect(endpoint: Endpoint, principal: string, owner: string, authInfo: AuthInfoWithContext, id: string) {
    const server = createMcpServer(this.serverOptions(endpoint, authInfo.extra.context));
    let session: Session | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // One JSON answer per POST: tool calls here never stream progress, and plain JSON is
      // cheaper for both sides than an SSE stream per call.
      enableJsonResponse: true,
      maxRequestBodySize: LIMITS.bridge.maxBodyBytes,
      onsessioninitialized: (id) => {
        session = { id, endpoint, principal, owner, transport, server, lastSeen: this.deps.now(), openStreams: 0, calls: new SessionCalls() };
        this.sessions.add(session);
      },
    });
    transport.onclose = () => {
      if (session !== undefined) {
        this.sessions.forget(session.id);
        session.calls.abortAll();
      }
      server.close();
    };
    await server.server.connect(transport);
    return { server, transport };
  }

  /**
   * A session's GET stream: counted as activity for as long as it is open, and told of list
   * changes by `NotificationStreams` (as its reader's lists change; closed when its token stops
   * holding, and the client reconnects with its current one).
   */
  private followGetStream(session: Session, opening: StreamOpening, response: Response, slot: QuietSlot | undefined, res: ServerResponse | undefined): Response {
    if (response.body === null || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      // Refused (a second stream of the session: 409): it holds no place.
      slot?.remove();
      return response;
    }
    session.openStreams++;
    // Ends later than `stream` is set: the stream is read only after this returns.
    const closable = closableStream(response, () => {
      session.openStreams--;
      session.lastSeen = this.deps.now();
      this.streams.delete(stream);
      slot?.remove();
    });
    // Shed for a newcomer: the stream ends (a 2025 client opens it again with a GET, as after any
    // end of it) and its connection is closed.
    slot?.attach(res, () => closable.close());
    const server = session.server.server;
    // Best-effort: a stream that went away must not break the announcement to the others.
    const notify = (kind: ListKind): void => void (kind === "tools" ? server.sendToolListChanged() : server.sendResourceListChanged()).catch(() => {});
    const stream = this.streams.add(opening, notify, closable.close);
    return closable.response;
  }
}

/**
 * Whether a message is the SDK's to answer in the 2026-07-28 generation without asking it: one
 * request or notification (no batch, no `initialize`, no response) whose `params._meta` carries
 * the protocol-version claim. The SDK's `isLegacyRequest` says "not legacy" for every such
 * message (answered, or refused, by the modern path), by the same rule; asking it costs a second
 * classification of the body on every 2026-07-28 call, since the handler classifies it again.
 */
function claimsModernRevision(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const m = body as Record<string, unknown>;
  if (typeof m.method !== "string" || m.method === "initialize" || "result" in m || "error" in m) return false;
  const meta = (m.params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * The body as every reader of it sees the same object. `JSON.parse` keeps a `"__proto__"` member
 * as an own property, where the SDK's schemas (and any object spread) drop it: a tool would run
 * on arguments without it while the bridge judged, and charged budgets for, arguments with it
 * (a feedback call with `"__proto__": {}` escaped the feedback budgets). Such members are left
 * out here, before anything reads the body; the check for them is skipped on bodies that cannot
 * hold one (no `__proto__` and no escape that could spell it).
 */
function parseMessages(text: string): unknown {
  if (!text.includes("__proto__") && !text.includes("\\u")) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (key === "__proto__" ? undefined : value));
}

/**
 * A body past `LIMITS.clientJson` (`jsonComplexity`), answered without parsing it: `-32600` with the
 * id read from its text, naming the bound in `data` as the other refusals by a bound do.
 */
function complexRefusal(text: string, problem: JsonComplexity): Response {
  const error = { code: JSON_RPC.invalidRequest, message: `Invalid Request: the body ${jsonComplexityMessage(problem)}`, data: problem };
  return new Response(`{"jsonrpc":"2.0","id":${readableId(text)},"error":${JSON.stringify(error)}}`, { status: 400, headers: { "Content-Type": "application/json" } });
}

/** A listen request past a bound: 429 (the caller's own) or 503 (the endpoint's), naming the bound. */
function listenRefused(refusal: ListenRefusal, body: unknown): Response {
  const headers: Record<string, string> = refusal.status === 503 ? { "Retry-After": "60" } : {};
  const code = refusal.status === 429 ? JSON_RPC.rateLimited : JSON_RPC.serverError;
  return jsonRpcRefusal(refusal.status, body, { code, message: refusal.message, data: { reason: refusal.reason, limit: refusal.limit } }, { headers });
}

/** A listen request past this process's bound on streams, when every caller holding one holds one only (`QuietStreams.admit`). */
function quietRefusal(limit: number): ListenRefusal {
  return {
    status: 503,
    reason: "listen_streams",
    limit,
    message: `This server process holds its most open notification streams (${limit}, half its connections: subscriptions/listen and session GET streams), and no other network or caller holds two more than this one's; retry later`,
  };
}

/**
 * The spec's graceful close of a listen stream, as the SDK writes it when it shuts down: the
 * listen request's result, stamped with its subscription id (the request's id). A client reads it
 * as "the server ended this subscription; listen again", not as a broken connection.
 */
function gracefulClose(id: string | number | undefined): string {
  const result = { jsonrpc: "2.0", id, result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } };
  return `event: message\ndata: ${JSON.stringify(result)}\n\n`;
}

/** The SDK's answers to a request it refused whole, before any tool ran (not 499: the client left a running tool). */
function refusedWhole(status: number): boolean {
  return status >= 400 && status < 499 && status !== 429;
}

/**
 * Whether a `tools/call` can run its tool: every path refuses a task (this server runs none) and
 * arguments that are not an object, answering with an error and running nothing, so such calls
 * are not counted.
 */
function runsATool(params: Record<string, unknown>): boolean {
  const args = params.arguments;
  return params.task === undefined && (args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args)));
}

/** The capabilities a 2026-07-28 request declares in its `_meta` envelope. */
function envelopeCapabilities(message: Message | undefined): ClientCapabilities | undefined {
  const meta = (message?.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return meta?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/**
 * What an `initialize` request settles that the server acts on (`SessionTraits`): its client's
 * MCP Apps, and the version the SDK's server negotiates (the one requested if it serves it, else
 * its latest; `open` checks the server agreed).
 */
function initializeTraits(message: Message): SessionTraits {
  const params = message.params as { capabilities?: ClientCapabilities; protocolVersion?: unknown } | undefined;
  const requested = params?.protocolVersion;
  const protocolVersion = typeof requested === "string" && SESSION_PROTOCOL_VERSIONS.includes(requested) ? requested : (SESSION_PROTOCOL_VERSIONS[0] as string);
  return { apps: rendersApps(params?.capabilities), protocolVersion };
}

/**
 * The `initialize` a session's server is given: the client's, with its capabilities cut to what its
 * traits carry (`traitCapabilities`, all the server acts on) and its `clientInfo` to a bounded name
 * and version. The SDK's server keeps both for the session's life: 300 sessions from one address,
 * each declaring 60 KB of capabilities made of 20,000 empty arrays, kept ~0.6 GB of small live
 * objects that slowed every garbage collection, and other callers waited minutes (adversary round
 * 60 F1). A sibling worker taking the session up declares the same cut capabilities, so the
 * session is the same on every worker. A message the SDK's schema refuses is given as it came, for
 * the SDK to answer (nothing of it is kept).
 */
function keptInitialize(message: Message, traits: SessionTraits): Message {
  if (!isInitializeRequest(message)) return message;
  const { name, version } = message.params.clientInfo;
  const clientInfo = { name: boundedText(name), version: boundedText(version) };
  return { ...message, params: { ...message.params, capabilities: traitCapabilities(traits), clientInfo } } as Message;
}

/** `text` cut to `LIMITS.bridge.keptClientInfoChars` characters (whole code points). */
function boundedText(text: string): string {
  const max = LIMITS.bridge.keptClientInfoChars;
  return text.length <= max ? text : Array.from(text).slice(0, max).join("");
}

/** The capabilities a resumed session declares: those of its traits, as its client's `initialize` did. */
function traitCapabilities(traits: SessionTraits): ClientCapabilities {
  return traits.apps ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } } : {};
}

/** The id of a single request (not a notification, not a batch), as the transport keys it; undefined for anything else. */
function requestIdOf(raw: unknown): string | number | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const m = raw as { method?: unknown; id?: unknown };
  if (typeof m.method !== "string") return undefined;
  return typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
}

