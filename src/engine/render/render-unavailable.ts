/** Why the render pool gave no page: past its time limit, the caller holds too many, the worker ended, or the pool was shut down. */
export type RenderUnavailableReason = "time-limit" | "too-many" | "worker-died" | "shut-down";

/**
 * A page that was not rendered, for a reason that is not the page's text being wrong: the
 * route answers it as a 503 page saying why (with `Retry-After`), never a 500 with a stack.
 */
export class RenderUnavailable extends Error {
  override readonly name = "RenderUnavailable";

  constructor(
    readonly reason: RenderUnavailableReason,
    message: string,
  ) {
    super(message);
  }
}
