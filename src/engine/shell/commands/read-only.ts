import type { SiteView } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, lookup } from "../lib/files.js";
import type { ShellCommandFactory } from "./command.js";

/**
 * Commands that would change files. The docs are read-only for every reader: each fails with
 * the message its GNU version prints on a read-only file system (exit 1), and changes nothing.
 */

function split(args: readonly string[]): { flags: string; operands: string[] } {
  let flags = "";
  const operands: string[] = [];
  let done = false;
  for (const a of args) {
    if (!done && a === "--") done = true;
    else if (!done && a.startsWith("-") && a.length > 1) flags += a.startsWith("--") ? ` ${a} ` : a.slice(1);
    else operands.push(a);
  }
  return { flags, operands };
}

function exists(io: CommandIo, operand: string): "file" | "dir" | false {
  const e = lookup(io.view, io.cwd, operand, io.piped);
  return e.kind === "file" || e.kind === "device" ? "file" : e.kind === "dir" ? "dir" : false;
}

function missingOperand(io: CommandIo): number {
  io.fail("missing operand");
  io.out.error(`Try '${io.name} --help' for more information.\n`);
  return 1;
}

type Run = (io: CommandIo, flags: string, operands: string[], args: readonly string[]) => number;

const RUNS: Readonly<Record<string, Run>> = {
  touch: (io, _f, ops) => {
    for (const o of ops) io.fail(`cannot touch '${o}': ${ERRNO.EROFS}`);
    return 1;
  },
  mkdir: (io, _f, ops) => {
    for (const o of ops) io.fail(`cannot create directory '${o}': ${exists(io, o) ? "File exists" : ERRNO.EROFS}`);
    return 1;
  },
  rmdir: (io, _f, ops) => {
    for (const o of ops) io.fail(`failed to remove '${o}': ${exists(io, o) ? ERRNO.EROFS : ERRNO.ENOENT}`);
    return 1;
  },
  rm: (io, flags, ops) => {
    const force = flags.includes("f") || flags.includes(" --force ");
    const recursive = /[rR]/.test(flags.replace(/ --\S+ /g, "")) || flags.includes(" --recursive ");
    let status = 0;
    for (const o of ops) {
      const kind = exists(io, o);
      if (kind === false) {
        if (!force) {
          io.fail(`cannot remove '${o}': ${ERRNO.ENOENT}`);
          status = 1;
        }
        continue;
      }
      io.fail(`cannot remove '${o}': ${kind === "dir" && !recursive ? ERRNO.EISDIR : ERRNO.EROFS}`);
      status = 1;
    }
    return ops.length === 0 && !force ? missingOperand(io) : status;
  },
  cp: (io, _f, ops) => {
    if (ops.length < 2) return missingOperand(io);
    const target = ops[ops.length - 1] as string;
    for (const src of ops.slice(0, -1)) {
      if (!exists(io, src)) io.fail(`cannot stat '${src}': ${ERRNO.ENOENT}`);
      else io.fail(`cannot create regular file '${target}': ${ERRNO.EROFS}`);
    }
    return 1;
  },
  mv: (io, _f, ops) => {
    if (ops.length < 2) return missingOperand(io);
    const target = ops[ops.length - 1] as string;
    for (const src of ops.slice(0, -1)) {
      if (!exists(io, src)) io.fail(`cannot stat '${src}': ${ERRNO.ENOENT}`);
      else io.fail(`cannot move '${src}' to '${target}': ${ERRNO.EROFS}`);
    }
    return 1;
  },
  ln: (io, flags, ops) => {
    if (ops.length === 0) return missingOperand(io);
    const symbolic = flags.includes("s") || flags.includes(" --symbolic ");
    const target = ops.length === 1 ? (ops[0] as string).slice((ops[0] as string).lastIndexOf("/") + 1) : (ops[ops.length - 1] as string);
    const source = ops[0] as string;
    io.fail(symbolic ? `failed to create symbolic link '${target}': ${ERRNO.EROFS}` : `failed to create hard link '${target}' => '${source}': ${ERRNO.EROFS}`);
    return 1;
  },
  chmod: (io, _f, ops) => {
    if (ops.length < 2) return missingOperand(io);
    for (const o of ops.slice(1)) {
      io.fail(exists(io, o) ? `changing permissions of '${o}': ${ERRNO.EROFS}` : `cannot access '${o}': ${ERRNO.ENOENT}`);
    }
    return 1;
  },
  split: (io, _f, _ops, args) => {
    // -l/-b/-C/-n/-a/-d take values; the operands are INPUT and PREFIX.
    const ops: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (/^-[lbCna]$/.test(a)) i++;
      else if (!a.startsWith("-") || a === "-") ops.push(a);
    }
    const input = ops[0] ?? "-";
    if (input !== "-" && !exists(io, input)) {
      io.fail(`cannot open '${input}' for reading: ${ERRNO.ENOENT}`);
      return 1;
    }
    io.fail(`cannot open '${ops[1] ?? "x"}aa' for writing: ${ERRNO.EROFS}`);
    return 1;
  },
  tee: (io, _f, ops) => {
    // tee still copies its input to stdout; only the files fail.
    io.out.write(io.stdin());
    for (const o of ops) if (o !== "/dev/null" && o !== "-") io.fail(`${o}: ${ERRNO.EROFS}`);
    return ops.some((o) => o !== "/dev/null" && o !== "-") ? 1 : 0;
  },
};

function readOnlySpec(_view: SiteView, name: string, run: Run) {
  return {
    name,
    help: `Usage: ${name} ...\nThe docs are a read-only filesystem: ${name} reports "Read-only file system" and changes nothing.\n`,
    run: (args: string[], io: CommandIo) => {
      const { flags, operands } = split(args);
      return run(io, flags, operands, args);
    },
  };
}

/** One factory per write command. */
export const READ_ONLY_COMMANDS: readonly ShellCommandFactory[] = Object.entries(RUNS).map(
  ([name, run]) =>
    (view: SiteView) =>
      docsCommand(view, readOnlySpec(view, name, run)),
);
