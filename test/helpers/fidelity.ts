import { execFileSync, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/tools/runtime.js";
import type { Shell } from "../../src/tools/shell/docs-shell.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { DiskCopy, type RealResult } from "./real-tools.js";

/** One command line run through the docs shell and through the real tools. */
export interface FidelityCase {
  readonly cmd: string;
  /** Compare stdout as sorted lines (the real tool prints in directory order). */
  readonly anyOrder?: boolean;
  /** Run the real rg without `--sort path` (its errors differ in sorted mode). */
  readonly rgUnsorted?: boolean;
  /** Mask what a disk copy cannot share with a virtual filesystem (device, inode, ctime...). */
  readonly statDefault?: boolean;
}

/** ripgrep on the real side sorts by path: the order our rg prints in (it never runs threads). */
function realCommand(c: FidelityCase): string {
  if (c.rgUnsorted === true) return c.cmd;
  return c.cmd.replace(/(^|[|;&] *)rg /g, "$1rg --sort path ");
}

function maskStat(text: string): string {
  return text.replace(/^Device: .*$/m, "Device: <masked>").replace(/^(Access|Change|Birth|\s+Birth): \d{4}-.*$/gm, "$1: <masked>");
}

/**
 * A vitest suite: every case runs through the docs shell over `root` (anonymous reader) and
 * through the real GNU tools, ripgrep and tree over a disk copy of exactly that view; stdout,
 * stderr and exit code must be equal.
 */
export function fidelitySuite(title: string, root: () => string, cases: readonly FidelityCase[]): void {
  let shell: Shell;
  let disk: DiskCopy | undefined;
  let user = "root";
  let group = "root";
  const realResults = new Map<FidelityCase, Promise<RealResult>>();

  beforeAll(async () => {
    for (const tool of ["rg", "tree", "grep", "sed", "awk", "jq", "find"]) {
      if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) {
        throw new Error(`the fidelity suite needs the real ${tool} installed (.ci/run installs ripgrep and tree)`);
      }
    }
    const runtime = await DocsRuntime.load({ root: root() });
    const state = runtime.readerState(ANONYMOUS);
    shell = state.shell;
    const copy = DiskCopy.of(state.view);
    disk = copy;
    user = execFileSync("id", ["-un"], { encoding: "utf8" }).trim();
    group = execFileSync("id", ["-gn"], { encoding: "utf8" }).trim();
    // Four real commands at a time: the suite's wall time is mostly process spawning.
    const queue = [...cases];
    const settle = new Map<FidelityCase, (r: RealResult) => void>();
    for (const c of queue) realResults.set(c, new Promise((resolve) => settle.set(c, resolve)));
    for (let k = 0; k < 4; k++) {
      void (async () => {
        for (let c = queue.shift(); c !== undefined; c = queue.shift()) (settle.get(c) as (r: RealResult) => void)(await copy.runAsync(realCommand(c)));
      })();
    }
  }, 60_000);

  afterAll(() => disk?.cleanup());

  /** The owner a disk copy has is whoever runs the tests; the docs shell reports root. */
  const ownerAsRoot = (text: string): string => {
    if (user === "root" && group === "root") return text;
    return text.replace(new RegExp(` ${user} +${group} `, "g"), " root root ").replace(new RegExp(`\\b${user}\\b`, "g"), "root");
  };

  describe(title, () => {
    for (const c of cases) {
      it(c.cmd, async () => {
        const ours = await shell.run(c.cmd);
        const real = await (realResults.get(c) as Promise<RealResult>);
        const sortLines = (s: string) => s.split("\n").sort().join("\n");
        const pick = (s: string) => (c.anyOrder ? sortLines(s) : c.statDefault ? maskStat(s) : s);
        expect({ stdout: pick(ours.stdout), stderr: ours.stderr, exitCode: ours.exitCode }).toEqual({
          stdout: pick(ownerAsRoot(real.stdout)),
          stderr: real.stderr,
          exitCode: real.exitCode,
        });
        expect(ours.truncated).toBe(false);
      });
    }
  });
}
