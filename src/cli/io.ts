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
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands await it.
   *  Reading it takes the signals over from their default (ending the process at once): read it
   *  once there is something to drain, not before a long load. Wrappers must keep it a getter. */
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
  // The handlers are installed when a command first asks for the signal, once it has something
  // to drain (a server listening): before that, SIGINT or SIGTERM ends the process at once, as
  // by default, so Ctrl-C while a large site loads stops it there, not after the load.
  let stopSignal: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopSignal ??= new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    }));
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
    get stopSignal() {
      return stop();
    },
    streams: { stdin: process.stdin, stdout: process.stdout },
  };
}
