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
    // A hundred million steps take seconds on any machine: past a tenth of a second, exit 124.
    expect(await runCli(["fs", "--dir", DEMO, "--time-limit", "0.1", 'jq -n "[limit(100000000; repeat(1))] | length"'])).toEqual({
      code: 124,
      stdout: "",
      stderr: "bash: execution exceeded execution deadline (100ms)\n",
    });
    expect(await runCli(["fs", "--dir", DEMO, "--time-limit", "3600", "ls /api"])).toEqual({ code: 0, stdout: "authentication.mdx\noverview.mdx\n", stderr: "" });
    for (const bad of ["0", "-1", "3601", "soon"]) {
      expect(await runCli(["fs", "--dir", DEMO, "--time-limit", bad, "ls /"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --time-limit must be a number of seconds above 0 and at most 3600\n" });
    }
  });

  it("asks for a command when none is given", async () => {
    expect(await runCli(["fs", "--dir", DEMO])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: give a command to run, e.g. svc-mcp fs 'tree / -L 2'\n" });
  });
});
