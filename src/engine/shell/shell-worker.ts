import { parentPort, workerData } from "node:worker_threads";
import { DefenseInDepthBox } from "just-bash";
import { ALL_ACCESS } from "../../vfs/access.js";
import type { SiteFile } from "../../vfs/site-file.js";
import { SiteView } from "../../vfs/view.js";
import { SHELL_COMMANDS } from "./commands/index.js";
import { DocsShell, loadCoverageModule } from "./docs-shell.js";
import { interruptibleController } from "./interruptible-signal.js";
import { CallCpu } from "./call-cpu.js";
import { countJqRuns } from "./jq/jq-in-thread.js";
import { ownThreadId } from "./thread-cpu.js";
import type { ShellResult, ShellStop } from "./shell.js";
import { type DecodedTable, decodeSnapshotTable } from "./shared-snapshot.js";
import type { ExtraFile, FromWorker, ShellWorkerData, ToWorker } from "./shell-host.js";

/**
 * The shell worker (see `ShellHost`): runs docs-shell commands off the main thread. It holds
 * the snapshots the host gives it (shared, encoded once in the main thread: `shared-snapshot.ts`;
 * the host says which to drop) and one `DocsShell` per registered reader view, and answers
 * every `run` with a `result` (or `missing` when it has no such view, and the host registers
 * it again).
 */

/** Reader views kept (the runtime caches 256 readers per snapshot; a view evicted here is re-sent). */
const MAX_VIEWS = 512;
/** Files views share that are not a snapshot's own (readers' variants): one per access class and file. */
const MAX_EXTRAS = 1024;

const port = parentPort;
if (port === null) throw new Error("shell-worker runs as a worker thread (see ShellHost)");

// Taken before the box below blocks `Atomics` for the commands it runs: the interrupt check
// (`interruptibleController`) is ours, and runs while a command does.
const atomicsLoad = Atomics.load;
const atomicsStore = Atomics.store;

// just-bash's defence-in-depth patches ~60 globals when its first execution starts and restores
// them when its last one ends: ~1-2 ms per call when calls do not overlap. This thread runs
// nothing but the shell, so it keeps the protection on for its whole life instead; every call
// still runs in its own sandboxed context.
DefenseInDepthBox.getInstance(true).activate();

const { limits, maxCpuMs, loadGate, jqRuns, interrupt, helperCpu } = workerData as ShellWorkerData;
if (jqRuns !== undefined) countJqRuns(jqRuns);
// What the running call's jq threads use, where the host reads it for its trial (`ShellWorkerData.helperCpu`).
CallCpu.onHelpers = (helpersMs, liveTid, liveStartMs) => {
  atomicsStore(helperCpu, 1, 0);
  atomicsStore(helperCpu, 0, Math.round(helpersMs));
  atomicsStore(helperCpu, 2, Math.round(liveStartMs));
  atomicsStore(helperCpu, 1, liveTid);
};
/** The running calls' controllers, by call id (a `cancel` aborts one where it awaits). */
const running = new Map<number, AbortController>();
/** Each snapshot's files, by table position. */
const sites = new Map<number, readonly SiteFile[]>();
/** Snapshots given before their texts (`complete: false`): their tables, which `texts` completes. */
const awaitingTexts = new Map<number, DecodedTable>();
const views = new Map<number, DocsShell>();
/** The snapshot of each view. */
const viewSites = new Map<number, number>();
const extras = new Map<number, SiteFile>();

function post(message: FromWorker): void {
  port?.postMessage(message);
}

/** Keep at most `max` entries, dropping the least recently used (Map order). */
function trim<K, V>(map: Map<K, V>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done === true) return;
    map.delete(oldest.value);
  }
}

/** Tests only (`ShellHostOptions.loadGate`): wait until the test opens the gate; end here if it asks for a crash. */
function passGate(): void {
  if (loadGate === undefined) return;
  Atomics.wait(loadGate, 0, 0);
  if (Atomics.sub(loadGate, 1, 1) > 0) process.exit(1);
}

/** Build a reader's view; false when a file it names is gone (the host sends it again on `missing`). */
function registerView(sid: number, vid: number, positions: Int32Array, extra: readonly ExtraFile[]): boolean {
  const files = sites.get(sid);
  if (files === undefined) return false;
  const visible = new Map<string, SiteFile>();
  for (const at of positions) {
    const file = files[at];
    if (file === undefined) return false;
    visible.set(file.path, file);
  }
  for (const e of extra) {
    const file = e.file ?? extras.get(e.id);
    // Dropped here (the table is bounded): the run answers `missing` and the host sends it again.
    if (file === undefined) return false;
    extras.delete(e.id);
    extras.set(e.id, file);
    visible.set(file.path, file);
  }
  trim(extras, MAX_EXTRAS);
  // The main thread decided what this reader sees; here every listed file is visible.
  const view = new SiteView({ files: visible, pages: new Map() }, ALL_ACCESS, "public");
  // The view indexes its files itself (by path, and sorted); this map, kept as its `site.files`,
  // would be a second index of every path, ~1.8 MB per view on a 50,000-page site (issue 22).
  // Nothing in a worker reads a view's `site`, which only the main thread's skill page uses.
  visible.clear();
  // Its folders made now, as the view is (a view makes them at first use): not by the first command.
  view.isDir("/");
  // The host keeps the time (it ends a worker stuck past the limit); commands here check only
  // the caller's cancellation and the work budget as they loop. jq's own thread gets the pool's
  // CPU limit: the host reads this thread's CPU, not that one's, so jq counts its thread's CPU
  // with this thread's for the call (`CallCpu`) and ends the call at the same limit.
  views.set(vid, new DocsShell(view, SHELL_COMMANDS.map((make) => make(view, { maxCpuMs })), limits, false));
  viewSites.set(vid, sid);
  trim(views, MAX_VIEWS);
  for (const v of viewSites.keys()) if (!views.has(v)) viewSites.delete(v);
  return true;
}

async function run(id: number, vid: number, command: string): Promise<void> {
  const shell = views.get(vid);
  if (shell === undefined) {
    post({ t: "missing", id });
    return;
  }
  views.delete(vid);
  views.set(vid, shell);
  post({ t: "started", id });
  // Given up, the host writes this call's id into `interrupt`: the command stops at the
  // interpreter's next check, even in synchronous code, where no message can reach this thread.
  const controller = interruptibleController(() => atomicsLoad(interrupt, 0) === id);
  running.set(id, controller);
  let result: ShellResult;
  let stop: ShellStop | undefined;
  try {
    ({ result, stop } = await shell.runStopped(command, controller.signal));
  } catch (error) {
    // DocsShell turns every failure of a command into a result; this is a bug of ours.
    result = { stdout: "", stderr: `bash: internal error: ${(error as Error).message}\n`, exitCode: 1, truncated: false };
  } finally {
    running.delete(id);
  }
  post({ t: "result", id, result, stop });
}

port.on("message", (message: ToWorker) => {
  switch (message.t) {
    case "site": {
      const decoded = decodeSnapshotTable(message.snapshot);
      sites.set(message.sid, decoded.files);
      // Before its texts: records and views are built now, commands wait for `texts`.
      if (!message.complete) {
        awaitingTexts.set(message.sid, decoded.of);
        break;
      }
      passGate();
      post({ t: "loaded", sid: message.sid });
      break;
    }
    case "texts": {
      const of = awaitingTexts.get(message.sid);
      if (of === undefined) break;
      awaitingTexts.delete(message.sid);
      of.chunks = message.chunks;
      passGate();
      post({ t: "loaded", sid: message.sid });
      break;
    }
    case "drop":
      sites.delete(message.sid);
      awaitingTexts.delete(message.sid);
      // Its views go too: they hold its files (a call of it again gets them re-sent: `missing`).
      for (const [vid, sid] of viewSites) {
        if (sid !== message.sid) continue;
        views.delete(vid);
        viewSites.delete(vid);
      }
      break;
    case "view":
      // Said, so that the host knows the reader it warms is served without this wait (`whenLoaded`).
      if (registerView(message.sid, message.vid, message.positions, message.extra)) post({ t: "viewed", vid: message.vid });
      break;
    case "run":
      void run(message.id, message.vid, message.command);
      break;
    case "cancel":
      running.get(message.id)?.abort();
      break;
  }
});

// Loading is not a command's time: the module the work budget needs loads before any call.
await loadCoverageModule();
// The host reads this thread's CPU time by its id while a command runs (`LIMITS.shellWorker.maxCpuMs`).
post({ t: "ready", tid: ownThreadId() });
