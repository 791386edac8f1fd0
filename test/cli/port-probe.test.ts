import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";

/**
 * `serve --http` and `preview` look whether they can listen before the docs load
 * (`src/cli/port-probe.ts`): each reason a listen fails is one stderr line naming the option at
 * fault and what to do, exit 2, nothing on stdout and no loading line. The busy port is in
 * `test/bridge/cli.test.ts`.
 */
const DEMO = fixture("demo");
const HINT = "give an address of this machine (127.0.0.1 for this machine only, 0.0.0.0 for every interface)";

describe("a --host that cannot be listened on", () => {
  const cases: [host: string, stderr: string][] = [
    // Not an IPv4 address, so read as a name, which no resolver knows: it was `--port 3999:
    // cannot listen on 256.1.1.1: getaddrinfo ENOTFOUND 256.1.1.1`, blaming the port.
    ["256.1.1.1", `svc-mcp: --host 256.1.1.1: neither an IP address nor a name this machine can resolve; ${HINT}\n`],
    // `.invalid` never resolves (RFC 6761); without a network the resolver's EAI_AGAIN says the same.
    ["no-such-host.invalid", `svc-mcp: --host no-such-host.invalid: neither an IP address nor a name this machine can resolve; ${HINT}\n`],
    // An address reserved for documentation (RFC 5737): never one of this machine's.
    ["192.0.2.1", `svc-mcp: --host 192.0.2.1: not an address of this machine; ${HINT}\n`],
  ];
  for (const [host, stderr] of cases) {
    it(`${host}: serve --http and preview say so before loading, exit 2`, async () => {
      const serve = await runCli(["serve", "--http", "--port", "3999", "--host", host, "--dir", DEMO, "--no-watch"]);
      const preview = await runCli(["preview", "--no-open", "--port", "3999", "--host", host, "--dir", DEMO]);
      expect([serve, preview]).toEqual([0, 1].map(() => ({ code: 2, stdout: "", stderr })));
    });
  }
});

/**
 * The first port this machine lets only privileged processes listen on (Linux's
 * `ip_unprivileged_port_start`, 1024 unless lowered; 0 means no port is privileged).
 */
function privilegedPort(): number {
  const start = Number(readFileSync("/proc/sys/net/ipv4/ip_unprivileged_port_start", "utf8").trim());
  return Math.min(80, start - 1);
}
const PORT = privilegedPort();

/**
 * A port below the unprivileged start, without the privilege to listen on it. As root the
 * process runs without CAP_NET_BIND_SERVICE (setpriv drops it from the bounding and inheritable
 * sets), which is what a privileged port asks: still root, so it reads the checkout wherever it
 * is, but the listen is refused EACCES as for any user. Switching to an unprivileged user
 * instead would depend on that user reaching the checkout, which a clone in a private folder
 * does not allow. Skipped only where no port is privileged (the sysctl set to 0), where the
 * message cannot occur.
 */
describe.skipIf(PORT < 1)("a privileged --port without the privilege", () => {
  const run = async (argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const cli = [process.execPath, join(REPO, "bin", "svc-mcp.js"), ...argv];
    const dropBind = ["--inh-caps=-net_bind_service", "--bounding-set=-net_bind_service", "--"];
    const [command, ...args] = process.getuid?.() === 0 ? ["setpriv", ...dropBind, ...cli] : cli;
    return promisify(execFile)(command as string, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, SVC_MCP_CACHE: "off" } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  };

  it(`--port ${PORT}: serve --http says so before loading, exit 2`, async () => {
    expect(await run(["serve", "--http", "--port", String(PORT), "--dir", DEMO, "--no-watch"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `svc-mcp: --port ${PORT}: no permission to listen on 127.0.0.1 (ports below 1024 need privileges); choose another port (--port 0 picks a free one)\n`,
    });
  });
});
