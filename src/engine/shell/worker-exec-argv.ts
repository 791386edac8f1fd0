/**
 * The Node options a docs shell worker starts with. A worker thread inherits `process.execArgv`
 * by default, but Node refuses to start one with a process-wide option (`--max-old-space-size`,
 * `--stack-trace-limit`, `--trace-gc`, `--expose-gc`...: ERR_WORKER_INVALID_EXEC_ARGV), so
 * `node --max-old-space-size=4096 svc-mcp serve` would stop at start-up. The worker needs only
 * what loads its code: loaders, conditions, source maps and warning switches. The rest stays
 * with the process (its heap limit is the worker's own `resourceLimits`).
 */

/** Options that take a value, either `--name=value` or `--name value`. */
const WITH_VALUE: ReadonlySet<string> = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader", "--conditions", "-C", "--disable-warning"]);

/** Options without a value the worker keeps. */
const SWITCHES: ReadonlySet<string> = new Set(["--enable-source-maps", "--no-warnings", "--no-deprecation", "--preserve-symlinks", "--preserve-symlinks-main"]);

export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    const name = arg.split("=", 1)[0] as string;
    if (WITH_VALUE.has(name)) {
      if (arg.includes("=")) kept.push(arg);
      else if (i + 1 < execArgv.length) kept.push(arg, execArgv[++i] as string);
    } else if (SWITCHES.has(arg) || (arg.startsWith("--experimental-") && !arg.includes("="))) {
      kept.push(arg);
    }
  }
  return kept;
}
