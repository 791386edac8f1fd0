import { once } from "node:events";
import { cpSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { MediaTurnLedger } from "../../src/bridge/web/preview/shared-media-turns.js";
import { socketOwner } from "../helpers/socket-owner.js";
import { startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { DEMO, tempDir } from "./harness.js";

/**
 * A caller's media transfers under `serve --http --workers 2` (adversary round 39, F1): its 64
 * sent or waiting (`LIMITS.preview.maxMediaHeldPerCaller`) are the server's, queued by the
 * primary, not each worker's (before, a caller held 64 in each). Real processes, raw sockets
 * that never read their answers, so each transfer holds its turn; behind `--trust-proxy` (where a
 * caller's connections are not read 8 at a time) the caller is its `X-Forwarded-For`.
 */
const OFF = ["ip", "search", "filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
/** Larger than loopback's socket buffers take, so a transfer nobody reads stays unfinished. */
const CLIP = Buffer.alloc(24 * 1024 * 1024, 7);
const HELD = LIMITS.preview.maxMediaHeldPerCaller;

let site: ReturnType<typeof tempDir>;
let state: ReturnType<typeof tempDir>;
let server: WorkersProcess;
const sockets: Socket[] = [];

beforeAll(async () => {
  site = tempDir("svc-mcp-media-site-");
  cpSync(DEMO, site.dir, { recursive: true });
  writeFileSync(join(site.dir, "clip.mp4"), CLIP);
  state = tempDir("svc-mcp-media-state-");
  server = await startWorkers(["--dir", site.dir, "--state", state.dir, "--project-id", "docs", "--workers", "2", "--trust-proxy", ...OFF]);
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  if (server !== undefined) await stopProcess(server.child);
  state?.cleanup();
  site?.cleanup();
});

/** What a connection was answered: its status line, and a refusal's body (a transfer's is never read). */
interface Heard {
  readonly status: string;
  readonly body: string;
}

/**
 * A request for the clip as `caller` on a connection of its own, which reads only the answer's
 * head (and a refusal's short body), never a transfer's: `heard` is called with it. Resolves with
 * the worker serving it, once that worker holds the connection.
 */
async function ask(caller: string, heard: (h: Heard) => void): Promise<number | undefined> {
  const socket = connect({ port: server.port, host: "127.0.0.1" });
  sockets.push(socket);
  let text = "";
  socket.setEncoding("latin1");
  const onData = (d: string): void => {
    text += d;
    const end = text.indexOf("\r\n\r\n");
    if (end < 0) return;
    const status = text.slice(0, text.indexOf("\r\n"));
    const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
    if (status !== "HTTP/1.1 429 Too Many Requests") {
      // A transfer: its head is all we read; the rest stays unread, holding its turn.
      socket.off("data", onData);
      socket.pause();
      return heard({ status, body: "" });
    }
    if (text.length < end + 4 + length) return;
    socket.off("data", onData);
    heard({ status, body: text.slice(end + 4, end + 4 + length) });
  };
  socket.on("data", onData);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.write(`GET /clip.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${caller}\r\n\r\n`);
  // Handed to a worker by the primary: found in /proc once it holds the connection.
  let owner: number | undefined;
  while (owner === undefined && !socket.destroyed) {
    owner = socketOwner(socket, server.pids);
    if (owner === undefined) await new Promise((resolve) => setImmediate(resolve));
  }
  return owner;
}

const REFUSED: Heard = {
  status: "HTTP/1.1 429 Too Many Requests",
  body: JSON.stringify({
    error: { code: "too_many_media", message: "too many media requests of this client: at most 64 sent or waiting at once per client (an address, an IPv6 /64 or a token); wait for them to finish, then ask again" },
  }),
};

describe("media transfers under serve --http --workers 2 (adversary round 39, F1)", () => {
  it("a caller's 6 sending and 64 held are the server's: of 66 unread requests over both workers, 6 are sent, 58 wait and 2 are refused; another caller is sent its own", async () => {
    // None of them ever ends (nothing is read), so what the caller holds only grows: whatever
    // order the workers take them in, exactly 6 are sent and 2 refused (before: 6 sent in each
    // worker and none refused, 33 a worker). Waited for as they are heard.
    const heard: Heard[] = [];
    let told: () => void = () => {};
    const enough = new Promise<void>((resolve) => (told = resolve));
    const note = (h: Heard): void => {
      heard.push(h);
      if (heard.filter((x) => x.status === "HTTP/1.1 200 OK").length >= 6 && heard.filter((x) => x.status === REFUSED.status).length >= 2) told();
    };
    const owners = new Set<number | undefined>();
    for (let i = 0; i < HELD + 2; i++) owners.add(await ask("198.51.100.7", note));
    // Spread over both workers (each new connection goes to the one holding fewer): neither holds 64 of its own.
    expect(owners.size).toBe(2);
    await enough;
    const sent = heard.filter((h) => h.status === "HTTP/1.1 200 OK");
    const refused = heard.filter((h) => h.status !== "HTTP/1.1 200 OK");
    expect([sent.length, refused]).toEqual([6, [REFUSED, REFUSED]]);
    // Another caller's first is sent.
    const other = await new Promise<Heard>((resolve) => void ask("198.51.100.8", resolve));
    expect(other).toEqual({ status: "HTTP/1.1 200 OK", body: "" });
  });

  it("a worker killed while its caller's tickets wait in the primary is replaced, and the server goes on (adversary round 41, F1)", async () => {
    // After the test above, the caller's 58 waiting tickets are spread over both workers. The
    // primary answers the killed worker's tickets gone as it forgets them: written to a channel
    // that had closed, with no callback and no `error` listener, that ended the primary (and
    // the other worker with it): every caller refused.
    const victim = server.pids[0] as number;
    const replaced = server.waitFor(/^svc-mcp: worker process (\d+) is serving$/);
    const exited = once(server.child, "exit").then(() => Promise.reject(new Error(`the primary exited:\n${server.lines.join("\n")}`)));
    // (Its exit at the end of the file, once the test passed, is no failure.)
    exited.catch(() => undefined);
    process.kill(victim, "SIGKILL");
    await Promise.race([replaced, exited]);
    const answer = await fetch(`${server.origin}/clip.mp4`, { headers: { "X-Forwarded-For": "198.51.100.9" } });
    await answer.body?.cancel();
    expect([answer.status, server.child.exitCode, server.child.signalCode]).toEqual([200, null, null]);
    expect(server.lines.filter((line) => !line.startsWith("svc-mcp: ") || /Error|EPIPE|Channel closed/.test(line))).toEqual([]);
  });
});

describe("MediaTurnLedger (the primary's queues)", () => {
  const limits = { media: { sending: 1, held: 3 }, preview: { sending: 1, held: 2 } };

  it("queues a caller's turns over workers, passes a released one on, and takes an abandoned ticket out of its queue", async () => {
    const ledger = new MediaTurnLedger<string>(limits);
    expect(await ledger.take("a", { kind: "media", caller: "x", ticket: 1 })).toEqual({ ok: true });
    const second = ledger.take("b", { kind: "media", caller: "x", ticket: 1 });
    const third = ledger.take("a", { kind: "media", caller: "x", ticket: 2 });
    expect(await ledger.take("b", { kind: "media", caller: "x", ticket: 2 })).toEqual({ ok: false, reason: "full" });
    // The other kind, and another caller, have their own.
    expect(await ledger.take("b", { kind: "preview", caller: "x", ticket: 3 })).toEqual({ ok: true });
    expect(await ledger.take("b", { kind: "media", caller: "y", ticket: 4 })).toEqual({ ok: true });
    // b's client hung up while its ticket waited: out of the queue, answered gone.
    ledger.news("b", { op: "abandon", ticket: 1 });
    expect(await second).toEqual({ ok: false, reason: "gone" });
    // a's first ends: its turn passes to a's waiting second.
    ledger.news("a", { op: "release", ticket: 1 });
    expect(await third).toEqual({ ok: true });
    expect(ledger.heldBy("media", "x")).toBe(1);
    // An abandon that crosses its grant gives the turn back.
    ledger.news("a", { op: "abandon", ticket: 2 });
    expect(ledger.heldBy("media", "x")).toBe(0);
  });

  it("gives back a worker's turns when it exits, answers its waiting tickets gone, and takes none more for it", async () => {
    const ledger = new MediaTurnLedger<string>(limits);
    expect(await ledger.take("a", { kind: "media", caller: "x", ticket: 1 })).toEqual({ ok: true });
    const waiting = ledger.take("a", { kind: "media", caller: "x", ticket: 2 });
    const other = ledger.take("b", { kind: "media", caller: "x", ticket: 1 });
    ledger.forget("a");
    expect(await waiting).toEqual({ ok: false, reason: "gone" });
    expect(await other).toEqual({ ok: true });
    expect(await ledger.take("a", { kind: "media", caller: "x", ticket: 3 })).toEqual({ ok: false, reason: "gone" });
    expect(ledger.heldBy("media", "x")).toBe(1);
  });
});
