/**
 * A turn of the event loop given back, after the I/O and timers pending now (`setImmediate`):
 * a long stretch of work awaits it between slices, so callers waiting on the same thread are
 * answered meanwhile.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
