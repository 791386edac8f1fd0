import { readFileSync, readlinkSync } from "node:fs";

/**
 * The CPU time of one thread of this process, read from Linux's /proc: how the shell pool
 * bounds a command by the work its worker thread did, not by the wall clock (issue 25). A
 * thread waiting for a core accrues none, so a busy machine does not bring the limit closer;
 * a spinning thread accrues it steadily, so a runaway reaches it whatever the load.
 *
 * Read in nanoseconds (`schedstat`, the scheduler's own count of the time the thread ran) where
 * the kernel has it, else in clock ticks (`stat`). Why not ticks alone: a tick is 10 ms, and
 * the kernel charges whole ticks to whichever thread runs when one falls, so a thread that ran
 * a few milliseconds reads 0 or 10, and work shorter than a tick looked like no work at all
 * (a jq thread's start, ~70 ms, read 50-100). Decisions taken on these figures (a new caller's
 * trial of 100 ms, the 5 s CPU limit, the cancel grace) should not move by a tick's sampling.
 *
 * Where /proc is missing (not Linux) both answer undefined, and the pool keeps only its
 * wall-clock backstop (docs/shell.md, "Limits").
 */

/** /proc reports thread times in USER_HZ ticks, 100 a second on every architecture Node runs on (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** The calling thread's Linux thread id (`/proc/thread-self` links to "PID/task/TID"), or undefined. */
export function ownThreadId(): number | undefined {
  try {
    const match = /^\d+\/task\/(\d+)$/.exec(readlinkSync("/proc/thread-self"));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU (user + system) thread `tid` of this process has used, or undefined when it cannot be read. */
export function threadCpuMs(tid: number): number | undefined {
  return scheduledMs(tid) ?? tickedMs(tid);
}

/** From `schedstat`: its first field is the nanoseconds the thread has run (absent without the kernel's CONFIG_SCHED_INFO). */
function scheduledMs(tid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${tid}/schedstat`, "latin1");
  } catch {
    return undefined;
  }
  const ns = Number(stat.slice(0, stat.indexOf(" ")));
  return Number.isFinite(ns) && ns >= 0 ? ns / 1e6 : undefined;
}

/** From `stat`, in whole ticks. */
function tickedMs(tid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${tid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // Field 2, the thread's name, is in parentheses and may hold spaces: count fields after the
  // last ")". Field 3 (the state) is then the first; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}
