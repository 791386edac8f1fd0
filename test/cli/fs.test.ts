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

  it("asks for a command when none is given", async () => {
    expect(await runCli(["fs", "--dir", DEMO])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: give a command to run, e.g. svc-mcp fs 'tree / -L 2'\n" });
  });
});
