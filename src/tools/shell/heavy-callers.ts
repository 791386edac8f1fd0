/**
 * Callers of the shell pool that have held a worker for long: a command of theirs ran to its time
 * limit, or they gave up a command while it ran. The pool treats such a caller's next command
 * like a second one (it may not take the last reserved workers), so addresses that each keep one
 * runaway going leave workers for callers with nothing running (issue 25). Remembered for the
 * `capacity` most recent such callers (least recently marked go first), with the worker restarts
 * their cancellations caused, which are bounded (`ShellHost.cancel`).
 *
 * Decided by what happened (a limit reached, a call given up), never by how long something took,
 * so a busy machine marks the same callers.
 */
export class HeavyCallers {
  private readonly marked = new Map<string, { restarts: number }>();

  constructor(private readonly capacity: number) {}

  has(caller: string): boolean {
    return this.marked.has(caller);
  }

  /** Remember `caller` (again: most recent). */
  mark(caller: string): void {
    const entry = this.marked.get(caller) ?? { restarts: 0 };
    this.marked.delete(caller);
    this.marked.set(caller, entry);
    while (this.marked.size > this.capacity) this.marked.delete(this.marked.keys().next().value as string);
  }

  /** Worker restarts `caller`'s cancellations caused so far. */
  restarts(caller: string): number {
    return this.marked.get(caller)?.restarts ?? 0;
  }

  /** Count one more restart against `caller` (marking it). */
  countRestart(caller: string): void {
    this.mark(caller);
    const entry = this.marked.get(caller);
    if (entry !== undefined) entry.restarts++;
  }
}
