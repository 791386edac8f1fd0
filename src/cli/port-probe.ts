import { createServer } from "node:net";
import { CliError } from "./io.js";

/**
 * Refuse a `--port` that cannot be listened on before the docs load: found only by the listen
 * after loading, a busy port was said after many seconds of indexing a large site (and its
 * loading lines). The port is opened and closed at once, not kept: it opens for clients only
 * once a search can be answered ("Ready means ready"), so a port taken between the two is still
 * said by the listen itself. Port 0 (any free one) needs no look.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const problem = await new Promise<string | undefined>((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(portProblem(error, bare)));
    probe.listen({ host: bare, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
  if (problem !== undefined) throw new CliError(`--port ${port}: ${problem}`, 2);
}

/** What a failed listen means for the user, with what to do about it. */
function portProblem(error: NodeJS.ErrnoException, host: string): string {
  switch (error.code) {
    case "EADDRINUSE":
      return `already in use on ${host}; stop what listens there or choose another port (--port 0 picks a free one)`;
    case "EACCES":
      return `no permission to listen on ${host} (ports below 1024 need privileges); choose another port (--port 0 picks a free one)`;
    case "EADDRNOTAVAIL":
      return `--host ${host} is not an address of this machine`;
    default:
      return `cannot listen on ${host}: ${error.message}`;
  }
}
