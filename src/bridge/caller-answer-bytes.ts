import type { ServerResponse } from "node:http";

/**
 * The bytes of each caller's answers that the process holds and its client has not yet taken
 * (an address, an IPv6 /64: `callerAddress`; behind a trusted proxy, the forwarded address, as the
 * other per-caller bounds of connections). An answer handed whole (an MCP answer, a page) is held
 * in memory until the kernel has taken its last byte, so a caller with many connections that read
 * slowly, or not at all, made the process hold an answer per connection (issue 25). A caller
 * holding `limit` such bytes is refused its next answer (`admits`) until it reads them.
 *
 * What is held is each open answer's `writableLength`: its bytes queued in the process, not
 * yet written to the socket (a write the kernel has only partly taken counts whole, as its
 * buffer is still held). A medium sent a piece at a time as its client takes it holds one piece.
 * What the kernel's socket buffers hold is the system's, bounded by the connections a caller may
 * open. Counted from the answers themselves at each decision, so nothing drifts.
 */
export class CallerAnswerBytes {
  /** Per caller: its answers not yet closed (finished, or the connection gone). */
  private readonly open = new Map<string, Set<ServerResponse>>();

  constructor(readonly limit: number) {}

  /** `res` answers `caller` until it closes. */
  track(res: ServerResponse, caller: string): void {
    let mine = this.open.get(caller);
    if (mine === undefined) this.open.set(caller, (mine = new Set()));
    mine.add(res);
    res.once("close", () => {
      const now = this.open.get(caller);
      if (now?.delete(res) === true && now.size === 0) this.open.delete(caller);
    });
  }

  /** Bytes of `caller`'s open answers, other than `except`, not yet taken by their sockets. */
  heldBy(caller: string, except?: ServerResponse): number {
    let held = 0;
    for (const res of this.open.get(caller) ?? []) if (res !== except) held += res.writableLength;
    return held;
  }

  /** Whether `res`, an answer to `caller` about to be written, may be: its caller holds less than `limit` unread. */
  admits(caller: string, res: ServerResponse): boolean {
    return this.heldBy(caller, res) < this.limit;
  }
}
