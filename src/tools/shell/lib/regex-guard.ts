import { Worker } from "node:worker_threads";

/**
 * JS regexes backtrack: `(\w+\s?)+$` takes exponential time on a line it does not match, so
 * does `(\w|\w)+!` (two alternatives that match the same text), and `.*a.*b.*c` polynomial
 * time on a long line; a running regex cannot be interrupted, so it would hold its shell worker
 * until the host stops it. ripgrep and GNU grep use automata and never do this.
 *
 * A pattern that can backtrack badly (`isRisky`, regex-shape.ts) is first run over the same
 * texts in a worker thread with the call's remaining time; only if it finishes there does the
 * command run it. Other patterns (nearly all) take the direct path. Why not a linear-time engine for everything: re2js (what
 * just-bash's own awk, jq and `[[ =~ ]]` use) is 300-400x slower than V8 on plain searches of a
 * real site, and V8's `--enable-experimental-regexp-engine-on-excessive-backtracks` (Node 20)
 * never takes over a pattern with the `u` or `i` flag or a lookaround, which every translated
 * pattern has (figures in docs/shell.md, "Regular expressions").
 */

const PROBE = `
const { parentPort, workerData } = require("node:worker_threads");
const re = new RegExp(workerData.source, workerData.flags.includes("g") ? workerData.flags : workerData.flags + "g");
for (const text of workerData.texts) {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === "") re.lastIndex = m.index + 1;
  }
}
parentPort.postMessage("done");
`;

/**
 * Run every match of `regex` over `texts` in a worker; true when it finished within
 * `timeoutMs` (then the same search on the main thread is safe), false when it had to be stopped.
 */
export function probeRegex(regex: RegExp, texts: readonly string[], timeoutMs: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(PROBE, {
      eval: true,
      execArgv: [],
      workerData: { source: regex.source, flags: regex.flags, texts },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(false);
    }, Math.max(1, timeoutMs));
    worker.once("message", () => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(true);
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
