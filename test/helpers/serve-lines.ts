import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { REPO } from "./paths.js";

/**
 * A spawned `svc-mcp serve --http --port 0` that keeps reading its stderr after the start, for
 * tests that wait for what it says later (a reload's warning, the cache it started from).
 * Unlike `startServe` it watches the folder unless `--no-watch` is among `args`.
 */
export interface ServedWithLines {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Every stderr line so far. */
  readonly lines: readonly string[];
  /** Resolves once a stderr line starting with `prefix` has been printed (before or after the call). */
  readonly printed: (prefix: string) => Promise<void>;
  /** SIGTERM, and the exit. */
  readonly stop: () => Promise<void>;
}

export async function serveWithLines(args: readonly string[], env: Record<string, string> = {}): Promise<ServedWithLines> {
  const child = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const lines: string[] = [];
  const waiting: { prefix: string; resolve: () => void }[] = [];
  let url: string | undefined;
  const origin = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      for (const w of waiting.filter((x) => line.startsWith(x.prefix))) w.resolve();
      const m = /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line);
      if (m !== null) url = m[1];
      // The last start-up line: the server is ready once it is printed.
      if (url !== undefined && line.includes("site auth")) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`svc-mcp serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  const printed = (prefix: string): Promise<void> =>
    lines.some((l) => l.startsWith(prefix)) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ prefix, resolve }));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };
  return { child, origin: await origin, lines, printed, stop };
}
