/** What jq may see for one command. */
export interface JqRun {
    readonly args: readonly string[];
    /** Standard input's bytes. */
    readonly stdin: Uint8Array;
    /** The files jq may open, by absolute path: their bytes, "directory", or "notdir" (a path through a file: ENOTDIR). Every other path does not exist. */
    readonly files: ReadonlyMap<string, Uint8Array | "directory" | "notdir">;
    /** The shell's environment (`$ENV`, `env`). */
    readonly env: Readonly<Record<string, string>>;
    readonly cwd: string;
    /** Bytes of memory jq may grow to (`LIMITS.jq.maxMemoryBytes`): past it, exit 134. */
    readonly maxMemoryBytes: number;
    /** Bytes jq may write to stdout before it is stopped (`outputFull`). */
    readonly maxOutputBytes: number;
    /** Standard error goes where standard output goes, in order (`2>&1`). */
    readonly mergeStderr: boolean;
}
/** What jq did. */
export interface JqOutcome {
    readonly stdout: Uint8Array;
    readonly stderr: Uint8Array;
    readonly exitCode: number;
    /** jq wrote more than `maxOutputBytes` and was stopped there. */
    readonly outputFull: boolean;
}
/** Refuse a module that is not the jq.wasm this host was written for (a different jq-wasm build renames its imports). */
export declare function checkJqModule(module: WebAssembly.Module): void;
/** Compile jq.wasm's bytes (once per thread: the caller keeps the module). */
export declare function compileJq(bytes: Uint8Array<ArrayBuffer>): WebAssembly.Module;
/**
 * Run jq once, in a fresh instance of `module` (nothing of one command's memory is left for the
 * next), synchronously. Never throws for anything jq does: exit() is its status, abort() (its
 * memory past `run.maxMemoryBytes`) is 134 with a message, as a process killed by SIGABRT.
 */
export declare function runJq(module: WebAssembly.Module, run: JqRun): JqOutcome;
