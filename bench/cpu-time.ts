import { readFileSync } from "node:fs";

/** utime + stime of a `/proc/.../stat` line, in ms (clock ticks: USER_HZ, 100 on Linux). */
function statCpuMs(path: string): number {
  const stat = readFileSync(path, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime, fields 14 and 15 of proc(5).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU time (user + system, all threads) a process has used so far, in ms (Linux `/proc`); NaN elsewhere. */
export function cpuMs(pid: number | undefined): number {
  try {
    return statCpuMs(`/proc/${pid}/stat`);
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time of a process's main thread alone (its JavaScript), in ms; NaN elsewhere. The rest of
 * `cpuMs` is its other threads: V8's garbage-collection helpers and compiler, libuv's pool.
 */
export function mainThreadCpuMs(pid: number | undefined): number {
  try {
    return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
  } catch {
    return Number.NaN;
  }
}
