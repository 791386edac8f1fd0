import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { READ_ONLY_COMMANDS } from "../../src/engine/shell/commands/read-only.js";
import { localContext } from "../../src/vfs/request-context.js";
import { REPO } from "./paths.js";
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

/** The real tools a live comparison needs beyond coreutils (.ci/run installs ripgrep and tree). */
const REAL_TOOLS = ["rg", "tree", "grep", "sed", "awk", "jq", "find"] as const;

/**
 * `SVC_FIDELITY_STOCK=1`: each case runs with just-bash's own version of its first command in
 * place of ours (the rest of the pipeline stays ours), to measure what each override wins
 * (issue 28 item 7; the tally is in docs/shell.md). A measurement: the failures are expected.
 */
const STOCK = process.env.SVC_FIDELITY_STOCK === "1";

/** `npm run record:fidelity`: run the real tools and write what they print into the repository. */
const RECORDING = process.env.SVC_RECORD_FIDELITY === "1";

/**
 * Every file's time is pinned (2024-03-01 plus a minute per file, in path order): outputs that
 * show times (`ls -l`, `stat`, `tree -D`, `find -newermt`) must be the same on every clone, and a
 * checkout's times are the time of the checkout. More than six months old, `ls -l` prints years.
 */
const PINNED_TIME_S = Date.UTC(2024, 2, 1, 9, 0, 0) / 1000;

/** A copy of `source` with pinned file times, for the docs shell and the disk copy alike. */
function pinnedCopy(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-fid-src-"));
  cpSync(source, dir, { recursive: true });
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as { name: string; parentPath: string; isFile(): boolean }[])
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
  files.forEach((rel, i) => utimesSync(join(dir, rel), PINNED_TIME_S + 60 * i, PINNED_TIME_S + 60 * i));
  return dir;
}

/** ripgrep on the real side sorts by path: the order our rg prints in (it never runs threads). */
function realCommand(c: FidelityCase): string {
  if (c.rgUnsorted === true) return c.cmd;
  return c.cmd.replace(/(^|[|;&] *)rg /g, "$1rg --sort path ");
}

function maskStat(text: string): string {
  return text.replace(/^Device: .*$/m, "Device: <masked>").replace(/^(Access|Change|Birth|\s+Birth): \d{4}-.*$/gm, "$1: <masked>");
}

/** Whether every tool a live comparison runs is installed here. */
function realToolsInstalled(): boolean {
  return REAL_TOOLS.every((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0);
}

/**
 * The jq the docs shell runs (jq 1.8.2 in WebAssembly, src/engine/shell/jq/): a case that runs jq
 * is compared live, and re-recorded, only where the installed jq is that version (Debian 12's is
 * 1.6, whose numbers, offsets and messages 1.8 changed); elsewhere its recording stands.
 */
const SHIPPED_JQ = "jq-1.8.2";

function installedJqIsShipped(): boolean {
  const r = spawnSync("jq", ["--version"], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() === SHIPPED_JQ;
}

const runsJq = (c: FidelityCase): boolean => /(^|[|;&(]\s*)jq\b/.test(c.cmd);

type Recordings = Record<string, RealResult>;

/**
 * A vitest suite: every case runs through the docs shell over `source` (anonymous reader), and
 * its stdout, stderr and exit code must equal what the real GNU tools, ripgrep 13 and tree 2.1
 * printed for it over a disk copy of exactly that view:
 * - recorded in `test/shell/recorded/<name>.json`, always (so the suite runs on machines without
 *   ripgrep or tree, with `source` a corpus inside the repository);
 * - and live, where the real tools are installed (required under CI=true, as .ci/run installs them).
 * `npm run record:fidelity` re-records, where the real tools are installed.
 */
export function fidelitySuite(title: string, name: string, source: () => string, cases: readonly FidelityCase[]): void {
  const file = join(REPO, "test", "shell", "recorded", `${name}.json`);
  let shell: Shell;
  let stockShell: ((cmd: string) => Shell) | undefined;
  let root: string | undefined;
  let disk: DiskCopy | undefined;
  let user = "root";
  let group = "root";
  let recorded: Recordings = {};
  const live = new Map<FidelityCase, Promise<RealResult>>();

  /** The owner a disk copy has is whoever runs the tests; the docs shell reports root. */
  const ownerAsRoot = (text: string): string => {
    if (user === "root" && group === "root") return text;
    return text.replace(new RegExp(` ${user} +${group} `, "g"), " root root ").replace(new RegExp(`\\b${user}\\b`, "g"), "root");
  };

  beforeAll(async () => {
    root = pinnedCopy(source());
    const runtime = await DocsRuntime.load({ root });
    const state = runtime.readerState(localContext());
    shell = state.shell;
    if (STOCK) {
      const view = state.view;
      const stock = new Map<string, Shell>();
      const ours = SHELL_COMMANDS.filter((make) => !READ_ONLY_COMMANDS.includes(make)).map((make) => make(view));
      const writes = READ_ONLY_COMMANDS.map((make) => make(view));
      stockShell = (cmd) => {
        const first = /^\s*(\S+)/.exec(cmd)?.[1] ?? "";
        if (!ours.some((c) => c.name === first)) return shell;
        let s = stock.get(first);
        if (s === undefined) stock.set(first, (s = new DocsShell(view, [...ours.filter((c) => c.name !== first), ...writes])));
        return s;
      };
    }
    recorded = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Recordings) : {};
    if (!realToolsInstalled()) {
      if (RECORDING || process.env.CI === "true") throw new Error(`the live fidelity comparison needs ${REAL_TOOLS.join(", ")} installed (.ci/run installs ripgrep and tree)`);
      return;
    }
    const copy = DiskCopy.of(state.view);
    disk = copy;
    user = execFileSync("id", ["-un"], { encoding: "utf8" }).trim();
    group = execFileSync("id", ["-gn"], { encoding: "utf8" }).trim();
    // Four real commands at a time: the suite's wall time is mostly process spawning.
    const queue = installedJqIsShipped() ? [...cases] : cases.filter((c) => !runsJq(c));
    const settle = new Map<FidelityCase, (r: RealResult) => void>();
    for (const c of queue) live.set(c, new Promise((resolve) => settle.set(c, resolve)));
    for (let k = 0; k < 4; k++) {
      void (async () => {
        for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
          const r = await copy.runAsync(realCommand(c));
          (settle.get(c) as (r: RealResult) => void)({ ...r, stdout: ownerAsRoot(r.stdout) });
        }
      })();
    }
  });

  afterAll(async () => {
    if (RECORDING && live.size > 0) {
      const out: Recordings = {};
      for (const c of cases) out[c.cmd] = (await live.get(c)) ?? (recorded[c.cmd] as RealResult);
      writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
    }
    disk?.cleanup();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  describe(title, () => {
    if (!RECORDING) {
      it(`has a recording of every case and of nothing else (npm run record:fidelity writes ${relative(REPO, file)})`, () => {
        expect({ missing: cases.map((c) => c.cmd).filter((cmd) => recorded[cmd] === undefined), stale: Object.keys(recorded).filter((cmd) => !cases.some((c) => c.cmd === cmd)) }).toEqual({
          missing: [],
          stale: [],
        });
      });
    }
    for (const c of cases) {
      it(c.cmd, async () => {
        const ours = await (stockShell?.(c.cmd) ?? shell).run(c.cmd);
        const sortLines = (s: string) => s.split("\n").sort().join("\n");
        const pick = (r: RealResult) => ({ stdout: c.anyOrder ? sortLines(r.stdout) : c.statDefault ? maskStat(r.stdout) : r.stdout, stderr: r.stderr, exitCode: r.exitCode });
        if (!RECORDING) {
          const real = recorded[c.cmd];
          expect(real, "no recorded output for this command: run npm run record:fidelity").toBeDefined();
          expect(pick(ours)).toEqual(pick(real as RealResult));
        }
        const real = live.get(c);
        if (real !== undefined) expect(pick(ours)).toEqual(pick(await real));
        expect(ours.truncated).toBe(false);
      });
    }
  });
}
