/**
 * What a CLI command may touch: its output streams, working folder and environment. Passed in
 * (never read from globals) so every command runs in-process in tests.
 */
export interface CliIO {
  /** Writes to standard output. In `serve` (stdio) mode only the MCP transport writes here. */
  readonly stdout: (text: string) => void;
  /** Writes to standard error: logs, progress, warnings. */
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The terminal's width when stdout is one (help is wrapped to it). */
  readonly columns?: number | undefined;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands await it. */
  readonly stopSignal: Promise<void>;
  /** The raw streams, for the stdio MCP transport (absent when run in-process by tests). */
  readonly streams?: { readonly stdin: NodeJS.ReadableStream; readonly stdout: NodeJS.WritableStream };
}

/** A user's mistake on the command line: printed as `svc-mcp: <message>`, exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** The IO of the real process. */
export function processIO(): CliIO {
  const stopSignal = new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  // `svc-mcp nav | head` closes our stdout early: stop writing instead of crashing on EPIPE.
  let stdoutOpen = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    stdoutOpen = false;
  });
  return {
    stdout: (text) => void (stdoutOpen && process.stdout.write(text)),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    stopSignal,
    streams: { stdin: process.stdin, stdout: process.stdout },
  };
}
