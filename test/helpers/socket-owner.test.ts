import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { socketOwner } from "./socket-owner.js";

/**
 * `socketOwner` (the tests' way to know which worker process holds a connection) finds the
 * connection by both its ends, addresses too, and only a line with a socket file. A server here,
 * in this process; earlier connections to it from other loopback addresses, with the client port
 * the live one then uses, closed by the server first so that their lines stay in TIME_WAIT (no
 * inode). Matched by the two ports alone, the first of those lines in the table answered: no
 * owner for a live connection (a loaded run's workers-listen saw a third "worker").
 */
const CLOSED_BEFORE = 24;

let server: Server;
const live: Socket[] = [];

beforeAll(async () => {
  // Every connection is ended by the server at once (its side goes to TIME_WAIT), save the live one's.
  server = createServer((socket) => {
    if (socket.remoteAddress === "127.0.0.2") live.push(socket);
    else socket.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
});

afterAll(async () => {
  for (const s of live) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** A client connection from `localAddress` (and `localPort`, else any), connected. */
async function client(localAddress: string, localPort?: number): Promise<Socket> {
  const socket = connect({ host: "127.0.0.1", port: (server.address() as AddressInfo).port, localAddress, ...(localPort === undefined ? {} : { localPort }) });
  await once(socket, "connect");
  return socket;
}

it("finds a live connection's holder past TIME_WAIT lines of other addresses with the same client port", async () => {
  const first = await client("127.0.0.3");
  const port = first.localPort as number;
  const earlier = [first];
  for (let i = 4; i < 4 + CLOSED_BEFORE - 1; i++) earlier.push(await client(`127.0.0.${i}`, port));
  // Ended by the server: each client closes in turn once it reads the end.
  await Promise.all(earlier.map((s) => (s.closed ? undefined : once(s, "close"))));
  const mine = await client("127.0.0.2", port);
  // Held by this process once accepted: the server's callback has run by the time it is listed with its socket file.
  while (live.length === 0) await new Promise((resolve) => setImmediate(resolve));
  expect({ owner: socketOwner(mine, [process.pid]), closed: socketOwner(earlier[0] as Socket, [process.pid]) }).toEqual({ owner: process.pid, closed: undefined });
  mine.destroy();
});
