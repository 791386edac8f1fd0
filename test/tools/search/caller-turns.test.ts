import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { CallerTurns } from "../../../src/engine/search/caller-turns.js";
import { searchDocs } from "../../../src/engine/use-cases/search-docs.js";
import { ANONYMOUS } from "../../../src/vfs/access.js";
import { requestContext } from "../../../src/vfs/request-context.js";
import { fixture } from "../../helpers/paths.js";

/** The order in which turns of `turns` start and end, as callers take them. */
function journal(turns: CallerTurns): { readonly events: string[]; run: (caller: string | undefined, name: string, gate: Promise<void>) => Promise<void> } {
  const events: string[] = [];
  return {
    events,
    run: async (caller, name, gate) => {
      const end = await turns.take(caller);
      events.push(`${name} runs`);
      await gate;
      events.push(`${name} ends`);
      end();
    },
  };
}

describe("search turns per caller", () => {
  it("a caller's searches run one at a time, in order; another caller's does not wait for them", async () => {
    const turns = new CallerTurns();
    const { events, run } = journal(turns);
    let releaseFirst!: () => void;
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    const a1 = run("a", "a1", first);
    const a2 = run("a", "a2", Promise.resolve());
    const b1 = run("b", "b1", Promise.resolve());
    await b1;
    expect(events).toEqual(["a1 runs", "b1 runs", "b1 ends"]);
    expect(turns.busyCallers).toBe(1);
    releaseFirst();
    await Promise.all([a1, a2]);
    expect(events).toEqual(["a1 runs", "b1 runs", "b1 ends", "a1 ends", "a2 runs", "a2 ends"]);
    expect(turns.busyCallers).toBe(0);
  });

  it("callers without an identity (stdio, in process) are never queued, and ending a turn twice frees one place", async () => {
    const turns = new CallerTurns();
    const ends = await Promise.all([turns.take(undefined), turns.take(undefined)]);
    expect(turns.busyCallers).toBe(0);
    const end = await turns.take("a");
    end();
    end();
    expect(turns.busyCallers).toBe(0);
    for (const e of ends) e();
  });

  describe("through the search use case", () => {
    let runtime: DocsRuntime;
    beforeAll(async () => {
      runtime = await DocsRuntime.load({ root: fixture("demo"), baseUrl: "https://docs.nimbus.example" });
    });
    afterAll(async () => {
      await runtime.close();
    });

    it("a search whose caller gave up before its turn is not run, and says so", async () => {
      const request = requestContext(ANONYMOUS, "public", Date.now, "203.0.113.7");
      const given = new AbortController();
      given.abort();
      expect(await searchDocs({ runtime, request, signal: given.signal }, { query: "install" })).toEqual({
        ok: false,
        issues: [{ message: "the call was given up before its search ran" }],
      });
      const answered = await searchDocs({ runtime, request, signal: new AbortController().signal }, { query: "install" });
      expect(answered.ok && answered.value.length > 0).toBe(true);
      expect(runtime.searchTurns.busyCallers).toBe(0);
    });
  });
});
