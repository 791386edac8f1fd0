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
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(portProblem(error, bare, port)));
    probe.listen({ host: bare, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
  if (problem !== undefined) throw new CliError(problem, 2);
}

/** What to give instead of a `--host` that cannot be listened on. */
const HOST_HINT = "give an address of this machine (127.0.0.1 for this machine only, 0.0.0.0 for every interface)";

/**
 * What a failed listen means for the user, with what to do about it, naming the option at fault:
 * a name that does not resolve (`--host 256.1.1.1` is read as a name) was said as `--port N:
 * cannot listen on 256.1.1.1: getaddrinfo ENOTFOUND 256.1.1.1`, blaming the port.
 */
function portProblem(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case "EADDRINUSE":
      return `--port ${port}: already in use on ${host}; stop what listens there or choose another port (--port 0 picks a free one)`;
    case "EACCES":
      return `--port ${port}: no permission to listen on ${host} (ports below 1024 need privileges); choose another port (--port 0 picks a free one)`;
    case "EADDRNOTAVAIL":
      return `--host ${host}: not an address of this machine; ${HOST_HINT}`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_FAIL":
      return `--host ${host}: neither an IP address nor a name this machine can resolve; ${HOST_HINT}`;
    default:
      return `--port ${port}: cannot listen on ${host}: ${error.message}`;
  }
}
