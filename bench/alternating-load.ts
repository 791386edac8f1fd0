import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Traffic } from "./query-stream.js";

const LOAD = fileURLToPath(new URL("./bridge-load.ts", import.meta.url));

/** One slice of an alternating run: one revision's calls for a few seconds, and the server's CPU time in it. */
export interface Slice {
  readonly round: number;
  readonly protocol: string;
  readonly calls: number;
  readonly errors: number;
  /** Wall time of the slice, its last calls in flight included. */
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  /** CPU time of the server process in the slice, in ms. */
  readonly cpuMs: number;
}

export interface AlternatingLoad {
  readonly url: string;
  readonly clients: number;
  readonly tool: string;
  readonly args: string;
  readonly protocols: readonly string[];
  readonly rounds: number;
  readonly sliceSeconds: number;
  readonly warmupSeconds: number;
  readonly serverPid: number | undefined;
  /** Distinct questions from the query stream (the default), or the arguments as given, repeated. */
  readonly traffic?: Traffic;
}

/**
 * Several protocol revisions against one server from one load-generator process, in short
 * slices that take turns (`bench/bridge-load.ts` with ROUNDS): two revisions compared a second
 * apart share the machine's state, where separate runs minutes apart do not.
 */
export function loadAlternating(o: AlternatingLoad): Promise<Slice[]> {
  const argv = [LOAD, o.url, String(o.clients), String(o.sliceSeconds), String(o.warmupSeconds), o.tool, o.args, "", o.protocols.join(","), String(o.rounds), String(o.serverPid ?? ""), o.traffic ?? "distinct"];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...argv], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve((JSON.parse(out) as { slices: Slice[] }).slices) : reject(new Error(`load generator exited ${code}`))));
  });
}
