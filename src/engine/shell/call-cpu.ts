import { ownThreadId, threadCpuMs } from "./thread-cpu.js";

/**
 * The CPU time one call has used: its shell thread's since the call began, plus what threads
 * of its own commands used for it (jq runs in a thread of its own: `jq-in-thread.ts`). Issue 25,
 * adversary round 35 F2: the CPU limit read only the shell's thread, so a loop of short jq runs
 * (`for i in $(seq 1500); do jq -n 1; done`, each ~3 ms in jq's thread) spent 9.7 s of the
 * process's CPU, past the 5 s limit, with the shell's thread under it. The work budget ends such
 * a loop first, by count (`JQ_START_STEPS`); this is the backstop behind it, read from /proc
 * (`thread-cpu.ts`; where it cannot be read, every figure here is 0 and nothing is stopped).
 */
export class CallCpu {
  /**
   * A command reaches its call's account through its context, which just-bash hands it behind a
   * revocable proxy that throws once the call is cancelled: jq's thread settles after that
   * (an abort ends it), and a throw there ended the whole shell worker. So a command takes the
   * account's `id` (a number passes the proxy as it is) and the account itself from here.
   */
  private static readonly open = new Map<number, CallCpu>();
  private static nextId = 1;
  /** The open account with this `id`, outside any proxy; undefined once its call is over. */
  static byId(id: number): CallCpu | undefined {
    return CallCpu.open.get(id);
  }

  readonly id = CallCpu.nextId++;
  private readonly tid = ownThreadId();
  private readonly start: number | undefined;
  private helpers = 0;
  /** The limit a command found the call's CPU past (`stop`), once one did: the answer names it. */
  outAt: number | undefined;

  /**
   * `onOut`: what ends the call when a command finds its CPU spent (the shell's abort).
   * `maxCpuMs`: the call's CPU limit (its shell's `ShellLimits.maxCpuMs`), for a command whose
   * shell has no pool's limit to give it (`jq` in this thread: `svc-mcp fs --no-shell-worker`).
   */
  constructor(
    private readonly onOut: () => void = () => {},
    readonly maxCpuMs?: number,
  ) {
    this.start = this.tid === undefined ? undefined : threadCpuMs(this.tid);
    CallCpu.open.set(this.id, this);
  }

  /** The call is over: its account is no longer found by `byId`. */
  close(): void {
    CallCpu.open.delete(this.id);
  }

  /** Milliseconds of CPU the call has used so far, its commands' threads included. */
  used(): number {
    const now = this.tid === undefined ? undefined : threadCpuMs(this.tid);
    const own = now === undefined || this.start === undefined ? 0 : now - this.start;
    return own + this.helpers;
  }

  /**
   * Told, in this thread, of the CPU its calls' helper threads use as they run: the ms of the
   * runs ended, and the thread running one now (its id and CPU when it began; 0, 0: none). A
   * shell worker writes it where its host reads it (`ShellWorkerData.helperCpu`): the host's
   * trial (`LIMITS.shellWorker.trialCpuMs`) reads a jq's CPU as it spins, not only the worker
   * thread's, which stays idle while jq runs (issue 25: a runaway jq's trial ended only at
   * `trialMs` of wall time, ten times a trial's CPU on a quiet machine).
   */
  static onHelpers: ((helpersMs: number, liveTid: number, liveStartMs: number) => void) | undefined;

  /** A thread began work for this call (a jq run): `tid`, whose CPU was `startMs` then. */
  helperRunning(tid: number, startMs: number): void {
    CallCpu.onHelpers?.(this.helpers, tid, startMs);
  }

  /** CPU another thread used for this call (a jq run), once it is known. */
  addHelper(ms: number): void {
    if (ms > 0) this.helpers += ms;
    CallCpu.onHelpers?.(this.helpers, 0, 0);
  }

  /** A command found the call past its CPU limit, `maxCpuMs`: the call ends with the CPU limit's answer. */
  stop(maxCpuMs: number): void {
    if (this.outAt !== undefined) return;
    this.outAt = maxCpuMs;
    this.onOut();
  }
}
