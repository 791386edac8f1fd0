import type { Shell, ShellResult } from "./shell.js";

/**
 * A shell whose interpreter is loaded and built when it is first needed: by its first command,
 * or earlier by `prepare()`. Loading the interpreter (just-bash, our commands and their regular
 * expression engine: ~1.3 MB of the bundle, ~0.1 s of CPU) is the largest part of a stdio
 * server's start that answering `initialize` and `tools/list` does not need; `serve` prepares
 * the shell once it has answered `tools/list`, so the first command normally finds it built.
 */
export class LazyShell implements Shell {
  private loading: Promise<Shell> | undefined;

  /** `load` builds the shell (importing its modules); called at most once, unless it fails. */
  constructor(private readonly load: () => Promise<Shell>) {}

  /** Start loading the interpreter now, without waiting for it. */
  prepare(): void {
    // A failure is not lost: the next `run` loads again and its command reports the error.
    this.shell().catch(() => {});
  }

  async run(command: string, caller?: string, signal?: AbortSignal): Promise<ShellResult> {
    return (await this.shell()).run(command, caller, signal);
  }

  private shell(): Promise<Shell> {
    if (this.loading === undefined) {
      const loading = this.load();
      this.loading = loading;
      // Forget a failed load so that a later command tries again rather than failing for good.
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }
}
