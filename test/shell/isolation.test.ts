/**
 * Every call of the docs shell starts from a fresh shell: nothing one call sets (shell options,
 * `set -o`, the hash table, aliases, functions, variables of every kind, the working directory,
 * traps, file descriptors, completions, builtins) is seen by the next call, whoever makes it:
 * the same reader in this thread, another reader on the same shell worker, another client over
 * HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { ShellResult } from "../../src/engine/shell/shell.js";
import { ShellHost } from "../../src/engine/shell/shell-host.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { FS, type Harness, mcpClient, startBridge } from "../bridge/harness.js";
import { fixture } from "../helpers/paths.js";

const ok = (stdout: string, exitCode = 0): ShellResult => ({ stdout, stderr: "", exitCode, truncated: false });

/**
 * [what one call sets, what a later call runs, what that later call prints in a fresh shell].
 * One row per kind of state just-bash's interpreter keeps (its `InterpreterState`).
 */
const CASES: ReadonlyArray<readonly [string, string, ShellResult]> = [
  ["shopt -s failglob xpg_echo", "echo /nomatch*; echo 'a\\tb'", ok("/nomatch*\na\\tb\n")],
  [
    "shopt -s nullglob dotglob extglob globstar nocaseglob nocasematch expand_aliases lastpipe",
    "shopt | grep -c on; echo /nomatch*; [[ A == a ]] && echo same",
    ok("1\n/nomatch*\n", 1),
  ],
  ["ls /api >/dev/null; cat /index.mdx >/dev/null", "hash", ok("hash: hash table empty\n")],
  ["set -e -u -f -o pipefail -o noclobber -o allexport", "echo $-; set -o | grep -c on; echo /inde*; echo ${unset_var}x", ok("hBs\n2\n/index.mdx\nx\n")],
  ["readonly RO=1; declare -r RO2=1", "RO=2 RO2=2; echo $RO$RO2", ok("22\n")],
  [
    "export EX=1; declare -x EX2=2; V=3; declare -i I=4; A=(a b); declare -A M=([k]=v)",
    'echo "[$EX$EX2$V$I${A[*]}${M[k]}]"; env | grep -c EX',
    ok("[]\n0\n", 1),
  ],
  ["alias ls='echo hijacked'; shopt -s expand_aliases", "ls /api", ok("authentication.mdx\noverview.mdx\n")],
  ["ls() { echo hijacked; }; cat() { :; }", "ls /api", ok("authentication.mdx\noverview.mdx\n")],
  ["cd /guides; pushd /api", "pwd; dirs", ok("/\n~\n")],
  ["trap 'echo trapped' EXIT ERR DEBUG", "false; echo end", ok("end\n")],
  ["exec 3</index.mdx", "head -1 <&3", { stdout: "", stderr: "bash: 3: Bad file descriptor\n", exitCode: 1, truncated: false }],
  ["complete -W 'a b' foo", "complete -p", ok("")],
  ["enable -n echo", "type echo", ok("echo is a shell builtin\n")],
  ["IFS=/; PATH=/nowhere; HOME=/guides", 'echo "$IFS$PATH$HOME"; cd; pwd', ok(" \t\n/usr/bin:/bin/\n/\n")],
];

let runtime: DocsRuntime;

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo") });
});

afterAll(async () => {
  await runtime?.close();
});

describe("a fresh shell per call", () => {
  for (const [set, probe, fresh] of CASES) {
    it(`in this thread: ${set}`, async () => {
      const shell = runtime.readerState(localContext()).shell;
      await shell.run(set);
      expect(await shell.run(probe)).toEqual(fresh);
    });
  }

  it("on one shell worker, for the same reader and for another", async () => {
    // One worker: every call below runs in the same thread, one after the other.
    const host = new ShellHost({ workers: 1 });
    try {
      const staff = host.shellFor(runtime.site, runtime.readerState(localContext(readerWithGroups(["staff"]))).view);
      const anonymous = host.shellFor(runtime.site, runtime.readerState(localContext()).view);
      for (const [set, probe, fresh] of CASES) {
        await staff.run(set, "one");
        expect({ set, result: await staff.run(probe, "one") }).toEqual({ set, result: fresh });
        await staff.run(set, "one");
        expect({ set, result: await anonymous.run(probe, "two") }).toEqual({ set, result: fresh });
      }
    } finally {
      await host.close();
    }
  });
});

describe("over HTTP", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startBridge();
  });

  afterAll(async () => {
    await h?.close();
  });

  it("one client's shell options and hash table never reach another client", async () => {
    const one = await mcpClient(h.urls.mcp);
    const two = await mcpClient(h.urls.mcp);
    try {
      await one.text(FS, { command: "shopt -s failglob xpg_echo; ls / > /dev/null; cat /index.mdx > /dev/null" });
      expect(await two.text(FS, { command: "hash; echo /nomatch*; echo 'a\\tb'" })).toBe("hash: hash table empty\n/nomatch*\na\\tb\n");
      expect(await one.text(FS, { command: "hash; echo /nomatch*" })).toBe("hash: hash table empty\n/nomatch*\n");
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
