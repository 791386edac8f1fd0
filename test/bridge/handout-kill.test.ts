import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { DEMO, tempDir } from "./harness.js";

/**
 * A worker killed while connections are on their way to it (adversary round 22): each of them is
 * answered by another worker or closed, none left open and unanswered in the primary. The worker
 * is stopped (SIGSTOP) so that what is handed to it stays unread on its channel, then killed.
 */

let state: ReturnType<typeof tempDir>;
let server: WorkersProcess | undefined;

beforeEach(() => {
  state = tempDir("svc-mcp-handout-kill-");
});
afterEach(async () => {
  if (server !== undefined) await stopProcess(server.child);
  server = undefined;
  state.cleanup();
});

/** One request with `Connection: close`: the status line it was answered with, or "closed" when the connection ended unanswered. */
function ask(port: number, answered: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" });
    let got = "";
    socket.on("data", (d) => {
      if (got === "") answered();
      got += d.toString("latin1");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? resolve("closed") : reject(error)));
    socket.on("close", () => resolve(got === "" ? "closed" : (got.split("\r\n")[0] as string)));
    socket.write("GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  });
}

describe("serve --http --workers 2: a worker killed with connections on their way to it", () => {
  it("leaves none of them open and unanswered: each is answered by the survivor or closed", async () => {
    server = await startWorkers(["--dir", DEMO, "--state", state.dir, "--project-id", "docs", "--workers", "2"]);
    const s = server;
    const [victim] = s.pids as [number, number];
    process.kill(victim, "SIGSTOP");
    let answered = 0;
    let halfAnswered!: () => void;
    const half = new Promise<void>((resolve) => (halfAnswered = resolve));
    const asks = Array.from({ length: 10 }, () =>
      ask(s.port, () => {
        if (++answered === 5) halfAnswered();
      }),
    );
    // The survivor has answered its five: the victim's five were handed to it and wait unread.
    await half;
    process.kill(victim, "SIGKILL");
    const results = await Promise.all(asks);
    // The one written to its channel (the others wait for its acknowledgement in the primary) is
    // closed with it; the others are answered by the survivor. Before, that one stayed open in the
    // primary, unanswered, and this waited for ever.
    const closed = results.filter((r) => r === "closed").length;
    expect(closed).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r === "HTTP/1.1 200 OK").length).toBe(10 - closed);
  });
});
