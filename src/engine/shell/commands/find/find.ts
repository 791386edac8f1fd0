import { type CommandIo, docsCommand } from "../../lib/command.js";
import { ERRNO, joinDisplay, joinPath, lookup } from "../../lib/files.js";
import { commandNotFound, runSubcommand } from "../../lib/subcommand.js";
import type { ShellCommandFactory } from "../command.js";
import { type Ctx, type Env, type ExecNode, FindError, type Node } from "./expression.js";
import { Parser } from "./parser.js";
import { appendAll } from "../../../../arrays.js";

const HELP = `Usage: find [-H] [-L] [-P] [path...] [expression]
Search the docs for files and folders (GNU findutils 4.9 compatible, read-only docs shell).
Entries are visited depth-first with each folder's entries in name (byte) order.

Options:     -maxdepth N  -mindepth N  -depth  (-follow -xdev -noleaf: accepted)
Tests:       -name GLOB  -iname GLOB  -path GLOB  -ipath GLOB  -wholename GLOB
             -regex RE  -iregex RE (the whole path; emacs syntax as GNU find:
             \\(a\\|b\\), +, ?)  -regextype posix-extended|posix-basic|emacs|...
             -type f|d  -xtype f|d  -size [+-]N[ckMG]  -empty  -newer FILE
             -newermt DATE  -newerXY REF  -mtime/-atime/-ctime [+-]N  -mmin/-amin/-cmin [+-]N
             -perm [-/]MODE  -user NAME  -group NAME  -uid N  -gid N  -links N  -inum N
             -samefile FILE  -nouser  -nogroup  -lname GLOB  -true  -false  -readable
Actions:     -print  -print0  -printf FORMAT  -ls  -prune  -quit
             -exec COMMAND {} ;  -exec COMMAND {} +  (-delete fails: read-only)
Operators:   ( EXPR )  ! EXPR  -not EXPR  EXPR -a EXPR  EXPR -o EXPR  EXPR , EXPR

-printf directives: %p %P %f %h %s %k %d %y %m %M %n %u %g %i %t %a %c %TY %Tm %Td %TH %TM %TS %%
and escapes \\n \\t \\0. Times are UTC; access and change times equal the modification time.
`;

async function evaluate(node: Node, c: Ctx, env: Env): Promise<boolean> {
  switch (node.op) {
    case "and":
      return (await evaluate(node.left, c, env)) && evaluate(node.right, c, env);
    case "or":
      return (await evaluate(node.left, c, env)) || evaluate(node.right, c, env);
    case "comma":
      await evaluate(node.left, c, env);
      return evaluate(node.right, c, env);
    case "not":
      return !(await evaluate(node.expr, c, env));
    case "test":
      return node.test(c, env);
    case "exec": {
      const { dir, name } = execTarget(node, c);
      if (node.batch) {
        const pending = env.batches.get(node);
        if (pending !== undefined && pending.dir === dir) pending.names.push(name);
        else {
          if (pending !== undefined) await flushBatch(node, pending, env);
          env.batches.set(node, { dir, names: [name] });
        }
        return true;
      }
      return runExec(node.command.map((w) => w.replaceAll("{}", name)), dir, env);
    }
  }
}

async function flushBatch(node: ExecNode, batch: { dir: string; names: readonly string[] }, env: Env): Promise<void> {
  const words: string[] = [];
  for (const w of node.command) {
    if (w === "{}") appendAll(words, batch.names);
    else words.push(w);
  }
  if (!(await runExec(words, batch.dir, env))) env.status = 1;
}

/** Where an exec runs and what `{}` is: the path as printed, or for -execdir `./NAME` in its folder. */
function execTarget(node: ExecNode, c: Ctx): { dir: string; name: string } {
  if (!node.inDir) return { dir: "", name: c.display };
  if (c.path === "/") return { dir: "/", name: "/" };
  const slash = c.path.lastIndexOf("/");
  return { dir: slash === 0 ? "/" : c.path.slice(0, slash), name: `./${c.path.slice(slash + 1)}` };
}

async function runExec(words: readonly string[], dir: string, env: Env): Promise<boolean> {
  const r = await runSubcommand(env.io, words, dir === "" ? undefined : dir);
  env.io.out.write(r.stdout);
  if (commandNotFound(r)) env.io.fail(`\u2018${words[0] ?? ""}\u2019: ${ERRNO.ENOENT}`);
  else if (r.stderr !== "") env.io.out.error(r.stderr);
  return r.exitCode === 0;
}

async function runFind(args: string[], io: CommandIo): Promise<number> {
  // Leading options (-H -L -P) then paths, up to the first word that starts an expression.
  let k = 0;
  while (k < args.length && /^-[HLP]+$/.test(args[k] as string)) k++;
  if (args[k] === "--") k++;
  const paths: string[] = [];
  while (k < args.length) {
    const a = args[k] as string;
    if (a.startsWith("-") && a.length > 1) break;
    if (a === "(" || a === "!" || a === ",") break;
    paths.push(a);
    k++;
  }
  const parser = new Parser(args.slice(k), io);
  let expr: Node | undefined;
  try {
    expr = parser.parse();
  } catch (error) {
    if (error instanceof FindError) {
      io.fail(error.message);
      return 1;
    }
    throw error;
  }
  // Without an action, find prints every entry for which the expression is true.
  const root: Node =
    expr === undefined
      ? { op: "test", name: "-print", test: (c, env) => env.io.out.write(`${c.display}\n`) || true, action: true }
      : parser.hasAction
        ? expr
        : { op: "and", left: expr, right: { op: "test", name: "-print", test: (c, env) => env.io.out.write(`${c.display}\n`) || true, action: true } };
  const env: Env = { io, prune: false, quit: false, batches: new Map(), status: 0 };
  const starts = paths.length > 0 ? paths : ["."];

  const visit = async (path: string, display: string, start: string, depth: number): Promise<void> => {
    if (env.quit || io.out.full) return;
    io.checkTime();
    const info = io.view.info(path);
    if (info === undefined) return;
    const c: Ctx = { path, display, start, depth, info };
    env.prune = false;
    const inRange = depth >= parser.minDepth && depth <= parser.maxDepth;
    if (!parser.depthFirst && inRange) await evaluate(root, c, env);
    const pruned = env.prune;
    if (info.kind === "dir" && !pruned && depth < parser.maxDepth) {
      for (const name of io.view.childrenOf(path) ?? []) {
        await visit(joinPath(path, name), joinDisplay(display, name), start, depth + 1);
        if (env.quit) return;
      }
    }
    if (parser.depthFirst && inRange) await evaluate(root, c, env);
  };

  for (const start of starts) {
    const entry = lookup(io.view, io.cwd, start, io.piped);
    if (entry.kind === "missing" || entry.kind === "notdir") {
      io.fail(`\u2018${start}\u2019: ${entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT}`);
      env.status = 1;
      continue;
    }
    if (entry.kind === "device") continue;
    await visit(entry.path, start, start, 0);
    if (env.quit) break;
  }
  for (const [node, batch] of env.batches) await flushBatch(node, batch, env);
  return env.status;
}

export const findCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "find", help: HELP, run: runFind, usageExitCode: 1 });
