import { Readable } from "node:stream";
import { main } from "../../src/cli/main.js";
import { fixture } from "./paths.js";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  /** Working folder (default: the demo site, fixtures/demo). */
  readonly cwd?: string;
  /** The whole environment the command sees (default: none, so nothing of the caller's leaks in). */
  readonly env?: Record<string, string>;
  /** Standard input (`users add --password-stdin`). */
  readonly stdin?: string;
  /** Terminal width (default: not a terminal). */
  readonly columns?: number;
}

/** Run `svc-mcp ARGV` in-process, as the real process would, with its output captured. */
export async function runCli(argv: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: options.cwd ?? fixture("demo"),
    env: options.env ?? {},
    columns: options.columns,
    stopSignal: new Promise(() => {}),
    ...(options.stdin !== undefined ? { streams: { stdin: Readable.from([options.stdin]), stdout: process.stdout } } : {}),
  });
  return { code, stdout, stderr };
}
