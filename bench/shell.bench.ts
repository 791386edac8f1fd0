import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bash, InMemoryFs } from "just-bash";
import { DocsRuntime } from "../src/engine/runtime.js";
import { localContext } from "../src/vfs/request-context.js";
import { DiskCopy } from "../test/helpers/real-tools.js";
import { type BenchRow, type BenchSuite, percentile, timeMany } from "./bench.js";
import { shellPoolRows } from "./shell-pool.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
const CORPUS = join(SHARED, "corpora", "spree");

/** The measured commands, with how often to run each side (stock just-bash rg takes seconds). */
const COMMANDS: ReadonlyArray<{ readonly cmd: string; readonly native: string; readonly runs: number; readonly stockRuns: number; readonly target?: number }> = [
  { cmd: "rg -il webhook /", native: "rg", runs: 30, stockRuns: 3, target: 3 },
  { cmd: "grep -rn webhook /", native: "grep", runs: 30, stockRuns: 10 },
  { cmd: "cat /developer/getting-started/quickstart.mdx", native: "cat", runs: 30, stockRuns: 30 },
  { cmd: "tree -L 2 /", native: "tree", runs: 30, stockRuns: 30 },
];

/** Wall time of one spawned process, in ms. */
function spawnMs(dir: string, command: string, args: readonly string[]): number {
  const t = performance.now();
  const r = spawnSync(command, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH, LC_ALL: "C.UTF-8" } });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${r.stderr?.toString()}`);
  return ms;
}

/**
 * The docs shell on spree: our commands, stock just-bash (a `Bash` over an InMemoryFs of the
 * same files) and the native tools on a disk copy. Native figures are a process's wall time
 * minus an empty spawn (`true`), so they compare the work, not Node's spawn cost; the raw wall
 * time is in the metric name. Then the shell pool's figures (bench/shell-pool.ts).
 */
export const shellSuite: BenchSuite = {
  name: "shell",
  run: async (log) => {
    const runtime = await DocsRuntime.load({ root: CORPUS });
    // The index builds in the background after the load: not while the shell is timed.
    await runtime.whenIndexed();
    const view = runtime.readerState(localContext()).view;
    const shell = runtime.readerState(localContext()).shell;
    const files: Record<string, string> = {};
    for (const f of view.files) files[f.path] = f.text;
    const stock = new Bash({ fs: new InMemoryFs(files), cwd: "/" });
    const disk = DiskCopy.of(view);
    const rows: BenchRow[] = [];
    try {
      const empty = percentile(
        Array.from({ length: 30 }, () => spawnMs(disk.dir, "true", [])),
        50,
      );
      log(`${view.files.length} files; empty spawn p50 ${empty.toFixed(2)} ms`);
      for (const c of COMMANDS) {
        // Warm up: JIT and the first-call costs are not what an agent waits for.
        for (let k = 0; k < 3; k++) await shell.run(c.cmd);
        const ours = percentile(await timeMany(c.runs, () => shell.run(c.cmd)), 50);
        log(`${c.cmd}: ours ${ours.toFixed(2)} ms; stock just-bash x${c.stockRuns}...`);
        const stockMs = percentile(await timeMany(c.stockRuns, () => stock.exec(c.cmd)), 50);
        const args = disk.mapCommand(c.cmd).split(" ").slice(1);
        // Pair each native run with an empty spawn right before it, so load on the machine
        // affects both sides of the subtraction alike.
        const walls: number[] = [];
        const work: number[] = [];
        for (let k = 0; k < c.runs; k++) {
          const base = spawnMs(disk.dir, "true", []);
          const wall = spawnMs(disk.dir, c.native, args);
          walls.push(wall);
          work.push(wall - base);
        }
        const nativeWall = percentile(walls, 50);
        const native = Math.max(0.01, percentile(work, 50));
        rows.push({
          area: "shell",
          metric: `\`${c.cmd}\` p50 vs stock just-bash (spree)`,
          value: ours,
          unit: "ms",
          baseline: { name: "stock just-bash", value: stockMs },
        });
        rows.push({
          area: "shell",
          metric: `\`${c.cmd}\` p50 vs native ${c.native} (process wall p50 ${nativeWall.toFixed(1)} ms; baseline = p50 of wall - paired empty spawn)`,
          value: ours,
          unit: "ms",
          baseline: { name: `native ${c.native}`, value: native },
          ...(c.target !== undefined ? { target: `<= ${c.target}x native`, ok: ours <= c.target * native } : {}),
        });
      }
      rows.push(...(await shellPoolRows(runtime, log)));
    } finally {
      disk.cleanup();
      await runtime.close();
    }
    return rows;
  },
};
