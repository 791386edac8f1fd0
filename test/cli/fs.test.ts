import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { fixture } from "../helpers/paths.js";

const DEMO = fixture("demo");

describe("svc-mcp fs", () => {
  it("prints the command's output and exits with its code", async () => {
    expect(await runCli(["fs", "--dir", DEMO, "ls /api"])).toEqual({ code: 0, stdout: "authentication.mdx\noverview.mdx\n", stderr: "" });
  });

  it("passes options after -- to the docs command", async () => {
    expect(await runCli(["fs", "--dir", DEMO, "--", "wc", "-l", "/api/overview.mdx"])).toEqual({ code: 0, stdout: "18 /api/overview.mdx\n", stderr: "" });
  });

  it("adds a did-you-mean hint on stderr when a path does not exist", async () => {
    expect(await runCli(["fs", "--dir", DEMO, "cat /guides/webhook.mdx"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "cat: /guides/webhook.mdx: No such file or directory\nsvc-mcp: /guides/webhook.mdx does not exist. Did you mean: /guides/webhooks.mdx?\n",
    });
  });

  it("shows restricted pages only to the groups given with --groups", async () => {
    expect((await runCli(["fs", "--dir", DEMO, "ls /internal"])).code).toBe(2);
    expect(await runCli(["fs", "--dir", DEMO, "--groups", "staff", "ls /internal"])).toEqual({ code: 0, stdout: "runbook.mdx\n", stderr: "" });
  });

  it("runs a command line for the seconds --time-limit gives, and refuses a limit out of range", async () => {
    // A billion jq steps: past the work limit only after seconds of CPU, and CPU time never
    // runs ahead of the clock, so the tenth of a second ends it first, on any machine. The
    // command runs in a worker, which is ended from outside (in this thread, just-bash's own
    // deadline said "execution exceeded execution deadline"): a single step nothing counts (a
    // huge regex search) ends there too.
    expect(await runCli(["fs", "--dir", DEMO, "--time-limit", "0.1", 'jq -n "reduce range(1000) as \\$i (0; reduce range(1000) as \\$j (.; reduce range(1000) as \\$k (.; .+1)))"'])).toEqual({
      code: 124,
      stdout: "",
      stderr: "bash: command stopped after 100 ms (time limit)\n",
    });
    expect(await runCli(["fs", "--dir", DEMO, "--time-limit", "3600", "ls /api"])).toEqual({ code: 0, stdout: "authentication.mdx\noverview.mdx\n", stderr: "" });
    for (const bad of ["0", "3601"]) {
      expect(await runCli(["fs", "--dir", DEMO, "--time-limit", bad, "ls /"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --time-limit must be a number of seconds above 0 and at most 3600\n" });
    }
    expect(await runCli(["fs", "--dir", DEMO, "--time-limit", "soon", "ls /"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --time-limit must be a number in decimal digits, with an optional fraction (such as 30 or 0.5); got "soon"\nRun with --help for usage.\n',
    });
  });

  it("asks for a command when none is given", async () => {
    expect(await runCli(["fs", "--dir", DEMO])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: give a command to run, e.g. svc-mcp fs 'tree / -L 2'\n" });
  });
});
