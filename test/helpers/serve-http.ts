import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { REPO } from "./paths.js";

/** A spawned `svc-mcp serve --http --port 0` process, as deployed. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** stderr lines printed up to readiness. */
  readonly lines: readonly string[];
}

/**
 * Start `svc-mcp serve --http` on a free loopback port and wait until it has printed its URLs.
 * `args` are extra flags (`--dir`, `--state`, `--project-id`, ...); `nodeArgs` are node's own.
 */
export async function startServe(args: readonly string[], env: Record<string, string> = {}, nodeArgs: readonly string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...nodeArgs, join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const lines: string[] = [];
  const origin = await new Promise<string>((resolve, reject) => {
    let url: string | undefined;
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      const m = /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line);
      if (m !== null) url = m[1];
      // The last start-up line: the server is ready once it is printed.
      if (url !== undefined && line.includes("site auth")) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`svc-mcp serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  return { child, origin, lines };
}
