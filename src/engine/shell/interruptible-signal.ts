/** `AbortSignal.prototype.aborted`'s own getter: what the signal says when nothing else is asked. */
const nativeAborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")?.get as (this: AbortSignal) => boolean;

/**
 * A controller whose signal also reads as aborted once `interrupted()` says so, without an event.
 * Why: a command in synchronous code (a runaway `awk`) never lets its thread handle a message or
 * an abort event, but the interpreter asks `signal.aborted` as it works (just-bash's budget
 * checks), so a flag another thread sets in shared memory stops it there: the shell worker is
 * kept instead of ended and started again (`ShellHost.cancel`). Events still fire for code that
 * awaits: call `abort()` when the thread gets to it.
 */
export function interruptibleController(interrupted: () => boolean): AbortController {
  const controller = new AbortController();
  const signal = controller.signal;
  Object.defineProperty(signal, "aborted", { get: () => nativeAborted.call(signal) || interrupted(), configurable: true });
  return controller;
}
