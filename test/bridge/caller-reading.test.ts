import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { CallerReading } from "../../src/bridge/caller-reading.js";

/**
 * `CallerReading` (issue 25): a caller's connections are read `limit` at a time, the rest wait
 * accepted and unread. What must hold, whatever happens in whatever order: no connection waits
 * while its caller has a place free, and every connection is read or closed (never left paused).
 * The sockets here are emitters standing in for accepted, paused sockets: `read` is what the
 * server does to start reading one, `close` what Node emits after an end, an error, a timeout or
 * a destroy.
 */
class FakeSocket extends EventEmitter {
  read = 0;
  closed = false;
  constructor(readonly name: string) {
    super();
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit("close");
  }
}

const as = (s: FakeSocket): Socket => s as unknown as Socket;
const turns = (n: number): Promise<void> => (n === 0 ? Promise.resolve() : new Promise((done) => setImmediate(() => void turns(n - 1).then(done))));

function reader(limit: number, maxWaitMs = 60_000): { reading: CallerReading; order: string[] } {
  const order: string[] = [];
  const reading = new CallerReading(
    limit,
    (socket) => {
      const s = socket as unknown as FakeSocket;
      s.read++;
      order.push(s.name);
    },
    maxWaitMs,
  );
  return { reading, order };
}

describe("connections read per caller", () => {
  it("a caller's connections past the bound wait in order; each answer reads the next; another caller is read at once", () => {
    const { reading, order } = reader(2);
    const a = ["a1", "a2", "a3", "a4"].map((n) => new FakeSocket(n));
    for (const s of a) reading.admit(as(s), "A");
    for (const s of a.slice(0, 2)) reading.requested(as(s));
    const b = new FakeSocket("b1");
    reading.admit(as(b), "B");
    expect({ order: [...order], places: reading.placesOf("A"), waiting: reading.waitingOf("A") }).toEqual({ order: ["a1", "a2", "b1"], places: 2, waiting: 2 });
    reading.answered(as(a[1]!));
    reading.answered(as(a[1]!)); // twice: nothing more
    expect(order).toEqual(["a1", "a2", "b1", "a3"]);
    // Each read exactly once.
    expect([...a, b].map((s) => s.read)).toEqual([1, 1, 1, 0, 1]);
  });

  it("every way a connection ends gives its place back: an answer, a close (end, error, timeout, destroy), an event stream's head, silence", async () => {
    const { reading, order } = reader(1);
    const s = ["s1", "s2", "s3", "s4", "s5"].map((n) => new FakeSocket(n));
    for (const x of s) reading.admit(as(x), "A");
    reading.requested(as(s[0]!));
    expect(order).toEqual(["s1"]);
    // Its answer ends.
    reading.answered(as(s[0]!));
    expect(order).toEqual(["s1", "s2"]);
    // Closed before answered (a client's reset, our timeout, a destroy).
    reading.requested(as(s[1]!));
    s[1]!.close();
    expect(order).toEqual(["s1", "s2", "s3"]);
    // An event stream's head (`answered` at writeHead), then its close later: one give-back.
    reading.requested(as(s[2]!));
    reading.answered(as(s[2]!));
    expect(order).toEqual(["s1", "s2", "s3", "s4"]);
    // No request two turns after it was read: its place goes to the next.
    await turns(3);
    expect(order).toEqual(["s1", "s2", "s3", "s4", "s5"]);
    // s5 is silent too: no place is held.
    await turns(3);
    expect(reading.placesOf("A")).toBe(0);
    // Its request comes later: it holds a place again, past the bound, and gives it back when answered.
    reading.requested(as(s[3]!));
    expect(reading.placesOf("A")).toBe(1);
    reading.requested(as(s[4]!));
    expect(reading.placesOf("A")).toBe(2);
    for (const x of s) reading.answered(as(x));
    expect({ places: reading.placesOf("A"), waiting: reading.waitingOf("A") }).toEqual({ places: 0, waiting: 0 });
  });

  it("a connection that closes while it waits leaves the queue, never read; a kept-alive connection's next request is read at once", () => {
    const { reading, order } = reader(1);
    const [k, w1, w2] = ["k", "w1", "w2"].map((n) => new FakeSocket(n));
    reading.admit(as(k!), "A");
    reading.admit(as(w1!), "A");
    reading.admit(as(w2!), "A");
    reading.requested(as(k!));
    w1!.close();
    expect(reading.waitingOf("A")).toBe(1);
    reading.answered(as(k!));
    expect(order).toEqual(["k", "w2"]);
    expect(w1!.read).toBe(0);
    // k is kept alive: its next request holds a place again (it was never paused again).
    reading.requested(as(k!));
    expect(reading.placesOf("A")).toBe(2);
  });

  it("a connection waits unread at most its deadline, whatever its caller holds", async () => {
    const { reading, order } = reader(1, 5);
    const [held, late] = ["held", "late"].map((n) => new FakeSocket(n));
    reading.admit(as(held!), "A");
    reading.requested(as(held!));
    const read = new Promise<void>((done) => {
      const check = (): void => (late!.read > 0 ? done() : void setImmediate(check));
      check();
    });
    reading.admit(as(late!), "A");
    await read;
    expect({ order, waiting: reading.waitingOf("A") }).toEqual({ order: ["held", "late"], waiting: 0 });
  });

  it("in any order of events, no connection waits while its caller has a place free, and every one is read or closed at the end", () => {
    // A seeded generator: the same sequence every run.
    let seed = 25;
    const rand = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const { reading } = reader(1 + rand(3));
      const sockets: { s: FakeSocket; caller: string }[] = [];
      for (let step = 0; step < 60; step++) {
        const op = rand(5);
        if (op === 0 || sockets.length === 0) {
          const caller = `c${rand(3)}`;
          const s = new FakeSocket(`${round}.${step}`);
          sockets.push({ s, caller });
          reading.admit(as(s), caller);
        } else {
          const { s } = sockets[rand(sockets.length)]!;
          if (op === 1 && s.read > 0) reading.requested(as(s));
          else if (op === 2) reading.answered(as(s));
          else if (op === 3) s.close();
          else if (s.read > 0) {
            reading.requested(as(s));
            reading.answered(as(s));
          }
        }
        for (const caller of ["c0", "c1", "c2"]) {
          if (reading.waitingOf(caller) > 0) expect(reading.placesOf(caller)).toBeGreaterThanOrEqual(reading.limit);
        }
        expect(sockets.every(({ s }) => s.read <= 1)).toBe(true);
      }
      // Every connection answered or closed: none is left waiting, no place is held.
      for (const { s } of sockets) {
        if (s.read > 0) reading.answered(as(s));
      }
      for (const { s } of sockets) {
        if (s.read > 0) reading.answered(as(s));
        else s.close();
      }
      for (const { s } of sockets) s.close();
      expect(["c0", "c1", "c2"].map((c) => [reading.waitingOf(c), reading.placesOf(c)])).toEqual([
        [0, 0],
        [0, 0],
        [0, 0],
      ]);
    }
  });
});
