import { readFileSync, readdirSync } from "node:fs";

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

/**
 * CPU time (user + system) this process's reaped children have used so far (cutime, cstime of
 * `/proc/self/stat`), in ms; NaN elsewhere. Around an `execFileSync`, the command's own CPU.
 */
export function reapedChildrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // cutime and cstime, fields 16 and 17 of proc(5).
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (user + system, all threads) of a process and every descendant still running, plus
 * what the children they have reaped used (cutime, cstime), in ms (Linux `/proc`); NaN elsewhere.
 * For a command such as `npx ...`, which runs `sh`, which runs `node`.
 */
export function treeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const parents = new Map<number, { ppid: number; ms: number }>();
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        // ppid is field 4 of proc(5); utime, stime, cutime, cstime fields 14-17.
        const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
        parents.set(Number(entry), { ppid: Number(fields[1]), ms: (ticks * 1000) / 100 });
      } catch {
        // Exited while we looked.
      }
    }
  } catch {
    return Number.NaN;
  }
  if (!parents.has(pid)) return Number.NaN;
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, { ppid }] of parents) {
      if (!tree.has(child) && tree.has(ppid)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const member of tree) total += parents.get(member)?.ms ?? 0;
  return total;
}
