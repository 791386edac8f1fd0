import { availableParallelism } from "node:os";
import { LIMITS } from "../limits.js";
import { CliError } from "./io.js";

// In a file of its own: `serve` checks the option over stdio too, without loading the worker
// processes' code and the HTTP stack that serve-workers.ts brings.

/** `--workers`: a positive integer, or `auto` for one per core. */
export function parseWorkers(value: string | number | undefined, cores: number = availableParallelism()): number {
  if (value === undefined) return 1;
  if (value === "auto") return cores;
  const n = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > LIMITS.serve.maxWorkers) {
    throw new CliError(`--workers must be an integer from 1 to ${LIMITS.serve.maxWorkers}, or auto (one per core); got ${JSON.stringify(value)}`, 2);
  }
  return n;
}
