import { parse } from "node:path";

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

/** Set by the `--workers` primary for its worker processes: the folder the command was run in
 *  (each process starts in the file system's root, as the primary left it: `leaveWorkingFolder`). */
export const LAUNCH_CWD_ENV = "SVC_MCP_LAUNCH_CWD";

/**
 * The folder the command was run in, read once; the process then works from the file system's
 * root. A server started inside its docs folder (`cd docs && svc-mcp serve`) outlives that folder
 * when a deploy renames another over it (`mv release2 docs`): every worker thread started after
 * (the docs shell's, the page renderer's, the analysis workers') failed with `ENOENT: uv_cwd` as
 * Node resolved its working folder, and the shell and HTML pages answered "could not start" until
 * a restart (adversary round 61 F1). Every path a command uses is resolved against the folder
 * read here (`CliIO.cwd`), never against the process's.
 */
function leaveWorkingFolder(): string {
  const cwd = process.env[LAUNCH_CWD_ENV] ?? process.cwd();
  try {
    process.chdir(parse(cwd).root);
  } catch {
    // The folder stays as it was: only a replaced docs root then costs the workers.
  }
  return cwd;
}

/** The IO of the real process. */
export function processIO(): CliIO {
  const cwd = leaveWorkingFolder();
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
    cwd,
    env: process.env,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    get stopSignal() {
      return stop();
    },
    streams: { stdin: process.stdin, stdout: process.stdout },
  };
}
