import type { RenderEvent } from "../../src/engine/render/render-protocol.js";

/**
 * What a render pool did, recorded in order (pass `onEvent` to the pool), and a way to wait for
 * a given event: tests wait on the pool's own events, never on time.
 */
export class RenderRecorder {
  readonly events: RenderEvent[] = [];
  private readonly waiters: { readonly match: (e: RenderEvent) => boolean; readonly resolve: (e: RenderEvent) => void }[] = [];

  readonly onEvent = (event: RenderEvent): void => {
    this.events.push(event);
    for (const w of [...this.waiters]) {
      if (!w.match(event)) continue;
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(event);
    }
  };

  /** The first event (already recorded, or still to come) that matches. */
  next(match: (e: RenderEvent) => boolean): Promise<RenderEvent> {
    const seen = this.events.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The events as short lines (`job 1 started on worker 2`), in order, for whole-sequence asserts. */
  lines(keep: readonly RenderEvent["t"][] = ["queued", "refused", "start", "end", "exit"]): string[] {
    return this.events.filter((e) => keep.includes(e.t)).map(describe);
  }
}

function describe(e: RenderEvent): string {
  switch (e.t) {
    case "spawn":
    case "booted":
      return `${e.t} worker ${e.worker}`;
    case "queued":
      return `job ${e.job} queued by ${e.caller}`;
    case "refused":
      return `refused ${e.caller} (limit ${e.limit})`;
    case "start":
      return `job ${e.job} started on worker ${e.worker}`;
    case "end":
      return `job ${e.job} ended: ${e.how}`;
    case "exit":
      return `worker ${e.worker} exited: ${e.why}`;
  }
}
