import type { Socket } from "node:net";

/**
 * Connections another process accepts on the port and hands to this one: the primary of
 * `serve --http --workers N` accepts every connection and gives it to the worker holding the
 * fewest (src/cli/connection-handout.ts). A server given one binds no socket of its own.
 */
export interface ConnectionSource {
  /**
   * Start taking connections: each is passed to `take` with nothing read from it yet, as
   * `pauseOnConnect` leaves a connection node:net accepts. Resolves with the port they arrive
   * on once this process is handed connections; rejects with the error of opening the port (its
   * `code`: EADDRINUSE, EACCES).
   */
  open(take: (socket: Socket) => void): Promise<number>;
  /** Take no more (draining): a connection still on its way here is given back, to go to another process. */
  close(): void;
  /**
   * Whether `socket`, whose request is being answered, should close after this answer (the
   * answer says `Connection: close`): this process holds more than its share of the
   * connections, so its client reconnects to one holding fewer.
   */
  overShare?(socket: Socket): boolean;
}
