import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { REPO } from "./paths.js";

/** A spawned `svc-mcp serve --http --workers N --port 0` (the primary), as deployed. */
export interface WorkersProcess {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly port: number;
  /** The worker pids the primary named when every worker was serving. */
  readonly pids: readonly number[];
  /** Every stderr line so far. */
  readonly lines: string[];
  /** Resolves with the first line (already printed or still to come) matching `pattern`. */
  readonly waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
}

/** Start the primary of `serve --http --workers N` and wait until every worker is serving. */
export async function startWorkers(args: readonly string[], env: Record<string, string> = {}): Promise<WorkersProcess> {
  const child = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      const m = w.pattern.exec(line);
      if (m !== null) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const waitFor = (pattern: RegExp): Promise<RegExpExecArray> => {
    for (const line of lines) {
      const m = pattern.exec(line);
      if (m !== null) return Promise.resolve(m);
    }
    return new Promise((resolve) => waiters.push({ pattern, resolve }));
  };
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`svc-mcp serve exited with ${code}:\n${lines.join("\n")}`);
  });
  const [origin, ready] = await Promise.race([Promise.all([waitFor(/^svc-mcp: MCP \(public\): +(\S+)\/mcp$/), waitFor(/worker process(?:es)? on one port \(pids ([\d, ]+)\)$/)]), exited]);
  const pids = (ready[1] as string).split(", ").map(Number);
  return { child, origin: origin[1] as string, port: Number(new URL(origin[1] as string).port), pids, lines, waitFor };
}

/** Stop a server with SIGTERM and wait for its exit code. */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const [code] = (await exited) as [number | null];
  return code;
}

/** One answer on a `Connection`. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One TCP connection to the server, kept open between requests, so a test knows which worker
 * process answers it (`owner`): the primary hands each connection to one worker.
 */
export class Connection {
  private readonly agent: Agent;
  private localPort: number | undefined;

  /** `from`: the local address the connection is made from (any 127/8 address reaches a loopback server). */
  constructor(
    private readonly origin: string,
    from?: string,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 1, ...(from === undefined ? {} : { localAddress: from }) });
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("POST", path, typeof body === "string" ? body : JSON.stringify(body), headers);
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("GET", path, "", headers);
  }

  delete(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("DELETE", path, "", headers);
  }

  private send(method: string, path: string, text: string, headers: Record<string, string>): Promise<Answer> {
    const url = new URL(path, this.origin);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method,
          agent: this.agent,
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": Buffer.byteLength(text), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
        },
      );
      req.on("socket", (socket) => {
        const note = (): void => void (this.localPort = socket.localPort);
        if (socket.localPort !== undefined) note();
        else socket.once("connect", note);
      });
      req.on("error", reject);
      req.end(text);
    });
  }

  /** The pid among `pids` holding this connection's server end (read from /proc; Linux). */
  owner(serverPort: number, pids: readonly number[]): number | undefined {
    return socketOwner(serverPort, this.localPort ?? -1, pids);
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * The pid among `pids` holding the server end of the loopback connection serverPort <- clientPort
 * (read from /proc; Linux). Every socket table line with those two ports is tried, not the first:
 * a closed connection's TIME_WAIT line (inode 0), or one from another local address that happened
 * to use the same client port, would otherwise hide the live one and answer `undefined`.
 */
export function socketOwner(serverPort: number, clientPort: number, pids: readonly number[]): number | undefined {
  const inodes = new Set(serverSocketInodes(serverPort, clientPort));
  if (inodes.size === 0) return undefined;
  return pids.find((pid) => {
    const dir = `/proc/${pid}/fd`;
    let fds: string[];
    try {
      fds = readdirSync(dir);
    } catch {
      return false; // That worker is gone.
    }
    return fds.some((fd) => {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(join(dir, fd)));
        return m !== null && inodes.has(m[1] as string);
      } catch {
        return false;
      }
    });
  });
}

/** The inodes of the live server-side sockets of loopback connections serverPort <- clientPort. */
function serverSocketInodes(serverPort: number, clientPort: number): string[] {
  const hex = (n: number): string => n.toString(16).toUpperCase().padStart(4, "0");
  const found: string[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      const inode = f[9];
      if (f[1]?.endsWith(`:${hex(serverPort)}`) && f[2]?.endsWith(`:${hex(clientPort)}`) && inode !== undefined && inode !== "0") found.push(inode);
    }
  }
  return found;
}

/** A connection to `origin` that the worker `pid` serves: new connections until one lands there. */
export async function connectionTo(origin: string, port: number, pids: readonly number[], pid: number, from?: string): Promise<Connection> {
  // Each new connection goes to the worker holding the fewest (equals in turn): a few tries reach each one.
  for (let i = 0; i < 8 * pids.length; i++) {
    const c = new Connection(origin, from);
    await c.get("/.well-known/mcp");
    if (c.owner(port, pids) === pid) return c;
    c.close();
  }
  throw new Error(`no connection landed on worker ${pid}`);
}
