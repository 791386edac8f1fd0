import { connect } from "node:net";

/**
 * A minimal HTTP/1.1 load generator, in the manner of wrk: `connections` keep-alive sockets,
 * each with up to `depth` pipelined requests in flight, requests pre-serialized and responses
 * counted by their Content-Length. It costs the client almost nothing per request, so the
 * figure is the server's rate, not node:http's client overhead (which on a 2-core machine
 * halves the measured rate). Resolves to requests per second; rejects on any other status.
 */
export async function loadTest(options: {
  port: number;
  request: string;
  total: number;
  connections: number;
  depth: number;
  expectStatus: number;
}): Promise<number> {
  const { port, request, total, connections, depth, expectStatus } = options;
  const statusLine = `HTTP/1.1 ${expectStatus}`;
  let sent = 0;
  const start = performance.now();
  await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(port, "127.0.0.1");
          let buffer = "";
          let inflight = 0;
          const fill = (): void => {
            let out = "";
            while (inflight < depth && sent < total) {
              out += request;
              inflight++;
              sent++;
            }
            if (out !== "") socket.write(out);
            else if (inflight === 0) {
              socket.end();
              resolve();
            }
          };
          socket.on("connect", fill);
          socket.on("error", reject);
          socket.on("data", (data: Buffer) => {
            buffer += data.toString("latin1");
            for (;;) {
              const end = buffer.indexOf("\r\n\r\n");
              if (end < 0) break;
              const length = Number(/content-length: *(\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0);
              if (buffer.length < end + 4 + length) break;
              if (!buffer.startsWith(statusLine)) {
                socket.destroy();
                reject(new Error(`expected ${statusLine}, got ${buffer.slice(0, buffer.indexOf("\r\n"))}`));
                return;
              }
              buffer = buffer.slice(end + 4 + length);
              inflight--;
            }
            fill();
          });
        }),
    ),
  );
  return total / ((performance.now() - start) / 1000);
}

/** A serialized POST with a JSON body. */
export function jsonPost(path: string, body: unknown): string {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}
