import { type AddressInfo, createServer, type Server, type Socket, connect } from "node:net";

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
export class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /**
   * Stop passing data on every connection open now, and keep them open: a server that went
   * silent (a host gone, a cut that resets nothing). New connections pass as before.
   */
  freeze(): void {
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  }
}
