import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { CallerTurns } from "../../../src/engine/search/caller-turns.js";
import { searchDocs } from "../../../src/engine/use-cases/search-docs.js";
import { ANONYMOUS } from "../../../src/vfs/access.js";
import { requestContext } from "../../../src/vfs/request-context.js";
import { fixture } from "../../helpers/paths.js";

/** The order in which turns of `turns` start and end, as callers take them. */
function journal(turns: CallerTurns): { readonly events: string[]; run: (caller: string | undefined, name: string, gate: Promise<void>, signal?: AbortSignal, runs?: () => void) => Promise<void> } {
  const events: string[] = [];
  return {
    events,
    run: async (caller, name, gate, signal, runs) => {
      const end = await turns.take(caller, signal);
      if (end === undefined) {
        events.push(`${name} given up`);
        return;
      }
      events.push(`${name} runs`);
      runs?.();
      await gate;
      events.push(`${name} ends`);
      end();
    },
  };
}

describe("search turns per caller", () => {
  it("searches run one at a time; a caller's in order, taking turns with other callers", async () => {
    const turns = new CallerTurns();
    const { events, run } = journal(turns);
    let releaseFirst!: () => void;
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    let a1Runs!: () => void;
    const running = new Promise<void>((resolve) => (a1Runs = resolve));
    const a1 = run("a", "a1", first, undefined, a1Runs);
    const a2 = run("a", "a2", Promise.resolve());
    const b1 = run("b", "b1", Promise.resolve());
    await running;
    expect(events).toEqual(["a1 runs"]);
    expect(turns.busyCallers).toBe(2);
    releaseFirst();
    await Promise.all([a1, a2, b1]);
    // b1 was ready before a2 (a2 waited behind a1, its own caller's): b1 goes first.
    expect(events).toEqual(["a1 runs", "a1 ends", "b1 runs", "b1 ends", "a2 runs", "a2 ends"]);
    expect(turns.busyCallers).toBe(0);
  });

  it("a search given up while it waits leaves at once, and never runs; its caller's next takes its place", async () => {
    const turns = new CallerTurns();
    const { events, run } = journal(turns);
    const hold = (await turns.take("x")) as () => void;
    const told: string[] = [];
    turns.observe((e) => told.push(`${e.t} ${e.caller ?? "-"}`));
    const gaveUp = new AbortController();
    const a1 = run("a", "a1", Promise.resolve(), gaveUp.signal);
    const a2 = run("a", "a2", Promise.resolve());
    gaveUp.abort();
    await a1;
    expect(events).toEqual(["a1 given up"]);
    hold();
    await a2;
    expect(events).toEqual(["a1 given up", "a2 runs", "a2 ends"]);
    expect(told).toEqual(["queued a", "queued a", "given-up a", "run a"]);
    // Given up before it asked: nothing queued.
    const before = new AbortController();
    before.abort();
    expect(await turns.take("a", before.signal)).toBeUndefined();
    expect(turns.busyCallers).toBe(0);
  });

  it("callers without an identity (stdio, in process) are never queued behind each other's, and ending a turn twice frees one place", async () => {
    const turns = new CallerTurns();
    const [one, two] = [turns.take(undefined), turns.take(undefined)];
    expect(turns.busyCallers).toBe(0);
    const end = (await one) as () => void;
    end();
    end();
    ((await two) as () => void)();
    const a = (await turns.take("a")) as () => void;
    a();
    a();
    expect(turns.busyCallers).toBe(0);
  });

  it("whenIdle waits for the searches queued before it to end, and for no later one not yet queued", async () => {
    const turns = new CallerTurns();
    const { events, run } = journal(turns);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const search = run(undefined, "s1", gate);
    const idle = turns.whenIdle().then(() => events.push("idle"));
    // Turns of the event loop pass while the search holds its turn: the waiter waits.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(["s1 runs"]);
    release();
    await Promise.all([search, idle]);
    expect(events).toEqual(["s1 runs", "s1 ends", "idle"]);
    // With no search at all it goes at the next turn.
    await turns.whenIdle();
  });

  it("a caller whose searches made less work goes before those whose made more; equal ones take turns in order", async () => {
    const turns = new CallerTurns();
    const order: string[] = [];
    const search = async (caller: string, work: number): Promise<void> => {
      const end = (await turns.take(caller)) as (work?: number) => void;
      order.push(caller);
      end(work);
    };
    // Three callers each made one search of 1,000 units of work (an unfiltered search of a large site).
    for (const caller of ["a", "b", "c"]) await search(caller, 1_000);
    const hold = (await turns.take("x")) as (work?: number) => void;
    order.length = 0;
    // Their next searches are ready first; then one of a caller who has searched little.
    const queued = [search("a", 1_000), search("b", 1_000), search("c", 1_000), search("v", 3), search("w", 3)];
    hold(1);
    await Promise.all(queued);
    // Taking turns one per caller, v and w went last: after a, b and c.
    expect(order).toEqual(["v", "w", "a", "b", "c"]);
  });

  it("a search passed over by 16 that became ready after it goes next, however much its caller searched", async () => {
    const turns = new CallerTurns();
    const order: string[] = [];
    const search = async (caller: string, work: number): Promise<void> => {
      const end = (await turns.take(caller)) as (work?: number) => void;
      order.push(caller);
      end(work);
    };
    await search("heavy", 1_000_000);
    const hold = (await turns.take("x")) as (work?: number) => void;
    order.length = 0;
    const light = Array.from({ length: 20 }, (_, k) => `l${k + 1}`);
    const queued = [search("heavy", 1_000_000), ...light.map((caller) => search(caller, 1))];
    hold(1);
    await Promise.all(queued);
    expect(order).toEqual([...light.slice(0, 16), "heavy", ...light.slice(16)]);
  });

  it("a caller never seen is charged the mean of those seen: a fresh address per heavy search does not go before a light caller", async () => {
    const turns = new CallerTurns();
    const order: string[] = [];
    const search = async (caller: string, work: number): Promise<void> => {
      const end = (await turns.take(caller)) as (work?: number) => void;
      order.push(caller);
      end(work);
    };
    for (const caller of ["h1", "h2", "h3"]) await search(caller, 1_000);
    await search("v", 3);
    const hold = (await turns.take("x")) as (work?: number) => void;
    order.length = 0;
    // Never seen before: charged (3,000 + 3 + 1) / 5, not 0, so v (3) goes before it.
    const queued = [search("fresh", 1_000), search("v", 3)];
    hold(1);
    await Promise.all(queued);
    expect(order).toEqual(["v", "fresh"]);
  });

  it("when no caller has a charge, the search expected to make the least work goes first; equal ones in order", async () => {
    const turns = new CallerTurns();
    const order: string[] = [];
    const search = async (caller: string, expected: number): Promise<void> => {
      const end = (await turns.take(caller, undefined, expected)) as (work?: number) => void;
      order.push(caller);
      end(expected);
    };
    const hold = (await turns.take(undefined)) as (work?: number) => void;
    // Ten callers never seen, each an unfiltered search of a large site; then another's filtered one.
    const heavy = Array.from({ length: 10 }, (_, k) => `h${k + 1}`);
    const queued = [...heavy.map((caller) => search(caller, 20_000)), search("cheap", 60)];
    hold(1);
    await Promise.all(queued);
    // By charge alone (all nothing, then all the mean) they went in the order they came: cheap last.
    expect(order).toEqual(["cheap", ...heavy]);
  });

  it("weighed by what it is expected to make, a fresh address's heavy search still goes after a light caller's, and a heavy search passed over by 16 goes next", async () => {
    const turns = new CallerTurns();
    const order: string[] = [];
    const search = async (caller: string, expected: number, work = expected): Promise<void> => {
      const end = (await turns.take(caller, undefined, expected)) as (work?: number) => void;
      order.push(caller);
      end(work);
    };
    for (const caller of ["f1", "f2", "f3"]) await search(caller, 20_000);
    await search("v", 60);
    let hold = (await turns.take("x")) as (work?: number) => void;
    order.length = 0;
    // Never seen: the mean (~15,000) plus 20,000, against v's 60 plus 60.
    let queued = [search("fresh", 20_000), search("v", 60)];
    hold(1);
    await Promise.all(queued);
    expect(order).toEqual(["v", "fresh"]);
    hold = (await turns.take("x")) as (work?: number) => void;
    order.length = 0;
    const light = Array.from({ length: 20 }, (_, k) => `l${k + 1}`);
    queued = [search("heavy", 1_000_000), ...light.map((caller) => search(caller, 1))];
    hold(1);
    await Promise.all(queued);
    expect(order).toEqual([...light.slice(0, 16), "heavy", ...light.slice(16)]);
  });

  it("a fresh address of a network that has searched is charged the network's work: a flood sent one search per address goes after a regular reader", async () => {
    const turns = new CallerTurns();
    const order: string[] = [];
    const search = async (caller: string, expected: number, work: number): Promise<void> => {
      const end = (await turns.take(caller, undefined, expected)) as (work?: number) => void;
      order.push(caller);
      end(work);
    };
    // A reader who searches regularly (ten unfiltered searches of a large site), and a flood that
    // sends each search from an address never seen before, all of one /24 (loopback counts too).
    const reader = "address:127.0.0.2";
    for (let k = 0; k < 10; k++) await search(reader, 15_532, 20_000);
    const fresh = Array.from({ length: 40 }, (_, k) => `address:127.1.0.${k + 1}`);
    for (const caller of fresh.slice(0, 20)) await search(caller, 0, 25_000);
    const hold = (await turns.take("address:192.0.2.1")) as (work?: number) => void;
    order.length = 0;
    // Twenty more fresh addresses' searches queued, then the reader's.
    const queued = [...fresh.slice(20).map((caller) => search(caller, 0, 25_000)), search(reader, 15_532, 20_000)];
    hold(1);
    await Promise.all(queued);
    // Charged by address alone each fresh one was never seen (the mean of callers seen, far under
    // the reader's own), and the reader went last, after all twenty.
    expect(order).toEqual([reader, ...fresh.slice(20)]);
  });

  it("callers without an address (tokens) share no network, and an address's network is its /24 or /48", async () => {
    const turns = new CallerTurns();
    const order: string[] = [];
    const search = async (caller: string, work: number): Promise<void> => {
      const end = (await turns.take(caller)) as (work?: number) => void;
      order.push(caller);
      end(work);
    };
    await search("token:alice", 1_000);
    await search("address:2001:db8:1:1::/64", 1_000);
    await search("address:198.51.100.1", 1_000);
    await search("address:198.51.100.9", 3);
    await search("token:bob", 3);
    const hold = (await turns.take("address:192.0.2.1")) as (work?: number) => void;
    order.length = 0;
    // Of the same /48, of the same /24: charged 1,000 as their networks made; bob only what he made.
    const queued = [search("address:2001:db8:1:2::/64", 1), search("address:198.51.100.9", 1), search("token:bob", 1), search("address:2001:db8:2:1::/64", 1)];
    hold(1);
    await Promise.all(queued);
    // The /48 never seen is charged the mean of the five parties (two tokens, two networks, the
    // holder's): (1,000 × 3 + 3 + 3 + 1) / 5, over bob's 3 and under the 1,000s.
    expect(order).toEqual(["token:bob", "address:2001:db8:2:1::/64", "address:2001:db8:1:2::/64", "address:198.51.100.9"]);
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

    it("charges a caller's search the work it made: after one that ranked pages, a caller whose search matched none goes first", async () => {
      const context = (caller: string) => ({ runtime, request: requestContext(ANONYMOUS, "public", Date.now, caller), signal: new AbortController().signal });
      // A question matching most pages of the site, then one matching none (no work).
      expect((await searchDocs(context("198.51.100.1"), { query: "install storage bucket configure api" })).ok).toBe(true);
      expect((await searchDocs(context("198.51.100.2"), { query: "zzqxw" })).ok).toBe(true);
      const order: string[] = [];
      const stop = runtime.searchTurns.observe((e) => {
        if (e.t === "run") order.push(e.caller ?? "-");
      });
      const hold = (await runtime.searchTurns.take("198.51.100.9")) as (work?: number) => void;
      const queued = [searchDocs(context("198.51.100.1"), { query: "bucket storage install" }), searchDocs(context("198.51.100.2"), { query: "qqzzxw" })];
      hold(1);
      await Promise.all(queued);
      stop();
      expect(order).toEqual(["198.51.100.9", "198.51.100.2", "198.51.100.1"]);
    });
  });

  describe("through the search use case, on a versioned site in two languages", () => {
    let root: string;
    let runtime: DocsRuntime;
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), "caller-turns-"));
      const topics = ["orders", "payments", "shipping", "taxes", "returns", "stores"];
      const languages = ["en", "fr"].map((language) => ({
        language,
        versions: ["v3", "v2", "v1"].map((version, at) => ({
          version,
          ...(at === 0 ? { default: true } : {}),
          groups: [{ group: "Guides", pages: topics.map((topic) => `${language}/${version}/${topic}`) }],
        })),
      }));
      const write = (path: string, text: string): void => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      write("docs.json", JSON.stringify({ $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Store", colors: { primary: "#0D9373" }, navigation: { languages } }));
      for (const { language, versions } of languages) {
        for (const { version } of versions) {
          for (const topic of topics) {
            // Every page holds the common words; one page of one version holds "refund".
            const extra = topic === "returns" && version === "v1" ? "\n\n## Refunds\n\nA refund goes back to the card the order was paid with.\n" : "";
            write(`${language}/${version}/${topic}.mdx`, `---\ntitle: ${topic}\n---\n\nConfigure the store's ${topic}: orders, payments, shipping and checkout settings for every channel.${extra}`);
          }
        }
      }
      runtime = await DocsRuntime.load({ root, baseUrl: "https://docs.store.example" });
      await runtime.whenIndexed();
    });
    afterAll(async () => {
      await runtime.close();
      rmSync(root, { recursive: true, force: true });
    });

    it("ten callers' unfiltered searches queued, then another's cheap filtered one: the cheap one runs first", async () => {
      const context = (caller: string) => ({ runtime, request: requestContext(ANONYMOUS, "public", Date.now, caller), signal: new AbortController().signal });
      const names = new Map<string, string>([["192.0.2.99", "cheap"], ["192.0.2.1", "hold"]]);
      for (let k = 1; k <= 10; k++) names.set(`203.0.113.${k}`, `h${k}`);
      const order: string[] = [];
      const stop = runtime.searchTurns.observe((e) => {
        if (e.t === "run") order.push(names.get(e.caller ?? "-") ?? e.caller ?? "-");
      });
      const hold = (await runtime.searchTurns.take("192.0.2.1")) as (work?: number) => void;
      // Nobody has searched: every caller's charge is nothing.
      const queued = [
        ...Array.from({ length: 10 }, (_, k) => searchDocs(context(`203.0.113.${k + 1}`), { query: `checkout settings orders payments shipping ${k}`, pageSize: 50 })),
        searchDocs(context("192.0.2.99"), { query: "refund", pageSize: 3, version: "v1", language: "en" }),
      ];
      hold(1);
      const answers = await Promise.all(queued);
      stop();
      expect(order).toEqual(["hold", "cheap", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10"]);
      const cheap = answers[10];
      expect(cheap?.ok === true ? cheap.value.map((r) => r.path) : cheap).toEqual(["/en/v1/returns"]);
      expect(runtime.expectedSearchWork({ query: "refund", version: "v1", language: "en" })).toBeLessThan(runtime.expectedSearchWork({ query: "checkout settings orders payments shipping 0" }));
    });

    it("a query of misspellings is expected the work its typo forms make, not 0: a flood of them from fresh addresses of one network goes after a cheap filtered search", async () => {
      const context = (caller: string) => ({ runtime, request: requestContext(ANONYMOUS, "public", Date.now, caller), signal: new AbortController().signal });
      const typos = (k: number): string => `cofigure ordrs paymnts shiping chekout${"s".repeat(k)}`;
      // No page holds any of its terms: counted by exact terms alone it was expected 0.
      expect(runtime.expectedSearchWork({ query: typos(0) })).toBeGreaterThan(runtime.expectedSearchWork({ query: "refund", version: "v1", language: "en" }));
      const names = new Map<string, string>([["address:192.0.2.99", "cheap"], ["address:192.0.2.1", "hold"]]);
      for (let k = 1; k <= 10; k++) names.set(`address:203.0.113.${k + 20}`, `t${k}`);
      const order: string[] = [];
      const stop = runtime.searchTurns.observe((e) => {
        if (e.t === "run") order.push(names.get(e.caller ?? "-") ?? e.caller ?? "-");
      });
      const hold = (await runtime.searchTurns.take("address:192.0.2.1")) as (work?: number) => void;
      // Neither network has searched: each caller is charged the same mean.
      const queued = [
        ...Array.from({ length: 10 }, (_, k) => searchDocs(context(`address:203.0.113.${k + 21}`), { query: typos(k + 1), pageSize: 50 })),
        searchDocs(context("address:192.0.2.99"), { query: "refund", pageSize: 3, version: "v1", language: "en" }),
      ];
      hold(1);
      await Promise.all(queued);
      stop();
      expect(order).toEqual(["hold", "cheap", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10"]);
    });
  });
});
