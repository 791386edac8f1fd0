import type { LookupAddress } from "node:dns";
import { request as httpsRequest } from "node:https";
import { isIP, type Socket } from "node:net";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { LIMITS } from "../../limits.js";
import { isLocalHost, specialAddress } from "../middleware/address-policy.js";
import type { LookupAll } from "../playground/relay.js";
import { resolverLookup } from "./resolver-lookup.js";

/**
 * Fetching a client metadata document (CIMD) without becoming a way into the network we sit in
 * (SSRF): https only; every address the name resolves to must be a global unicast address
 * (the relay's policy, `address-policy.ts`), checked when the socket connects so a name cannot
 * rebind to 127.0.0.1 between a check and the connection; redirects are refused, not followed;
 * the answer must be JSON and small; the whole exchange has a deadline.
 */

/**
 * Opens the TLS connection to an address that passed the policy. Production: `tls.connect`
 * with the system's trust store. Tests pass one that reaches their local server with its own
 * certificate: the network is the one boundary we do not own, and no option a person can set
 * changes the trust or the address policy.
 */
export type Dial = (target: { readonly address: string; readonly family: number; readonly port: number; readonly servername: string }) => TLSSocket;

export interface DocumentFetchOptions {
  /** DNS (by default the DNS servers asked directly, never on Node's I/O threads: `resolverLookup`). */
  readonly lookup?: LookupAll;
  readonly dial?: Dial;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /** `User-Agent` of the request (`svc-mcp/<version>`). */
  readonly userAgent: string;
}

/** A document as fetched: its text, and how long its answer allows it to be reused (undefined: it does not say). */
export interface FetchedDocument {
  readonly text: string;
  readonly freshForMs: number | undefined;
}

/** Why a document could not be had, in words for the tool's developer. */
export class DocumentFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DocumentFetchError";
  }
}

export type DocumentFetcher = (url: URL) => Promise<FetchedDocument>;

const defaultDial: Dial = ({ address, port, servername }) => tlsConnect({ host: address, port, servername, ALPNProtocols: ["http/1.1"] });

/** JSON, or a more specific JSON type (`application/<something>+json`), as the draft allows. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** A fetcher of client metadata documents under the rules above. */
export function documentFetcher(options: DocumentFetchOptions): DocumentFetcher {
  const timeoutMs = options.timeoutMs ?? LIMITS.oauth.metadataDocumentTimeoutMs;
  const lookup = options.lookup ?? resolverLookup(timeoutMs);
  const dial = options.dial ?? defaultDial;
  const maxBytes = options.maxBytes ?? LIMITS.oauth.maxMetadataDocumentBytes;
  return async (url) => {
    if (url.protocol !== "https:") throw new DocumentFetchError(`it is not an https URL`);
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const literal = isIP(hostname) !== 0 ? specialAddress(hostname) : isLocalHost(hostname) ? "a local name" : undefined;
    if (literal !== undefined) throw new DocumentFetchError(`${url.hostname} is ${literal}; documents are fetched only from public addresses`);
    const port = url.port === "" ? 443 : Number(url.port);
    const connect = async (signal: AbortSignal): Promise<TLSSocket> => {
      const addresses = await resolve(lookup, hostname);
      if (addresses.length === 0) throw new DocumentFetchError(`${hostname} has no address`);
      // One address after another: a host with an IPv6 address we cannot route to (or one that
      // is down) is still reached on the next, as a browser would.
      let last: NodeJS.ErrnoException | undefined;
      for (const a of addresses) {
        if (signal.aborted) break;
        try {
          return await opened(dial({ address: a.address, family: a.family, port, servername: hostname }), signal);
        } catch (error) {
          last = error as NodeJS.ErrnoException;
        }
      }
      throw new DocumentFetchError(`cannot reach ${url.host} (${last?.code ?? last?.message ?? "aborted"})`);
    };
    return get(url, connect, { timeoutMs, maxBytes, userAgent: options.userAgent });
  };
}

/** The socket once its TLS handshake is done (the certificate checked); destroyed on error or abort. */
function opened(socket: TLSSocket, signal: AbortSignal): Promise<TLSSocket> {
  return new Promise((resolveSocket, reject) => {
    const abort = (): void => {
      socket.destroy();
      reject(new Error("aborted"));
    };
    signal.addEventListener("abort", abort, { once: true });
    socket.once("secureConnect", () => {
      signal.removeEventListener("abort", abort);
      resolveSocket(socket);
    });
    socket.once("error", (error) => {
      signal.removeEventListener("abort", abort);
      socket.destroy();
      reject(error);
    });
  });
}

/** Every address of `hostname`, refused whole if any one is not a public address. */
async function resolve(lookup: LookupAll, hostname: string): Promise<readonly LookupAddress[]> {
  if (isIP(hostname) !== 0) return [{ address: hostname, family: isIP(hostname) }];
  // Anyone may name a client_id URL, so the answer must not map the server's network: what an
  // internal name resolves to, or even whether it exists, reads the same as a private address.
  const refused = new DocumentFetchError(`${hostname} does not resolve to a public address; documents are fetched only from public addresses`);
  let addresses: readonly LookupAddress[];
  try {
    addresses = await lookup(hostname);
  } catch {
    throw refused;
  }
  if (addresses.length === 0 || addresses.some((a) => specialAddress(a.address) !== undefined)) throw refused;
  return addresses;
}

interface GetOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly userAgent: string;
}

/** One GET over a connection `connect` opens (after its checks), under a deadline and a size cap. */
function get(url: URL, connect: (signal: AbortSignal) => Promise<TLSSocket>, opts: GetOptions): Promise<FetchedDocument> {
  return new Promise<FetchedDocument>((resolvePromise, reject) => {
    const deadline = new AbortController();
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (error: DocumentFetchError): void => settle(() => reject(error));
    const req = httpsRequest(url, {
      method: "GET",
      // Without an agent Node would take 80 as the default port (and say so in `Host`).
      defaultPort: 443,
      headers: { Accept: "application/json", "User-Agent": opts.userAgent },
      // Our own connection, so the address is the one checked: Node calls this instead of
      // resolving the name itself (no agent, no pooling: one request per document).
      createConnection: (_options: unknown, created: (error: Error | null, socket?: Socket) => void) => {
        connect(deadline.signal).then(
          (socket) => created(null, socket),
          (error: unknown) => created(error instanceof Error ? error : new Error(String(error))),
        );
        return undefined;
      },
    } as Parameters<typeof httpsRequest>[1]);
    const timer = setTimeout(() => {
      fail(new DocumentFetchError(`${url.host} did not answer within ${opts.timeoutMs} ms`));
      deadline.abort();
      req.destroy();
    }, opts.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => {
      fail(error instanceof DocumentFetchError ? error : new DocumentFetchError(`cannot reach ${url.host} (${error.code ?? error.message})`));
    });
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      const refuse = (message: string): void => {
        fail(new DocumentFetchError(message));
        res.destroy();
        req.destroy();
      };
      if (status >= 300 && status < 400) {
        const to = res.headers.location;
        return refuse(`it answered ${status} (a redirect${to === undefined ? "" : ` to ${to}`}); redirects are not followed`);
      }
      if (status !== 200) return refuse(`it answered ${status}, not 200`);
      const type = res.headers["content-type"] ?? "";
      if (!JSON_TYPE.test(type)) return refuse(`its Content-Type is ${type === "" ? "missing" : `"${type}"`}, not application/json`);
      const declared = Number(res.headers["content-length"] ?? "0");
      if (declared > opts.maxBytes) return refuse(`it is ${declared} bytes; at most ${opts.maxBytes} are read`);
      const chunks: Buffer[] = [];
      let total = 0;
      res.on("data", (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > opts.maxBytes) return refuse(`it is over ${opts.maxBytes} bytes; at most ${opts.maxBytes} are read`);
        chunks.push(chunk);
        return undefined;
      });
      res.on("error", () => fail(new DocumentFetchError(`${url.host} closed the connection mid-answer`)));
      res.on("end", () => {
        const text = new TextDecoder("utf-8", { fatal: true });
        try {
          const body = text.decode(Buffer.concat(chunks));
          settle(() => resolvePromise({ text: body, freshForMs: freshness(res.headers) }));
        } catch {
          fail(new DocumentFetchError("it is not UTF-8 text"));
        }
      });
      return undefined;
    });
    req.end();
  });
}

/**
 * How long an answer may be reused (RFC 9111 5.2, 4.2.1): `no-store` and `no-cache` mean not at
 * all (we never revalidate), then `max-age` less `Age`, then `Expires` less `Date`; undefined
 * when the answer says nothing. Bounds are the cache's business.
 */
export function freshness(headers: Readonly<Record<string, string | string[] | undefined>>): number | undefined {
  const header = (name: string): string | undefined => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(", ") : v;
  };
  const directives = new Map<string, string>();
  for (const part of (header("cache-control") ?? "").split(",")) {
    const [name, value] = part.trim().split("=", 2);
    if (name !== undefined && name !== "") directives.set(name.toLowerCase(), (value ?? "").replace(/^"|"$/g, ""));
  }
  if (directives.has("no-store") || directives.has("no-cache")) return 0;
  const age = Number(header("age") ?? "0");
  const maxAge = directives.get("max-age");
  if (maxAge !== undefined && /^\d+$/.test(maxAge)) return Math.max(0, (Number(maxAge) - (Number.isFinite(age) ? age : 0)) * 1000);
  const expires = header("expires");
  if (expires !== undefined) {
    const at = Date.parse(expires);
    const date = Date.parse(header("date") ?? "");
    // An invalid Expires (often "0") means already expired (RFC 9111 5.3). Without a Date to
    // measure it from, it says nothing we can use.
    if (Number.isNaN(at)) return 0;
    if (!Number.isNaN(date)) return Math.max(0, at - date);
  }
  return undefined;
}
