import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { DocsMcpServer } from "../../mcp/server.js";
import { OwnerLru } from "./owner-lru.js";
import type { SessionCalls } from "./session-calls.js";

/** Which endpoint a session was opened on: a session never crosses from one to the other. */
export type Endpoint = "mcp" | "authed";

/** One MCP session: a transport and a server, bound to the endpoint and principal that opened it. */
export interface Session {
  readonly id: string;
  readonly endpoint: Endpoint;
  readonly principal: string;
  /** Whose bound it counts against: the caller's address (`/mcp`) or the token's principal. */
  readonly owner: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: DocsMcpServer;
  lastSeen: number;
  /** Open GET (SSE) streams: a session listening for notifications is not idle. */
  openStreams: number;
  /** Its tool calls the bridge answers itself, running (`SessionToolCalls`): stopped with the session. */
  readonly calls: SessionCalls;
}

/** How many sessions may be open: on each endpoint, and per caller on it (`LIMITS.bridge`). */
export interface SessionBounds {
  readonly maxSessions: number;
  readonly maxSessionsPerCaller: number;
  readonly idleMs: number;
  readonly now: () => number;
}

/** Why the table closed a session on its own: pushed out by its bounds, or unused for `idleMs`. */
export type ClosedBy = "evicted" | "idle";

/**
 * Open sessions, bounded in number and idle time (`LIMITS.bridge`). Each endpoint has its own
 * table, so anonymous callers on `/mcp` never push out a signed-in reader's `/authed/mcp`
 * session; within one, a caller (an address, a token's principal) past its own bound loses its
 * own oldest session, and a full table loses the oldest session of the caller holding the most
 * (`OwnerLru`). Closing a session closes its transport, which ends its server and its
 * subscription to site changes. `closedBy` is told of each session it closes on its own (to end
 * it on the other workers too: `SharedSessions`).
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private readonly tables: Readonly<Record<Endpoint, OwnerLru<Session>>>;

  constructor(
    private readonly options: SessionBounds,
    private readonly closedBy: (id: string, why: ClosedBy) => void = () => {},
  ) {
    const table = () =>
      new OwnerLru<Session>({ max: options.maxSessions, maxPerOwner: options.maxSessionsPerCaller }, (id) => {
        void this.close(id);
        closedBy(id, "evicted");
      });
    this.tables = { mcp: table(), authed: table() };
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    const s = this.sessions.get(id);
    if (s === undefined) return undefined;
    this.tables[s.endpoint].touch(s.owner, id);
    s.lastSeen = this.options.now();
    return s;
  }

  /** The open session `id`, without counting the look as its use. */
  peek(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
    this.tables[session.endpoint].add(session.owner, session.id, session);
  }

  /** Forget a session (its transport closed on its own, e.g. after DELETE). */
  forget(id: string): void {
    const s = this.sessions.get(id);
    if (s === undefined) return;
    this.sessions.delete(id);
    this.tables[s.endpoint].delete(s.owner, id);
  }

  async close(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (s === undefined) return;
    this.forget(id);
    await closeSession(s);
  }

  /** Close sessions idle longer than the limit (not those with a notification stream open). */
  async sweep(): Promise<number> {
    const cutoff = this.options.now() - this.options.idleMs;
    const idle = [...this.sessions.values()].filter((s) => s.lastSeen < cutoff && s.openStreams === 0);
    await Promise.all(idle.map((s) => this.close(s.id)));
    for (const s of idle) this.closedBy(s.id, "idle");
    return idle.length;
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.keys()];
    await Promise.all(all.map((id) => this.close(id)));
  }
}

async function closeSession(s: Session): Promise<void> {
  s.server.close();
  try {
    await s.server.server.close();
  } catch {
    // Already closed: nothing left to release.
  }
}
