import type { Server } from "@modelcontextprotocol/server";
import { LIMITS } from "../../limits.js";
import type { DocsRuntime } from "../../engine/runtime.js";
import type { Site } from "../../vfs/site.js";
import { type RequestContext, visibilityKey } from "../../vfs/request-context.js";
import type { Endpoint } from "./sessions.js";

/**
 * Servers for 2026-07-28 requests, used again once their request is answered. The SDK's
 * handler asks a factory for a server per request, connects it to a one-exchange transport
 * and closes it after the answer; building one (its handler tables, closures and maps) per call
 * cost more in allocation and garbage collection than the rest of the protocol work (bench
 * `protocol`). A closed server is as good as new: every request brings its own context
 * (`authInfo`), the SDK sets the revision and the client's identity from the request's `_meta`
 * each time, and its per-exchange state is cleared on close. What a server holds from its
 * making is the site's and its reader's: the instructions (written from the reader's outline)
 * and the endpoint's extensions. So servers are kept per endpoint and reader key (auth setting
 * and groups), and dropped when the site changes. The SDK refuses a server that is still
 * connected, and one is returned here only from its `onclose`, when its transport is gone.
 */
export class ServerPool {
  private site: Site | undefined;
  private idle = new Map<string, Server[]>();

  constructor(
    private readonly runtime: DocsRuntime,
    private readonly create: (endpoint: Endpoint, context: RequestContext) => Server,
  ) {}

  acquire(endpoint: Endpoint, context: RequestContext): Server {
    const site = this.runtime.site;
    if (site !== this.site) {
      this.site = site;
      this.idle = new Map();
    }
    const key = `${endpoint}|${visibilityKey(context)}`;
    const reused = this.idle.get(key)?.pop();
    if (reused !== undefined) return reused;
    const server = this.create(endpoint, context);
    // The SDK chains its own close handling in front of this and restores it after each exchange.
    server.onclose = () => this.release(key, site, server);
    return server;
  }

  /** Idle servers, all readers together (tests). */
  get size(): number {
    let n = 0;
    for (const list of this.idle.values()) n += list.length;
    return n;
  }

  private release(key: string, site: Site, server: Server): void {
    // Made for an earlier snapshot of the site: its instructions may no longer be true.
    if (site !== this.site) return;
    let list = this.idle.get(key);
    if (list === undefined) {
      if (this.idle.size >= LIMITS.bridge.pooledReaders) return;
      list = [];
      this.idle.set(key, list);
    }
    if (list.length < LIMITS.bridge.pooledServersPerReader) list.push(server);
  }
}
