import type { PoolEvent } from "../../src/engine/shell/pool-events.js";

/**
 * What a shell pool did, recorded in order (pass `onEvent` to the pool), and a way to wait for
 * a given event: tests wait on the pool's own events, never on time.
 */
export class PoolRecorder {
  readonly events: PoolEvent[] = [];
  private readonly waiters: { readonly match: (e: PoolEvent) => boolean; readonly resolve: (e: PoolEvent) => void }[] = [];

  readonly onEvent = (event: PoolEvent): void => {
    this.events.push(event);
    for (const w of [...this.waiters]) {
      if (!w.match(event)) continue;
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(event);
    }
  };

  /** The first event (already recorded, or still to come) that matches. */
  next(match: (e: PoolEvent) => boolean): Promise<PoolEvent> {
    const seen = this.events.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The events of calls and workers as short lines (`start 1 on 2`), in order, for whole-sequence asserts. */
  lines(keep: readonly PoolEvent["t"][] = ["spawn", "loading", "loaded", "queued", "refused", "start", "end", "stopped", "exit"]): string[] {
    return this.events.filter((e) => keep.includes(e.t)).map(describe);
  }
}

function describe(e: PoolEvent): string {
  switch (e.t) {
    case "spawn":
    case "booted":
      return `${e.t} worker ${e.worker}`;
    case "loading":
    case "loaded":
      return `worker ${e.worker} ${e.t} snapshot ${e.sid}`;
    case "viewed":
      return `worker ${e.worker} built view ${e.view}`;
    case "encoding":
      return `encoding ${e.files} files`;
    case "encoded":
      return `snapshot ${e.sid} encoded`;
    case "queued":
      return `call ${e.call} queued by ${e.caller}`;
    case "refused":
      return `refused ${e.caller} (limit ${e.limit})`;
    case "start":
      return `call ${e.call} started on worker ${e.worker}`;
    case "end":
      return `call ${e.call} ended: ${e.how}`;
    case "stopped":
      return `call ${e.call} stopped on worker ${e.worker}: exit ${e.exitCode}`;
    case "preempted":
      return `call ${e.call} preempted on worker ${e.worker}`;
    case "requeued":
      return `call ${e.call} requeued by ${e.caller}`;
    case "heavy":
      return `${e.caller} heavy: ${e.why}`;
    case "exit":
      return `worker ${e.worker} exited: ${e.why}`;
  }
}
