import { spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { probeEnv, probeRound, probeTotals } from "../../bench/loop-probe.js";

/**
 * bench/loop-probe.mjs preloaded into a process (as wrk-ab --probe loads it into the servers):
 * a thread held for 150 ms is one blocking event past 100 ms, and a young collection is counted
 * as a scavenge; what it wrote on SIGUSR2 reads back as one round.
 */
describe("the loop probe", () => {
  it("counts a held thread as a blocking event and a young collection as a scavenge", async () => {
    const probe = probeEnv();
    try {
      // Up (the probe loaded: SIGUSR2 is its), then told to, it holds the thread, collects the
      // young generation, and says so once the probe's timer has run after it.
      const script = [
        "console.log('up');",
        "process.stdin.once('data', () => {",
        "  const end = performance.now() + 150; while (performance.now() < end);",
        "  globalThis.gc({ type: 'minor' });",
        "  setTimeout(() => console.log('held'), 50);",
        "});",
      ].join("\n");
      const child = spawn(process.execPath, ["--expose-gc", probe.nodeOption, "-e", script], { env: { ...process.env, ...probe.env }, stdio: ["pipe", "pipe", "inherit"] });
      try {
        const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
        expect((await lines.next()).value).toBe("up");
        const before = await probeTotals(probe.dir, [child.pid as number]);
        child.stdin!.write("hold\n");
        expect((await lines.next()).value).toBe("held");
        const [round] = probeRound(before, await probeTotals(probe.dir, [child.pid as number]));
        expect(round?.pid).toBe(child.pid);
        const [over20, over50, over100] = round!.blocked;
        expect(over100).toBeGreaterThanOrEqual(1);
        expect(over50).toBeGreaterThanOrEqual(over100);
        expect(over20).toBeGreaterThanOrEqual(over50);
        // The held thread was on a core or waiting for one, not asleep, for most of the event.
        expect(round!.blockedRunMs + round!.blockedRunnableMs).toBeGreaterThan(round!.blockedAsleepMs);
        expect(round!.gc.scavenge?.n).toBeGreaterThanOrEqual(1);
      } finally {
        child.kill("SIGKILL");
        await once(child, "exit");
      }
    } finally {
      rmSync(probe.dir, { recursive: true, force: true });
    }
  });
});
