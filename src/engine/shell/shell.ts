// What runs a command line for a reader, without its implementations: importing this module loads
// no interpreter (just-bash and our commands are ~1.3 MB of the bundle), so the runtime, the shell
// pool and the MCP tools can name a shell without loading one (`LazyShell`).
import type { LIMITS } from "../../limits.js";

/** The bounds of one call (LIMITS.shell by default; tests use small ones). */
export type ShellLimits = { readonly [K in keyof typeof LIMITS.shell]: number };

/** What one command line produced. */
export interface ShellResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** True when output was cut at the output cap (a note saying how to narrow is appended). */
  readonly truncated: boolean;
  /**
   * For the tool result, not the command's output (which stays exactly what GNU tools print):
   * the closest visible paths when the command named paths that do not exist.
   */
  readonly hint?: string;
}

/**
 * What stopped a command line before it ended by itself, as the shell that ran it knows it (never
 * read back from its stderr, which the command writes too): its work budget (`work-limit`), its
 * thread's CPU limit (`cpu-limit`), its own clock while it awaited (`clock`) or in a loop
 * (`deadline`), or its caller's cancellation (`cancel`). A shell worker's host replaces the worker
 * after `clock` or `deadline` only: work that ignored the abort may still be running there.
 */
export type ShellStop = "work-limit" | "cpu-limit" | "clock" | "deadline" | "cancel";

/** Runs one command line for one reader: `DocsShell` in this thread, or `WorkerShell` in the shell worker. */
export interface Shell {
  /**
   * Run one command line. `caller` says who asks (a token's subject, an anonymous client's
   * address): the shell pool shares its workers fairly between callers. A shell in this thread
   * serves one user and ignores it. `signal` aborts when the caller gives up (a dropped
   * request, a closed session, `notifications/cancelled`): the command stops and its place is
   * freed; what it resolves with then is read by no one.
   */
  run(command: string, caller?: string, signal?: AbortSignal): Promise<ShellResult>;
  /**
   * Make ready now what this reader's first command would otherwise wait for (its interpreter,
   * its view in the pool's workers): the reader whose commands come first (`DocsRuntime.prepareShell`).
   */
  prepare?(): void;
}

/** What a command stopped at the time limit prints last (also used when the shell worker had to be stopped). */
export function timeLimitMessage(maxExecutionMs: number): string {
  return `bash: command stopped after ${maxExecutionMs} ms (time limit)\n`;
}

/** What a command ended at its worker thread's CPU limit answers (exit 124): one step of it ran longer than the work budget can count. */
export function cpuLimitMessage(maxCpuMs: number): string {
  return `bash: command stopped after ${maxCpuMs} ms of CPU time (CPU limit: one step of it, such as a jq or regex operation on a huge value, was too costly for the work limit to count); narrow it\n`;
}

