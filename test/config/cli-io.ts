import { fileURLToPath } from "node:url";
import { main } from "../../src/cli/main.js";
import type { CliIO } from "../../src/cli/io.js";

/** The repository root and the shared corpora (env `SVC_SHARED` overrides). */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../../shared", import.meta.url));
export const CORPORA = ["cline", "open-wearables", "spree"] as const;

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `svc-mcp ARGS` in-process with captured output. */
export async function runCli(argv: readonly string[], cwd = REPO): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env: {},
    stopSignal: new Promise(() => {}),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
