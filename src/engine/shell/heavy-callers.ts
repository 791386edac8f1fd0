/**
 * Callers of the shell pool that have held a worker for long: a command of theirs ran to its time
 * limit, or they gave up a command while it ran. The pool treats such a caller's next command
 * like a second one (it may not take the last reserved workers), so addresses that each keep one
 * runaway going leave workers for callers with nothing running (issue 25). Remembered for the
 * `capacity` most recent such callers (least recently marked go first).
 *
 * Decided by what happened (a limit reached, a call given up), never by how long something took,
 * so a busy machine marks the same callers.
 */
export class HeavyCallers {
  private readonly marked = new Set<string>();

  constructor(private readonly capacity: number) {}

  has(caller: string): boolean {
    return this.marked.has(caller);
  }

  /** Remember `caller` (again: most recent). */
  mark(caller: string): void {
    this.marked.delete(caller);
    this.marked.add(caller);
    while (this.marked.size > this.capacity) this.marked.delete(this.marked.values().next().value as string);
  }
}
