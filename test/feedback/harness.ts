import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createFeedbackApp } from "../../src/bridge/feedback/app.js";
import type { NewFeedback } from "../../src/store/feedback/model.js";
import { openFeedbackStore, type SqliteFeedbackStore } from "../../src/store/feedback/sqlite-store.js";
import { openKeyStore, type SqliteKeyStore } from "../../src/store/keys/key-store.js";

/** A fresh temp state folder. */
export function tempState(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-feedback-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A settable clock (milliseconds since the epoch). */
export function testClock(start: number): { now: () => number; set: (ms: number) => void } {
  let t = start;
  return { now: () => t, set: (ms) => void (t = ms) };
}

export interface FeedbackServer {
  readonly url: string;
  readonly stateDir: string;
  readonly store: SqliteFeedbackStore;
  readonly keys: SqliteKeyStore;
  /** An admin key valid on this server. */
  readonly adminKey: string;
  /** fetch relative to the server, with the admin key unless `auth: false` or headers override. */
  readonly api: (path: string, init?: RequestInit & { auth?: boolean }) => Promise<Response>;
  readonly close: () => Promise<void>;
}

/**
 * The feedback app on a real socket (127.0.0.1, port 0) over real SQLite files in `stateDir`
 * (a fresh temp folder unless given).
 */
export async function startFeedbackServer(options: { projects?: string[]; clock?: () => number; stateDir?: string } = {}): Promise<FeedbackServer> {
  const temp = options.stateDir === undefined ? tempState() : undefined;
  const stateDir = options.stateDir ?? temp!.dir;
  const store = openFeedbackStore(stateDir);
  const keys = openKeyStore(stateDir);
  const { key: adminKey } = await keys.create("tests", Date.now());
  const app = createFeedbackApp({
    store,
    keys,
    projects: new Set(options.projects ?? ["docs"]),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    stateDir,
    store,
    keys,
    adminKey,
    api: (path, init = {}) => {
      const { auth = true, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (auth && !headers.has("authorization")) headers.set("authorization", `Bearer ${adminKey}`);
      return fetch(`${url}${path}`, { ...rest, headers });
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await keys.close();
      temp?.cleanup();
    },
  };
}

/** POST JSON to an ingestion endpoint. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** A stored entry for seeding (`agent` source unless overridden). */
export function entry(over: Partial<NewFeedback> & { createdAt: number }): NewFeedback {
  return { projectId: "docs", source: "agent", path: "/page", comment: "text", ...over } as NewFeedback;
}

export const ms = (iso: string): number => Date.parse(iso);
