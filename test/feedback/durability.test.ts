import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { openKeyStore } from "../../src/store/keys/key-store.js";
import { fixture } from "../helpers/paths.js";
import { startServe } from "../helpers/serve-http.js";
import { postJson, tempState } from "./harness.js";

const children: ChildProcess[] = [];

/** Start `svc-mcp serve --http` (project "docs") in its own process; resolves with its URL. */
async function startProcess(stateDir: string): Promise<{ child: ChildProcess; url: string }> {
  const server = await startServe(["--dir", fixture("demo"), "--state", stateDir, "--project-id", "docs"]);
  children.push(server.child);
  return { child: server.child, url: server.origin };
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  const [code, signal] = (await exited) as [number | null, string | null];
  expect([code, signal]).toEqual([null, "SIGKILL"]);
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

describe("durability: a 2xx means the entry survives kill -9", () => {
  it("every entry acknowledged before the kill is there after a restart", async () => {
    const state = tempState();
    try {
      const keys = openKeyStore(state.dir);
      const { key } = await keys.create("durability", Date.now());
      await keys.close();

      const first = await startProcess(state.dir);
      // One acknowledged entry, then a burst still in flight when the process dies.
      const res = await postJson(`${first.url}/v1/feedback/docs/contextual`, { path: "/quickstart", helpful: false, comment: "first", contact: "a@b.co" });
      expect(res.status).toBe(201);
      const acknowledged = [await res.json()];
      const burst = Array.from({ length: 40 }, (_, i) =>
        postJson(`${first.url}/v1/feedback/docs/rating`, { path: "/quickstart", helpful: i % 2 === 0 }).then(
          async (r) => (r.status === 201 ? acknowledged.push(await r.json()) : undefined),
          () => undefined,
        ),
      );
      // Kill as soon as the first of the burst is acknowledged.
      await Promise.race(burst);
      await kill9(first.child);
      await Promise.all(burst);
      expect(acknowledged.length).toBeGreaterThan(1);

      const second = await startProcess(state.dir);
      const page = await (await fetch(`${second.url}/v1/analytics/docs/feedback?limit=100`, { headers: { authorization: `Bearer ${key}` } })).json();
      const stored = new Map(page.feedback.map((e: { id: string }) => [e.id, e]));
      for (const e of acknowledged) expect(stored.get(e.id)).toEqual(e);
      await kill9(second.child);
    } finally {
      state.cleanup();
    }
  });
});
