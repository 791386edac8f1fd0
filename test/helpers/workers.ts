import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { REPO } from "./paths.js";
import { type ClientEnd, socketOwner } from "./socket-owner.js";

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
  /** The client end of the connection the last request went on (the agent opens a new one if the server closed it). */
  private end: ClientEnd = {};

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
      // Its addresses are read when asked (`owner`): here, before the connect, the remote ones are not known yet.
      req.on("socket", (socket) => void (this.end = socket));
      req.on("error", reject);
      req.end(text);
    });
  }

  /** The pid among `pids` holding this connection's server end (read from /proc; Linux). */
  owner(pids: readonly number[]): number | undefined {
    return socketOwner(this.end, pids);
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * New connections opened before `connectionTo` gives up: far more than it takes (see there), so
 * reaching it says the worker serves no more.
 */
const MAX_CONNECTIONS_PER_WORKER = 32;

/**
 * A connection to `origin` that the worker `pid` serves: new connections until one lands there.
 * The primary hands each to the worker holding the fewest, equals in turn, by counts that learn
 * of a close a moment after it. So the misses stay open until one lands: closed at once, each
 * close counted before the next connection (a quick machine) left another worker the fewest
 * again and again while `pid` held one more, and only a slow one reached `pid`. Kept, they only
 * add to the others' counts: `pid` is the fewest (or an equal, next in turn) after a miss or two.
 * A connection whose answer is its last (`Connection: close`: a worker over its share of the
 * connections closes it) is a miss too.
 */
export async function connectionTo(origin: string, pids: readonly number[], pid: number, from?: string): Promise<Connection> {
  const misses: Connection[] = [];
  try {
    for (let i = 0; i < MAX_CONNECTIONS_PER_WORKER * pids.length; i++) {
      const c = new Connection(origin, from);
      const answer = await c.get("/.well-known/mcp");
      if (answer.headers.connection !== "close" && c.owner(pids) === pid) return c;
      misses.push(c);
    }
  } finally {
    for (const c of misses) c.close();
  }
  throw new Error(`no connection landed on worker ${pid}`);
}
