/**
 * What the shell pool did, in order, for whoever watches it (tests assert sequences of these
 * instead of timings; the bench counts them). Workers are numbered from 1 as they start; calls
 * by the id the pool gave them.
 */
export type PoolEvent =
  | { readonly t: "spawn"; readonly worker: number }
  /** The worker's code is loaded: it can be given a snapshot. */
  | { readonly t: "booted"; readonly worker: number }
  /** A site's encoding for the workers began a slice at a time (`ShellHost.encodeSoon`): requests are answered between its slices. */
  | { readonly t: "encoding"; readonly files: number }
  /** A site snapshot was encoded for the workers (once per snapshot, on the host's thread). */
  | { readonly t: "encoded"; readonly sid: number }
  | { readonly t: "loading"; readonly worker: number; readonly sid: number }
  /** The worker holds the snapshot: from now on it may take calls of it. */
  | { readonly t: "loaded"; readonly worker: number; readonly sid: number }
  /** The worker built a reader's view (by the pool's id for it): that reader's commands start there without building it. */
  | { readonly t: "viewed"; readonly worker: number; readonly view: number }
  /** A call was queued by `caller` (or refused: it held its limit). */
  | { readonly t: "queued"; readonly call: number; readonly caller: string }
  | { readonly t: "refused"; readonly caller: string; readonly limit: number }
  /** A call was given to a worker: its time limit counts from here. */
  | { readonly t: "start"; readonly call: number; readonly worker: number }
  | { readonly t: "end"; readonly call: number; readonly how: CallEnd }
  /** A call given up while it ran has stopped inside its worker, with this status; the worker takes the next call. */
  | { readonly t: "stopped"; readonly call: number; readonly worker: number; readonly exitCode: number }
  /** A new caller's first command is being stopped to give its worker to a caller with nothing running (`LIMITS.shellWorker.trialCpuMs`). */
  | { readonly t: "preempted"; readonly call: number; readonly worker: number }
  /** A call stopped so waits again, at the front of its caller's queue, to run from its start. */
  | { readonly t: "requeued"; readonly call: number; readonly caller: string }
  /**
   * A caller became heavy (`CallerStanding`): a command of theirs was stopped by the shell, given
   * up while it ran, or answered after using `heavyCpuMs` of CPU. Its next commands leave the
   * reserved workers free.
   */
  | { readonly t: "heavy"; readonly caller: string; readonly why: HeavyWhy }
  /** A worker was stopped by the pool (`why`) or ended by itself. */
  | { readonly t: "exit"; readonly worker: number; readonly why: WorkerExit };

/** Why a caller was made heavy: a command of theirs stopped by the shell (a limit), given up while it ran, or answered after long CPU work. */
export type HeavyWhy = "stopped" | "given-up" | "cpu";

/** How a call ended: its result, cancelled by its caller (waiting or running), or by the pool. */
export type CallEnd = "result" | "cancelled" | "time-limit" | "cpu-limit" | "worker-died" | "shut-down" | "boot-failed";

/** Why a worker ended: its call was cancelled or ran past its time or CPU limit, it was idle, or it ended by itself. */
export type WorkerExit = "preempted" | "cancelled" | "time-limit" | "cpu-limit" | "idle" | "died" | "shut-down";
