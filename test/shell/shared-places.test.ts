/**
 * Two shell pools counting their callers' places together (`serve --http --workers N`: each worker
 * process has a pool, the primary counts for all; issue 25): a caller's bounds are the server's.
 * Here the two pools of two workers live in one process and reach one `ShellPlaceLedger` by
 * plain calls where workers use their IPC channel, so every step is asserted by the pools' own
 * events, never by time. test/bridge/shell-places-workers.test.ts runs real worker processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ShellPlaceLedger } from "../../src/engine/shell/place-ledger.js";
import type { PoolEvent } from "../../src/engine/shell/pool-events.js";
import { RemoteShellPlaces, type ShellPlaceRequest } from "../../src/engine/shell/shared-places.js";
import { ShellHost } from "../../src/engine/shell/shell-host.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";
import { PoolRecorder } from "../helpers/pool-events.js";

/** Synchronous code that only a cancellation stops (loops bounded by an hour, steps by 1e15). */
const RUNAWAY = "awk 'BEGIN { for (i = 0; i < 1e12; i++) s += i; print s }'";
const RUNAWAY_LIMITS = { ...LIMITS.shell, maxExecutionMs: 3_600_000, maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15 };
const POOL = { workers: 4, maxHeldPerCaller: 3, maxRunningPerCaller: 2, limits: RUNAWAY_LIMITS, maxCpuMs: 3_600_000 };
const HI = { stdout: "hi\n", stderr: "", exitCode: 0, truncated: false };
const CANCELLED = { stdout: "", stderr: "bash: cancelled by the client\n", exitCode: 130, truncated: false };
/** The refusal of a lone pool (test/bridge/shell-pool.test.ts), word for word. */
const REFUSED = {
  stdout: "",
  stderr: "bash: too many commands of this client in the docs shell: at most 3 running or waiting at once per client (an address, an IPv6 /64 or a token); wait for their results, then send more\n",
  exitCode: 126,
  truncated: false,
};

let runtime: DocsRuntime;

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo") });
});

afterAll(async () => {
  await runtime?.close();
});

/** Pools 1 and 2 (the worker ids the primary counts by), their shells, and one ordered log of both pools' calls. */
function twoPools(primaryGone = false) {
  const remotes = new Map<number, RemoteShellPlaces>();
  const ledger = new ShellPlaceLedger(
    (owner, news) => remotes.get(owner)?.elsewhere(news),
    // As the primary does (serve-workers.ts): to every other worker.
    (from, news) => {
      for (const [owner, remote] of remotes) if (owner !== from) remote.standing(news);
    },
  );
  const ask = async (owner: number, m: ShellPlaceRequest): Promise<unknown> => {
    if (primaryGone) throw new Error("the primary process is gone");
    return ledger.answer(owner, m);
  };
  const log: string[] = [];
  const pools = [1, 2].map((owner) => {
    const rec = new PoolRecorder();
    const onEvent = (e: PoolEvent): void => {
      rec.onEvent(e);
      if (e.t === "queued" || e.t === "start" || e.t === "end" || e.t === "refused") log.push(`pool ${owner}: ${rec.lines([e.t]).at(-1)?.replace(/ on worker \d+$/, "")}`);
    };
    const host = new ShellHost({ ...POOL, onEvent });
    const remote = new RemoteShellPlaces((m) => ask(owner, m));
    remotes.set(owner, remote);
    host.shareCallerPlaces(remote);
    return { host, rec, shell: host.shellFor(runtime.site, runtime.readerState(localContext()).view) };
  });
  return { ledger, log, pools: pools as [(typeof pools)[0], (typeof pools)[0]] };
}

describe("two pools counting together", () => {
  it("hold a caller to 2 running over both: its third waits in the other pool while another caller's command runs there, and starts when one of its two ends; its fourth is refused as a lone pool refuses", async () => {
    const { ledger, log, pools } = twoPools();
    const [one, two] = pools;
    try {
      const aborts = [new AbortController(), new AbortController()];
      const runaways = aborts.map((a) => one.shell.run(RUNAWAY, "x", a.signal));
      await one.rec.next(() => one.rec.events.filter((e) => e.t === "start").length === 2);
      const third = two.shell.run("echo hi", "x");
      await two.rec.next((e) => e.t === "queued");
      // Another caller's command takes a worker of pool 2 while x's waits there.
      expect(await two.shell.run("echo hi", "y")).toEqual(HI);
      expect(await two.shell.run("echo hi", "x")).toEqual(REFUSED);
      expect([ledger.held("x"), ledger.running("x")]).toEqual([3, 2]);
      aborts[0]?.abort();
      expect(await third).toEqual(HI);
      aborts[1]?.abort();
      expect(await Promise.all(runaways)).toEqual([CANCELLED, CANCELLED]);
      await one.rec.next(() => one.rec.events.filter((e) => e.t === "stopped").length === 2);
      expect([ledger.held("x"), ledger.running("x"), ledger.held("y")]).toEqual([0, 0, 0]);
      expect(log).toEqual([
        "pool 1: call 1 queued by x",
        "pool 1: call 2 queued by x",
        "pool 1: call 1 started",
        "pool 1: call 2 started",
        "pool 2: call 1 queued by x",
        "pool 2: call 2 queued by y",
        "pool 2: call 2 started",
        "pool 2: call 2 ended: result",
        "pool 2: refused x (limit 3)",
        "pool 1: call 1 ended: cancelled",
        "pool 2: call 1 started",
        "pool 2: call 1 ended: result",
        "pool 1: call 2 ended: cancelled",
      ]);
    } finally {
      await Promise.all(pools.map((p) => p.host.close()));
    }
  });

  it("share a caller's standing: x, heavy in pool 1 (it gave up a running command), is heavy in pool 2, and waits there for the workers kept for callers with nothing running, where a new caller is served", async () => {
    const { log, pools } = twoPools();
    const [one, two] = pools;
    try {
      const given = new AbortController();
      const gaveUp = one.shell.run(RUNAWAY, "x", given.signal);
      await one.rec.next((e) => e.t === "start");
      given.abort();
      expect(await gaveUp).toEqual(CANCELLED);
      // Pool 2 (4 workers, 2 kept for callers with nothing running): y runs its two.
      const aborts = [new AbortController(), new AbortController()];
      const runaways = aborts.map((a) => two.shell.run(RUNAWAY, "y", a.signal));
      await two.rec.next(() => two.rec.events.filter((e) => e.t === "start").length === 2);
      // Heavy, x must leave 2 workers free: it waits. z, new, may take one of them.
      const waiting = two.shell.run("echo hi", "x");
      await two.rec.next((e) => e.t === "queued" && e.caller === "x");
      expect(await two.shell.run("echo hi", "z")).toEqual(HI);
      aborts[0]?.abort();
      expect(await waiting).toEqual(HI);
      aborts[1]?.abort();
      expect(await Promise.all(runaways)).toEqual([CANCELLED, CANCELLED]);
      // Before, x was new in pool 2 (standing was each pool's own) and started at once.
      expect(log.filter((line) => line.startsWith("pool 2"))).toEqual([
        "pool 2: call 1 queued by y",
        "pool 2: call 2 queued by y",
        "pool 2: call 1 started",
        "pool 2: call 2 started",
        "pool 2: call 3 queued by x",
        "pool 2: call 4 queued by z",
        "pool 2: call 4 started",
        "pool 2: call 4 ended: result",
        "pool 2: call 1 ended: cancelled",
        "pool 2: call 3 started",
        "pool 2: call 3 ended: result",
        "pool 2: call 2 ended: cancelled",
      ]);
    } finally {
      await Promise.all(pools.map((p) => p.host.close()));
    }
  });

  it("give a dead worker's places back: the primary forgets pool 1's two, and x's command waiting in pool 2 starts", async () => {
    const { ledger, log, pools } = twoPools();
    const [one, two] = pools;
    try {
      const runaways = [one.shell.run(RUNAWAY, "x"), one.shell.run(RUNAWAY, "x")];
      await one.rec.next(() => one.rec.events.filter((e) => e.t === "start").length === 2);
      const waiting = two.shell.run("echo hi", "x");
      await two.rec.next((e) => e.t === "queued");
      // What the primary does when a worker process exits (serve-workers.ts).
      ledger.forget(1);
      expect(await waiting).toEqual(HI);
      expect([ledger.held("x"), ledger.running("x")]).toEqual([0, 0]);
      expect(log.filter((line) => line.startsWith("pool 2"))).toEqual(["pool 2: call 1 queued by x", "pool 2: call 1 started", "pool 2: call 1 ended: result"]);
      await one.host.close();
      expect(await Promise.all(runaways)).toEqual([0, 1].map(() => ({ stdout: "", stderr: "bash: the docs shell was shut down\n", exitCode: 1, truncated: false })));
      // Asks of a forgotten worker take nothing (one still on its way as it died).
      expect(() => ledger.answer(1, { op: "hold", caller: "x", maxHeld: 3 })).toThrow("the worker process is gone");
    } finally {
      await Promise.all(pools.map((p) => p.host.close()));
    }
  });

  it("fall back to each pool's own bounds when the primary is gone: every ask fails, and a pool runs a caller's two and holds its third as a lone pool does", async () => {
    const { log, pools } = twoPools(true);
    const [one] = pools;
    try {
      const aborts = [new AbortController(), new AbortController()];
      const runaways = aborts.map((a) => one.shell.run(RUNAWAY, "x", a.signal));
      await one.rec.next(() => one.rec.events.filter((e) => e.t === "start").length === 2);
      const third = one.shell.run("echo hi", "x");
      await one.rec.next((e) => e.t === "queued" && e.call === 3);
      expect(await one.shell.run("echo hi", "x")).toEqual(REFUSED);
      aborts[0]?.abort();
      expect(await third).toEqual(HI);
      aborts[1]?.abort();
      expect(await Promise.all(runaways)).toEqual([CANCELLED, CANCELLED]);
      expect(log).toEqual([
        "pool 1: call 1 queued by x",
        "pool 1: call 2 queued by x",
        "pool 1: call 1 started",
        "pool 1: call 2 started",
        "pool 1: call 3 queued by x",
        "pool 1: refused x (limit 3)",
        "pool 1: call 1 ended: cancelled",
        "pool 1: call 3 started",
        "pool 1: call 3 ended: result",
        "pool 1: call 2 ended: cancelled",
      ]);
    } finally {
      await Promise.all(pools.map((p) => p.host.close()));
    }
  });
});

describe("a primary that answers late", () => {
  it("is not waited for past the backstop (the command is counted by its pool alone), and a place it grants after that is given back at once", async () => {
    const ledger = new ShellPlaceLedger(() => {});
    let answer!: () => void;
    const silent = new Promise<void>((resolve) => (answer = resolve));
    let released!: (id: number) => void;
    const release = new Promise<number>((resolve) => (released = resolve));
    const remote = new RemoteShellPlaces(async (m) => {
      if (m.op === "hold") await silent;
      const reply = ledger.answer(1, m);
      if (m.op === "release") released(m.id);
      return reply;
    }, 0);
    expect(await remote.hold("x", 3)).toEqual({ t: "unanswered" });
    answer();
    expect(await release).toBe(1);
    expect(ledger.held("x")).toBe(0);
  });
});
