import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { RefusalLog } from "../../src/mcp/refusal-log.js";

/** Issue 25: a flood of bad stdin lines wrote one stderr line per line; now a few per episode and counts. */
describe("RefusalLog", () => {
  it("logs the first refusals of an episode, counts the rest, reminds of the count, and opens a new episode after a quiet time", () => {
    const lines: string[] = [];
    let t = 0;
    const log = new RefusalLog((l) => lines.push(l), () => t);
    for (let k = 1; k <= 1000; k++) log.refused(`bad ${k}`);
    t += LIMITS.mcp.refusalReminderMs - 1;
    log.refused("bad 1001");
    t += 1;
    log.refused("bad 1002");
    log.refused("bad 1003");
    t += LIMITS.mcp.refusalQuietMs;
    log.refused("bad again");
    log.close();
    log.close();
    expect(lines).toEqual([
      "bad 1",
      "bad 2",
      "bad 3",
      "bad 4",
      "bad 5 (later refused lines are counted, not logged, until none for 60 s)",
      "MCP: 997 more lines refused, not logged (1002 in this episode)",
      "MCP: 1 more lines refused, not logged (1003 in this episode)",
      "bad again",
    ]);
  });
});
