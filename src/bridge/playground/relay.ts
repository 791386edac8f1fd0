import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { type Context, Hono } from "hono";
import type { Reader } from "../../vfs/access.js";
import type { ApiPageInfo } from "../../vfs/site-api.js";
import { localContext, type RequestContext } from "../../vfs/request-context.js";
import { playgroundVisible, RELAY_PATH } from "../../config/openapi/playground.js";
import { LIMITS } from "../../limits.js";
import type { ClientBudget } from "../middleware/client-budget.js";
import { rateLimitedResponse } from "../middleware/rate-limit-response.js";
import { callerAddress } from "../middleware/caller-address.js";
import { connectionGone } from "../middleware/connection-gone.js";
import { clientIp } from "../context.js";
import { type UpstreamAnswer, relayJsonStream, relayResponse } from "./relay-answer.js";
import { type RelayPlaceKeeper, RelayPlaces } from "./relay-places.js";
import { isLocalHost, specialAddress } from "../middleware/address-policy.js";
import { decodeBody, unsupportedCharsetMessage } from "../middleware/body-charset.js";
import { jsonComplexity, jsonComplexityMessage } from "../../json-complexity.js";
import { RelayRequest, type RelayResponse, renderKind } from "./relay-request.js";
import { compileOperationPath, compileServer, hidesDotSegment, pathBelow, type ServerPattern, slashReadings, underServer } from "./server-match.js";

/** `dns.lookup` with `all: true`, as the relay calls it (tests map names to loopback). */
export type LookupAll = (hostname: string) => Promise<readonly LookupAddress[]>;

export interface RelayDeps {
  /** The API facts (servers, playground) of a page of the current site that the request may
   *  read; undefined for a page that does not exist and for one it may not read alike. */
  readonly lookupPage: (pagePath: string, context: RequestContext) => ApiPageInfo | undefined;
  /** The request's context (who asks, the site's auth setting read for it); anonymous on a
   *  public site when not given. */
  readonly contextOf?: (request: Request) => RequestContext | Promise<RequestContext>;
  /** The per-IP `relay` budget (the bridge lends one); without it the relay counts nothing. */
  readonly budget?: ClientBudget;
  readonly lookup?: LookupAll;
  /** Override limits (tests use small ones). */
  readonly limits?: { readonly [K in keyof typeof LIMITS.relay]?: number };
  /**
   * The calls in flight per caller and in all, shared by the HTTP route and the MCP Apps' Send
   * tool (`serve --http` gives both the same; a worker of `--workers N` asks its primary, which
   * counts for all); a new one, from `limits`, when not given.
   */
  readonly places?: RelayPlaceKeeper;
  /** Who a request's client is, for the per-caller bound: its address (an IPv6 /64), `--trust-proxy` applied. */
  readonly callerOf?: (c: Context) => string;
}

/** A relay refusal: the HTTP status, a stable code and a message for a person. */
class RelayError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 413 | 415 | 429 | 502 | 503 | 504,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Hop-by-hop and connection headers: never forwarded in either direction. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length", "expect"]);

const LOCAL_RULE = "the relay calls loopback, private and other special-purpose addresses only when the spec's server is one";

/**
 * The playground relay, `POST /_svc/api/request`, as a Hono app the HTTP bridge mounts at the
 * root. It serves only pages the caller may read: any other page is answered exactly as one that
 * does not exist, before its playground rule could say more. It is no open proxy: the target
 * must be under a server the page's spec declares; special-purpose addresses (loopback, private,
 * link-local...) are refused unless that server is itself one (checked on every address DNS
 * returns, at connect time, so a rebinding name cannot slip through); redirects are returned,
 * not followed; size and time are bounded (`LIMITS.relay`), and so is how often one address
 * may call it (the `relay` budget).
 */
export function createRelayApp(deps: RelayDeps): Hono {
  const relay = createRelay(deps);
  const callerOf = deps.callerOf ?? ((c: Context) => `address:${callerAddress(clientIp({ trustProxy: false }, c))}`);
  const app = new Hono();

  app.post(RELAY_PATH, async (c) => {
    // The body first, whole, and only then a place: a client slow to send its body holds its own
    // connection while it trickles in (`LIMITS.bridge.requestMs` bounds that), never one of the
    // places every caller shares. Taken first, 16 clients declaring a large body and sending a
    // byte every 10 s held all 16 for Node's 5-minute request timeout (issue 25, adversary F1).
    let raw: unknown;
    try {
      raw = await readInput(c.req.raw, relay.maxRequestBytes);
    } catch (error) {
      if (error instanceof RelayError) return c.json({ error: { code: error.code, message: error.message } }, error.status);
      throw error;
    }
    // Then the place: a caller at its bound is refused before its hour is charged.
    const place = await relay.places.take(callerOf(c));
    if (!place.ok) return c.json({ error: { code: place.code, message: place.message } }, place.status, { "Retry-After": "2" });
    let exchange: Exchange;
    try {
      if (deps.budget !== undefined) {
        const decision = await deps.budget.take(c, { relay: 1 });
        if (!decision.ok) {
          place.release();
          return rateLimitedResponse(c.req.path, decision);
        }
      }
      const context = deps.contextOf !== undefined ? await deps.contextOf(c.req.raw) : localContext();
      exchange = await relay.exchange(raw, context, 0, connectionGone(c));
    } catch (error) {
      place.release();
      if (error instanceof RelayError) return c.json({ error: { code: error.code, message: error.message } }, error.status);
      throw error;
    }
    // The place is given back once the upstream connection is closed and the answer is out.
    const release = (): void => void exchange.closed.then(place.release);
    if (!("upstream" in exchange)) {
      release();
      return c.json(exchange.answer.body, exchange.answer.status);
    }
    return new Response(relayJsonStream(exchange.upstream, release), { status: 200, headers: { "Content-Type": "application/json" } });
  });
  return app;
}

/** The relay's answer: the HTTP status `POST /_svc/api/request` answers with, and its JSON body. */
export interface RelayAnswer {
  readonly status: 200 | RelayError["status"];
  readonly body: RelayResponse | { readonly error: { readonly code: string; readonly message: string } };
}

/**
 * One call's outcome before its answer is encoded: the upstream's answer, or the relay's own
 * (a refusal, an upstream failure); `closed` resolves once the upstream connection is closed
 * (at once when none was opened).
 */
type Exchange = { readonly upstream: UpstreamAnswer; readonly closed: Promise<void> } | { readonly answer: RelayAnswer; readonly closed: Promise<void> };

/** The relay itself, for the HTTP route and for the MCP Apps' request tool alike. */
export interface Relay {
  /**
   * Send one request (the JSON body of `POST /_svc/api/request`, already parsed) as `context`'s
   * reader; `bytes`, the size of the JSON it came as, is held to the same limit as the route's
   * body. It takes a place of `context.caller` (`RelayPlaces`) for the call; `signal` (default
   * `context.gone`) aborting stops the upstream request at once.
   */
  readonly send: (input: unknown, context: RequestContext, bytes?: number, signal?: AbortSignal) => Promise<RelayAnswer>;
  /** The checks and the upstream call, no place taken (the HTTP route takes its own once the body is read). */
  readonly exchange: (input: unknown, context: RequestContext, bytes: number, signal: AbortSignal | undefined) => Promise<Exchange>;
  readonly places: RelayPlaceKeeper;
  readonly maxRequestBytes: number;
}

const DONE: Promise<void> = Promise.resolve();

/**
 * The relay's checks and its call, whatever brought the request: the HTTP route above, or an
 * MCP App's tool call (src/mcp/api-request-tool.ts), each with its own reader's context.
 */
export function createRelay(deps: Pick<RelayDeps, "lookupPage" | "lookup" | "limits" | "places">): Relay {
  const limits = { ...LIMITS.relay, ...deps.limits };
  const places: RelayPlaceKeeper = deps.places ?? new RelayPlaces({ perCaller: limits.maxInFlightPerCaller, total: limits.maxInFlight, newcomerReserve: limits.newcomerReserve });
  const lookupAll: LookupAll =
    deps.lookup ??
    ((hostname) =>
      new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)))));
  const exchange = async (raw: unknown, context: RequestContext, bytes: number, signal: AbortSignal | undefined): Promise<Exchange> => {
    let closed = DONE;
    try {
      if (bytes > limits.maxRequestBytes) throw new RelayError(413, "request_too_large", `the request is over the relay's ${limits.maxRequestBytes}-byte limit`);
      const input = parseInput(raw);
      const page = deps.lookupPage(input.page, context);
      if (page === undefined || page.kind === "channel") {
        throw new RelayError(404, "unknown_page", `${input.page} is not an API page of this site`);
      }
      // `playground: auth` needs authentication configured: on a public site, nobody has it.
      checkPlayground(page, context.reader, context.authMode !== "public");
      // A webhook page documents a request the API sends, not one to send it: no request is its
      // operation (its HTML page has no playground either).
      if (page.kind === "webhook") throw new RelayError(403, "not_page_operation", `${input.page} documents a webhook, which the API sends; the relay sends no request in its name`);
      const target = buildUrl(input.url, input.query);
      const server = operationServer(page, input.method, target, targetServers(page, target, input.page));
      const allowLocal = server.literalHost !== undefined && isLocalHost(server.literalHost);
      if (!allowLocal) {
        const why = isIP(target.hostname.replace(/^\[|\]$/g, "")) !== 0 ? specialAddress(target.hostname) : isLocalHost(target.hostname) ? "a local name" : undefined;
        if (why !== undefined) throw new RelayError(403, "private_address", `${target.hostname} is ${why}; ${LOCAL_RULE}`);
      }
      const sent = sendUpstream(target, input, {
        timeoutMs: limits.timeoutMs,
        maxResponseBytes: limits.maxResponseBytes,
        signal,
        lookup: async (hostname) => {
          const addresses = await lookupAll(hostname);
          if (!allowLocal) {
            // Not which address: a reader may choose the name (a server variable), and the answer must not map the network.
            if (addresses.some((a) => specialAddress(a.address) !== undefined)) throw new RelayError(403, "private_address", `${hostname} does not resolve to a public address; ${LOCAL_RULE}`);
          }
          return addresses;
        },
      });
      closed = sent.closed;
      return { upstream: await sent.answer, closed };
    } catch (error) {
      if (error instanceof RelayError) return { answer: { status: error.status, body: { error: { code: error.code, message: error.message } } }, closed };
      throw error;
    }
  };
  const send = async (raw: unknown, context: RequestContext, bytes = 0, signal: AbortSignal | undefined = context.gone): Promise<RelayAnswer> => {
    const place = await places.take(context.caller ?? "local");
    if (!place.ok) return { status: place.status, body: { error: { code: place.code, message: place.message } } };
    let closed = DONE;
    try {
      const done = await exchange(raw, context, bytes, signal);
      closed = done.closed;
      return "upstream" in done ? { status: 200, body: relayResponse(done.upstream) } : done.answer;
    } finally {
      void closed.then(place.release);
    }
  };
  return { send, exchange, places, maxRequestBytes: limits.maxRequestBytes };
}

/** The declared servers `target` lies under, in the spec's order; refuses targets under none, or hiding dot segments. */
function targetServers(page: ApiPageInfo, target: URL, pagePath: string): readonly ServerPattern[] {
  // Not "declares no server": the spec does, and the page says they are not shown. Its path
  // item's or document's servers are not this operation's (adversary round 65 F2).
  if (page.serversNotShown === true) throw new RelayError(403, "target_not_allowed", `the servers of ${pagePath}'s operation are not shown on its page (restricted to some readers); the relay calls no other server in their place`);
  const declared = page.servers.filter((s) => /^https?:/i.test(s));
  const where = `${target.origin}${target.pathname}`;
  if (declared.length === 0) throw new RelayError(403, "target_not_allowed", `the spec declares no absolute server URL for ${pagePath}; the relay calls nothing else`);
  if (hidesDotSegment(target.pathname)) {
    throw new RelayError(403, "target_not_allowed", `${where} hides a "." or ".." segment in percent-escapes or ";" parameters, which the API could resolve out of its server's path`);
  }
  const under = declared.map(compileServer).filter((server) => server !== undefined && underServer(target, server)) as ServerPattern[];
  if (under.length > 0) return under;
  throw new RelayError(403, "target_not_allowed", `${where} is not under a server declared for ${pagePath} (${declared.join(", ")})`);
}

/**
 * The server under which `target` is the page's own operation: the same method, and the path
 * below the server matching the operation's path template (`compileOperationPath`; the query is
 * the reader's to fill, so it is not compared). Without this, a page open to everyone carried a
 * request to any operation of its spec, a staff-only one included (adversary round 56, F1). The
 * refusal names only the request and this page's operation, so it reads the same whether the
 * path is another operation's, a restricted one's or nobody's.
 */
function operationServer(page: ApiPageInfo, method: string, target: URL, servers: readonly ServerPattern[]): ServerPattern {
  const operation = `${page.method.toUpperCase()} ${page.path}`;
  if (method !== page.method.toUpperCase()) {
    throw new RelayError(403, "not_page_operation", `the method ${method} is not the one of ${page.pagePath}'s operation (${operation}); the relay sends only the page's own operation`);
  }
  const template = compileOperationPath(page.path);
  const server = template === undefined ? undefined : servers.find((s) => {
          const below = pathBelow(target, s);
          return below !== undefined && template.test(below) && !readsAsAnother(page, method, below);
        });
  if (server !== undefined) return server;
  const below = servers[0] === undefined ? target.pathname : (pathBelow(target, servers[0]) ?? target.pathname);
  throw new RelayError(403, "not_page_operation", `the path ${below === "" ? "/" : below} is not the one of ${page.pagePath}'s operation (${operation}); the relay sends only the page's own operation`);
}

/**
 * Whether a path that matches the page's operation with an escaped slash in a `{param}` reads,
 * to an API that decodes escaped slashes before it routes (`slashReadings`), as another
 * operation of the page's spec with this method: such a path is refused as any other operation's
 * is, so that no page carries a call to another operation (row 181), whatever the API does with
 * `%2F`. Every operation of the spec counts, restricted ones too.
 */
function readsAsAnother(page: ApiPageInfo, method: string, below: string): boolean {
  const readings = slashReadings(below);
  if (readings.length === 0) return false;
  for (const other of page.specOperations ?? []) {
    if (other.method.toUpperCase() !== method || other.path === page.path) continue;
    const template = compileOperationPath(other.path);
    if (template !== undefined && readings.some((reading) => template.test(reading))) return true;
  }
  return false;
}

/** The relay's own body bound (1 MB) is for a pasted document: its values are not counted, its depth is (`LIMITS.clientJson`). */
const RELAY_JSON_BOUNDS = { maxDepth: LIMITS.clientJson.maxDepth, maxValues: Number.POSITIVE_INFINITY };

async function readInput(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) throw new RelayError(400, "invalid_request", "the body must be JSON (Content-Type: application/json)");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new RelayError(413, "request_too_large", `the request is over the relay's ${maxBytes}-byte limit`);
  const bytes = await readLimited(request, maxBytes);
  const decoded = decodeBody(bytes, type);
  if (!decoded.ok) {
    if (decoded.problem === "unsupported") throw new RelayError(415, "unsupported_media_type", unsupportedCharsetMessage(decoded.charset));
    throw new RelayError(400, "invalid_request", `the body is not valid ${decoded.encoding}`);
  }
  // Depth only: a pasted API document may hold many values; what walks the parsed body recurses.
  const complex = jsonComplexity(decoded.text, RELAY_JSON_BOUNDS);
  if (complex !== undefined) throw new RelayError(400, "invalid_request", `the body ${jsonComplexityMessage(complex)}`);
  try {
    return JSON.parse(decoded.text);
  } catch {
    throw new RelayError(400, "invalid_request", "the body is not valid JSON");
  }
}

function parseInput(raw: unknown): RelayRequest {
  const parsed = RelayRequest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue !== undefined && issue.path.length > 0 ? `"${issue.path.join(".")}": ` : "";
    throw new RelayError(400, "invalid_request", `${where}${issue?.message ?? "invalid request"}`);
  }
  return parsed.data;
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new RelayError(413, "request_too_large", `the request is over the relay's ${maxBytes}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function checkPlayground(page: ApiPageInfo, reader: Reader, authConfigured: boolean): void {
  if (playgroundVisible(page.playground, reader, authConfigured)) return;
  if (page.playground.display === "none") throw new RelayError(403, "playground_disabled", `the playground is turned off for ${page.pagePath}`);
  if (!reader.authenticated) throw new RelayError(401, "sign_in_required", `the playground of ${page.pagePath} is for signed-in readers`);
  throw new RelayError(403, "playground_forbidden", `the playground of ${page.pagePath} is limited to the groups ${(page.playground.groups ?? []).join(", ")}`);
}

function buildUrl(url: string, query: RelayRequest["query"]): URL {
  const u = new URL(url);
  for (const [k, v] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(v) ? v : [v]) u.searchParams.append(k, item);
  }
  return u;
}

interface SendOptions {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly lookup: LookupAll;
  /** Aborts when the caller has gone: the upstream request is destroyed at once. */
  readonly signal: AbortSignal | undefined;
}

const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|yaml|x-yaml|x-www-form-urlencoded|graphql)\b)/i;

/** The upstream request body and headers: a string as is (or base64-decoded), other JSON values as JSON. */
function outgoing(input: RelayRequest): { headers: Record<string, string>; payload: Buffer | undefined } {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.headers ?? {})) if (!HOP_BY_HOP.has(k.toLowerCase())) headers[k] = v;
  if (input.body === undefined || input.body === null || input.method === "GET" || input.method === "HEAD") return { headers, payload: undefined };
  let payload: Buffer;
  if (typeof input.body === "string") {
    payload = input.bodyEncoding === "base64" ? Buffer.from(input.body, "base64") : Buffer.from(input.body, "utf8");
  } else {
    let json: string;
    try {
      json = JSON.stringify(input.body);
    } catch {
      // JSON.parse reads any depth the size limit allows; JSON.stringify recurses and runs out of stack.
      throw new RelayError(400, "invalid_request", `"body": nested too deeply to send as JSON; send it as a string`);
    }
    payload = Buffer.from(json, "utf8");
    if (!Object.keys(headers).some((k) => k.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
  }
  headers["content-length"] = String(payload.byteLength);
  return { headers, payload };
}

/** Why an upstream call stopped when its caller went away (nobody reads the answer). */
const GONE_MESSAGE = "the client hung up; the upstream request was stopped";

/**
 * Send the request upstream: `answer` is the response, read whole (at most `maxResponseBytes`,
 * counted as it is read, and refused at once by a larger `Content-Length`) but not joined;
 * `closed` resolves once the upstream connection is closed, whatever happened.
 */
function sendUpstream(target: URL, input: RelayRequest, opts: SendOptions): { readonly answer: Promise<UpstreamAnswer>; readonly closed: Promise<void> } {
  const { headers, payload } = outgoing(input);
  if (opts.signal?.aborted === true) return { answer: Promise.reject(new RelayError(503, "client_gone", GONE_MESSAGE)), closed: DONE };
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  let closedNow: () => void = () => {};
  const closed = new Promise<void>((resolve) => (closedNow = resolve));
  const answer = new Promise<UpstreamAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (e: RelayError): void => {
      if (settled) return;
      settled = true;
      reject(e);
    };
    const req = request(target, {
      method: input.method,
      headers,
      // A connection of its own, closed with the answer: none is left open in a pool to an API a
      // reader named, and a call's end is its connection's.
      agent: false,
      // Every address is checked when the socket connects, not before: a name that resolved to
      // a public address a moment ago cannot switch to 127.0.0.1 in between (DNS rebinding).
      lookup: (hostname, options, callback) => {
        opts.lookup(hostname).then(
          (addresses) => {
            const all = (options as { all?: boolean }).all === true;
            if (all) (callback as unknown as (e: null, a: readonly LookupAddress[]) => void)(null, addresses);
            else {
              const first = addresses[0];
              if (first === undefined) callback(Object.assign(new Error(`${hostname}: no address`), { code: "ENOTFOUND" }), "", 4);
              else callback(null, first.address, first.family);
            }
          },
          (error: unknown) => {
            if (error instanceof RelayError) fail(error);
            callback(error as NodeJS.ErrnoException, "", 4);
            // The socket is destroyed before it had a file descriptor: nothing is left open
            // upstream, and the next call need not wait for the `close` event a turn later.
            closedNow();
          },
        );
      },
    });
    const stop = (error: RelayError): void => {
      fail(error);
      req.destroy();
    };
    const timer = setTimeout(() => stop(new RelayError(504, "upstream_timeout", `${target.host} did not answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    // The caller hung up (its connection closed, `notifications/cancelled`): stop downloading
    // for nobody. Node emits the request's `close` once its socket is closed.
    const gone = (): void => stop(new RelayError(503, "client_gone", GONE_MESSAGE));
    opts.signal?.addEventListener("abort", gone, { once: true });
    req.once("close", () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", gone);
      // Whatever ended it, an answer not given by now never will be.
      fail(new RelayError(502, "upstream_unreachable", `${target.host} closed the connection mid-response`));
      closedNow();
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      fail(new RelayError(502, "upstream_unreachable", `cannot reach ${target.host}: ${error.code ?? error.message}`));
    });
    const tooLarge = (): RelayError => new RelayError(502, "response_too_large", `the response of ${target.host} is over the relay's ${opts.maxResponseBytes}-byte limit`);
    req.on("response", (res: IncomingMessage) => {
      const declared = Number(res.headers["content-length"] ?? "0");
      // Announced larger than the limit: refused before a byte of it is read.
      if (declared > opts.maxResponseBytes) {
        stop(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let total = 0;
      res.on("data", (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > opts.maxResponseBytes) {
          stop(tooLarge());
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", () => fail(new RelayError(502, "upstream_unreachable", `${target.host} closed the connection mid-response`)));
      res.on("end", () => {
        clearTimeout(timer);
        // Read whole: the connection is closed now (it is this call's own), not when the API closes it.
        req.destroy();
        if (settled) return;
        settled = true;
        const contentType = res.headers["content-type"] ?? null;
        const kind = renderKind(contentType ?? undefined);
        const text = kind === "code" && (contentType === null || TEXTUAL.test(contentType));
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined || HOP_BY_HOP.has(k)) continue;
          out[k] = Array.isArray(v) ? v.join(", ") : v;
        }
        resolve({
          head: { status: res.statusCode ?? 502, statusText: res.statusMessage ?? "", headers: out, contentType, kind, encoding: text ? "utf8" : "base64" },
          chunks,
        });
      });
    });
    if (payload !== undefined) req.end(payload);
    else req.end();
  });
  return { answer, closed };
}
