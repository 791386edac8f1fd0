import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Bridge } from "./bridge.js";

export interface RunningServer {
  /** `http://host:port` as bound (the real port when 0 was asked for). */
  readonly origin: string;
  readonly port: number;
  /** Stop accepting, end open streams and sessions, and wait until the socket is closed. */
  readonly close: () => Promise<void>;
}

/** Serve a bridge on a real socket. Rejects with a clear message when the port is taken. */
export function listen(bridge: Bridge, options: { host: string; port: number }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: bridge.app.fetch, hostname: options.host, port: options.port }) as Server;
    const onError = (error: NodeJS.ErrnoException): void => {
      const why = error.code === "EADDRINUSE" ? `port ${options.port} is already in use` : error.code === "EACCES" ? `no permission to listen on port ${options.port}` : error.message;
      reject(new Error(`cannot listen on ${options.host}:${options.port}: ${why}`));
    };
    server.once("error", onError);
    server.once("listening", () => {
      server.off("error", onError);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({
        origin: `http://${host}:${port}`,
        port,
        close: async () => {
          await bridge.close();
          await new Promise<void>((done) => {
            server.close(() => done());
            // Notification streams never end by themselves.
            server.closeAllConnections();
          });
        },
      });
    });
  });
}
