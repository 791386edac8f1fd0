import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/paths.js";
import { Connection, startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { FS, mcpClient, tempDir } from "./harness.js";

/**
 * The shell pool's bounds of one caller under `serve --http --workers 2` (issue 25): the primary
 * counts each caller's commands for both workers, so what one caller may hold at once (8,
 * running and waiting) is the server's bound, refused past it with the same answer as one
 * process gives, whichever worker each call reaches; the places of a worker that dies are given
 * back. Before, each worker counted its own: 8 in each, 2 running in each.
 * test/shell/shared-places.test.ts shows the running bound (2 over both) step by step.
 *
 * Real processes, and the runaway: a refusal answers at once, a runaway held answers at
 * its work limit (seconds of CPU; two of the caller's run at a time), so the refusals are the
 * first answers, and each step below is taken once they are in (no sleep, no timing).
 */
// A loop of awk's that runs to the call's work limit. Not the jq runaway: a jq step costs
// ~0.8 us of CPU on a slow machine, so its 4 million steps took 3.3 s of the 5 s CPU limit alone
// and, on a loaded one, passed it first (a fresh clone on 2026-12-01 saw the CPU limit's message);
// awk's steps take ~0.3 us, so which limit answers does not depend on the machine.
const RUNAWAY = "awk 'BEGIN { while (1) i++ }'";
const LIMITED = "bash: awk: work limit reached (4000000 steps per call; a limit of the docs shell: do less in one call)\n[exit code 124]";
const REFUSED =
  "bash: too many commands of this client in the docs shell: at most 8 running or waiting at once per client (an address, an IPv6 /64 or a token); wait for their results, then send more\n[exit code 126]";
const CALLER = "192.0.2.7";
// Held runaways wait behind each other, two at a time: on a loaded machine longer than the SDK's
// 60 s request limit, so the vitest timeout is the only hang detector here.
const NO_LIMIT = 3_600_000;
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);

let state: ReturnType<typeof tempDir>;
let server: WorkersProcess;
const connections: Connection[] = [];

beforeAll(async () => {
  state = tempDir("svc-mcp-shell-workers-");
  // Behind a trusted proxy, the caller is the X-Forwarded-For address it sends.
  server = await startWorkers(["--dir", fixture("demo"), "--state", state.dir, "--project-id", "docs", "--workers", "2", "--trust-proxy", ...OFF]);
});

afterAll(async () => {
  for (const c of connections.splice(0)) c.close();
  if (server !== undefined) await stopProcess(server.child);
  state?.cleanup();
});

/** An MCP client (the SDK's) from `CALLER` whose every request goes over one connection that worker `pid` serves. */
async function clientVia(pid: number, pids: readonly number[]): Promise<Awaited<ReturnType<typeof mcpClient>>> {
  let c: Connection | undefined;
  // Each new connection goes to the worker holding the fewest (equals in turn); the others stay
  // open, so the counts only grow and `pid` is reached within the others' lead (a replacement
  // worker that serves with none against the survivor's dozen takes a dozen first). One whose
  // answer is its last (`Connection: close`: a worker over its share sheds it) is a miss too.
  for (let i = 0; i < 32 * pids.length && c === undefined; i++) {
    const next = new Connection(server.origin);
    connections.push(next);
    const answer = await next.get("/.well-known/mcp");
    if (answer.headers.connection !== "close" && next.owner(pids) === pid) c = next;
  }
  if (c === undefined) throw new Error(`no connection landed on worker ${pid}`);
  const over = c;
  const pinned: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    // The SDK's optional GET stream is not offered here: every answer comes on its POST.
    if ((init?.method ?? "GET") !== "POST") return new Response(null, { status: 405 });
    const headers = { ...Object.fromEntries(new Headers(init?.headers)), "x-forwarded-for": CALLER };
    const answer = await over.post(url.pathname, String(init?.body ?? ""), headers);
    const out = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) if (typeof value === "string") out.set(name, value);
    return new Response(answer.status === 202 || answer.status === 204 ? null : answer.body, { status: answer.status, headers: out });
  };
  return mcpClient(`${server.origin}/mcp`, { fetch: pinned });
}

/** Each call's answer as it arrives, in order: `next(n)` resolves once n have. */
function arrivals(calls: readonly Promise<string>[]): { readonly order: { index: number; text: string }[]; next: (n: number) => Promise<void> } {
  const order: { index: number; text: string }[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  calls.forEach((call, index) =>
    void call
      .catch((error: unknown) => `failed: ${(error as Error).message}`)
      .then((text) => {
        order.push({ index, text });
        for (const w of waiters.filter((w) => order.length >= w.n)) w.resolve();
      }),
  );
  return { order, next: (n) => (order.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))) };
}

// Three processes start, and runaways run to their work limit two at a time: on a loaded 2-core machine, minutes.
describe("the shell pool's places under serve --http --workers 2", () => {
  it("hold a caller to 8 commands over both workers, refused past it as one process refuses; a worker killed with SIGKILL gives its places back", async () => {
    const [a, b] = server.pids as [number, number];
    // Five clients of one caller through each worker, each sending one runaway, all at once.
    const first = [...(await Promise.all([0, 1, 2, 3, 4].map(() => clientVia(a, server.pids)))), ...(await Promise.all([0, 1, 2, 3, 4].map(() => clientVia(b, server.pids))))];
    const sent = arrivals(first.map((c) => c.text(FS, { command: RUNAWAY }, NO_LIMIT)));
    // Eight are held (two run), the other two refused: over both workers, as in one process.
    await sent.next(2);
    expect(sent.order.map((o) => o.text)).toEqual([REFUSED, REFUSED]);
    const heldByA = 5 - sent.order.filter((o) => o.index < 5).length;

    // Worker a dies with its places; the primary gives them back before it logs the exit.
    process.kill(a, "SIGKILL");
    await server.waitFor(new RegExp(`^svc-mcp: warning: worker process ${a} exited with signal SIGKILL; starting another$`));
    // Through b, the caller may now hold what it held through a: one more is refused.
    const more = await Promise.all(Array.from({ length: heldByA + 1 }, () => clientVia(b, [b])));
    const again = arrivals(more.map((c) => c.text(FS, { command: RUNAWAY }, NO_LIMIT)));
    await again.next(1);
    expect(again.order.map((o) => o.text)).toEqual([REFUSED]);

    // Every held runaway through b ends at its work limit; those through a ended with it.
    await again.next(more.length);
    await sent.next(first.length);
    expect(again.order.map((o) => o.text).sort()).toEqual([...Array.from({ length: heldByA }, () => LIMITED), REFUSED].sort());
    const byWorker = (from: number, to: number): string[] =>
      sent.order
        .filter((o) => o.index >= from && o.index < to)
        .map((o) => (o.text.startsWith("failed: ") ? "lost with its worker" : o.text))
        .sort();
    const heldByB = 8 - heldByA;
    expect(byWorker(5, 10)).toEqual([...Array.from({ length: heldByB }, () => LIMITED), ...Array.from({ length: 5 - heldByB }, () => REFUSED)].sort());
    expect(byWorker(0, 5).filter((t) => t !== REFUSED)).toEqual(Array.from({ length: heldByA }, () => "lost with its worker"));
    await Promise.all([...first, ...more].map((c) => c.close().catch(() => {})));
  });
});
