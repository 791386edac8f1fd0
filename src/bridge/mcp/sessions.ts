import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { DocsMcpServer } from "../../tools/mcp/server.js";

/** Which endpoint a session was opened on: a session never crosses from one to the other. */
export type Endpoint = "mcp" | "authed";

/** One MCP session: a transport and a server, bound to the endpoint and principal that opened it. */
export interface Session {
  readonly id: string;
  readonly endpoint: Endpoint;
  readonly principal: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: DocsMcpServer;
  lastSeen: number;
  /** Open GET (SSE) streams: a session listening for notifications is not idle. */
  openStreams: number;
}

/**
 * Open sessions, bounded in number and idle time (`LIMITS.bridge`). Closing a session closes
 * its transport, which ends its server and its subscription to site changes.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly options: { readonly maxSessions: number; readonly idleMs: number; readonly now: () => number },
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    const s = this.sessions.get(id);
    if (s === undefined) return undefined;
    // Most recently used last: the first entry is the one to evict.
    this.sessions.delete(id);
    this.sessions.set(id, s);
    s.lastSeen = this.options.now();
    return s;
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
    while (this.sessions.size > this.options.maxSessions) {
      const oldest = this.sessions.values().next().value;
      if (oldest === undefined) break;
      void this.close(oldest.id);
    }
  }

  /** Forget a session (its transport closed on its own, e.g. after DELETE). */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  async close(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (s === undefined) return;
    this.sessions.delete(id);
    await closeSession(s);
  }

  /** Close sessions idle longer than the limit (not those with a notification stream open). */
  async sweep(): Promise<number> {
    const cutoff = this.options.now() - this.options.idleMs;
    const idle = [...this.sessions.values()].filter((s) => s.lastSeen < cutoff && s.openStreams === 0);
    await Promise.all(idle.map((s) => this.close(s.id)));
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
