import { Readable } from "node:stream";
import { main } from "../../src/cli/main.js";
import { fixture } from "./paths.js";

/** Run the CLI in-process with captured output. */
export async function runCli(argv: string[], options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: options.cwd ?? fixture("demo"),
    env: options.env ?? {},
    stopSignal: new Promise(() => {}),
    ...(options.stdin !== undefined ? { streams: { stdin: Readable.from([options.stdin]), stdout: process.stdout } } : {}),
  });
  return { code, stdout, stderr };
}
