import { Worker } from "node:worker_threads";

/**
 * JS regexes backtrack: `(\w+\s?)+$` takes exponential time on a line it does not match, and
 * `.*a.*b.*c` polynomial time on a long line, and a running regex cannot be interrupted, so it
 * would hold the server past any deadline. ripgrep and GNU grep use automata and never do this.
 *
 * A pattern that can backtrack badly (a repeated group that itself repeats, or two or more
 * unbounded repeats of "anything"-like atoms) is first run over the same texts in a worker
 * thread with the call's remaining time; only if it finishes there does the command run it.
 * Other patterns (nearly all) take the direct path.
 */

/** Whether a JS regex source can take more than about quadratic time on a line. */
export function isRisky(source: string): boolean {
  // Per open group: whether it contains an unbounded repeat.
  const groups: boolean[] = [];
  let wideRepeats = 0;
  let lastAtom: { wide: boolean; innerUnbounded: boolean } | undefined;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1];
      i++;
      // \p{...}, \u{...}, \x{...}: skip the braces, they are not a repeat.
      if ((next === "p" || next === "P" || next === "u") && source[i + 1] === "{") i = source.indexOf("}", i);
      lastAtom = { wide: next === "S" || next === "W" || next === "D", innerUnbounded: false };
      continue;
    }
    if (c === "[") {
      const negated = source[i + 1] === "^";
      let k = i + 1;
      for (; k < source.length && source[k] !== "]"; k++) if (source[k] === "\\") k++;
      i = k;
      lastAtom = { wide: negated, innerUnbounded: false };
      continue;
    }
    if (c === "(") {
      groups.push(false);
      // Skip the group's `?:`, `?=`, `?<!`, `?<name>` prefix.
      if (source[i + 1] === "?") {
        const m = /^\?(?:<[A-Za-z_]\w*>|<[=!]|[:=!])/.exec(source.slice(i + 1));
        if (m !== null) i += m[0].length;
      }
      lastAtom = undefined;
      continue;
    }
    if (c === ")") {
      const inner = groups.pop() ?? false;
      lastAtom = { wide: false, innerUnbounded: inner };
      continue;
    }
    const repeat = /^(?:[*+]|\{\d+,\d*\})/.exec(source.slice(i));
    if (repeat !== null && lastAtom !== undefined) {
      const unbounded = repeat[0] === "*" || repeat[0] === "+" || /,\}$/.test(repeat[0]);
      const many = repeat[0] !== "{0,1}" && !/^\{\d+,1\}$/.test(repeat[0]);
      if (lastAtom.innerUnbounded && many) return true; // (a+)+ and friends
      if (unbounded) {
        if (lastAtom.wide) wideRepeats++;
        if (groups.length > 0) groups[groups.length - 1] = true;
      }
      i += repeat[0].length - 1;
      if (source[i + 1] === "?") i++;
      continue;
    }
    if (c === "?" || c === "|" || c === "^" || c === "$") continue;
    lastAtom = { wide: false, innerUnbounded: false };
  }
  return wideRepeats >= 2;
}

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
