import { posix } from "node:path";
import { type Command, type CommandContext, bytesOutput, latin1FromBytes, unsafeBytesFromLatin1 } from "just-bash";
import { LIMITS } from "../../../limits.js";
import { runJqInThread } from "../jq/jq-in-thread.js";
import { jqModule } from "../jq/jq-module.js";
import type { JqRun } from "../jq/wasm-host.mjs";
import { MERGE_STDERR_ENV } from "../merge-stderr.js";
import { JQ_START_STEPS, callCpuOf, chargeableOf, stepsForBytes } from "../work-budget.js";
import type { ShellCommandFactory } from "./command.js";

/** Longest argument taken for a path jq might open: PATH_MAX. */
const PATH_MAX = 4096;

/**
 * jq is the real jq (1.8, compiled to WebAssembly: `jq/wasm-host.ts`), issue 25: just-bash's
 * reimplementation answered common idioms wrongly (`del(.a, .b)`, `.a.b = 1` on `{}`,
 * destructuring, `@sh`, `%`...) and took quadratic time where jq takes linear.
 *
 * jq sees only the reader's view: every argument that names a file or directory there is read
 * beforehand (through `ctx.fs`, charged to the call's work budget) and handed to jq, which can
 * open nothing else (a path outside the view, or a page hidden from the reader, is "No such
 * file"). Its environment is the shell's exported one, never the process's.
 *
 * jq runs in a thread of its own (`jq-in-thread.ts`), in a shell worker too: ended alone at the
 * CPU limit (`place.maxCpuMs`) or when the caller gives the call up, while the shell's thread
 * stays free to hear that and goes on with the next command (issue 25: run in a shell worker's
 * own thread, a cancelled jq held it until the pool ended the whole worker).
 */
export const jqCommand: ShellCommandFactory = (_view, place): Command => ({
  name: "jq",
  async execute(args: string[], ctx: CommandContext) {
    // jq's own test runner starts threads the WebAssembly build has not: it failed an assertion
    // and was reported as the memory cap (adversary round 34 F5). It tests jq, not the docs.
    const options = args.indexOf("--");
    if ((options === -1 ? args : args.slice(0, options)).includes("--run-tests")) {
      return { stdout: "", stderr: "jq: --run-tests is not available in the docs shell (it tests jq itself)\n", exitCode: 2 };
    }
    const stdin = Buffer.from(latin1FromBytes(ctx.stdin), "latin1");
    const budget = chargeableOf(ctx.coverage);
    // Its start is work as its input is (`JQ_START_STEPS`): a loop of jq calls ends at the work
    // limit, at the same pass on any machine (issue 25, adversary round 35 F2).
    budget?.charge("jq:start", JQ_START_STEPS);
    budget?.charge("jq:stdin", stepsForBytes(stdin.length));
    const mergeStderr = ctx.env.get(MERGE_STDERR_ENV) === "1";
    const env: Record<string, string> = { ...(ctx.exportedEnv ?? {}) };
    delete env[MERGE_STDERR_ENV];
    const run: JqRun = {
      args,
      stdin,
      files: await namedFiles(args, ctx),
      env,
      cwd: ctx.cwd,
      maxMemoryBytes: LIMITS.jq.maxMemoryBytes,
      maxOutputBytes: Math.min(ctx.limits?.maxOutputSize ?? LIMITS.shell.maxInternalOutputBytes, LIMITS.shell.maxInternalOutputBytes),
      mergeStderr,
    };
    // The pool's limit in a shell worker; else the call's own (before, jq in this thread took
    // the default 5 s whatever the shell's limit: issue 25, a loop of jq runs that a shell with
    // an hour of CPU ends by its count answered the CPU limit on a busy machine instead).
    const cpu = callCpuOf(ctx.coverage);
    const outcome = await runJqInThread(jqModule(), run, ctx.signal, place?.maxCpuMs ?? cpu?.maxCpuMs, cpu);
    const stdout = Buffer.from(outcome.stdout);
    let stderr = Buffer.from(outcome.stderr).toString("utf8");
    let exitCode = outcome.exitCode;
    let latin1 = stdout.toString("latin1");
    if (outcome.outputFull) {
      const note = `jq: output stopped after ${LIMITS.shell.maxInternalOutputBytes} bytes (limit); narrow the command\n`;
      if (mergeStderr) latin1 += note;
      else stderr += note;
      if (exitCode === 0) exitCode = 2;
    }
    budget?.charge("jq:stdout", stepsForBytes(latin1.length));
    return { ...bytesOutput(unsafeBytesFromLatin1(latin1)), stderr, exitCode };
  },
});

/**
 * The files and directories the arguments name in the reader's view, by absolute path. Every
 * argument is tried (the filter and option values too: jq's own parsing decides which it opens,
 * and a name that is not a path costs one lookup), so jq reads FILE operands, `--slurpfile`,
 * `--rawfile` and `-f` files from the view alone.
 */
async function namedFiles(args: readonly string[], ctx: CommandContext): Promise<Map<string, Uint8Array | "directory" | "notdir">> {
  const files = new Map<string, Uint8Array | "directory" | "notdir">();
  for (const a of args) {
    if (a === "" || a.length > PATH_MAX || a.includes("\0") || a.includes("\n")) continue;
    const path = ctx.fs.resolvePath(ctx.cwd, a);
    if (files.has(path)) continue;
    try {
      const stat = await ctx.fs.stat(path);
      if (stat.isDirectory) files.set(path, "directory");
      else if (stat.isFile) files.set(path, await ctx.fs.readFileBuffer(path));
    } catch (error) {
      // A path through a file (`/a.mdx/.`, SiteView.resolve): jq says "Not a directory", under
      // the host's normalised key (`/a.mdx/`). Anything else not in the view: jq says "No such
      // file or directory" if it opens it.
      const key = posix.normalize(path);
      if ((error as { code?: unknown }).code === "ENOTDIR" && !files.has(key)) files.set(key, "notdir");
    }
  }
  return files;
}
