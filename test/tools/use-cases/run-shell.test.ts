import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { runShell, shellText } from "../../../src/engine/use-cases/run-shell.js";
import { readerWithGroups } from "../../../src/vfs/access.js";
import { localContext } from "../../../src/vfs/request-context.js";
import { fixture } from "../../helpers/paths.js";

/** The shell use case driven directly: no MCP server, no HTTP. */
let runtime: DocsRuntime;
beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo") });
});
afterAll(async () => runtime.close());

describe("runShell", () => {
  it("runs a command line as the context's reader", async () => {
    expect(await runShell({ runtime, request: localContext() }, { command: "ls /" })).toEqual({
      stdout: "api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n",
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
    const staff = await runShell({ runtime, request: localContext(readerWithGroups(["staff"])) }, { command: "ls /" });
    expect(staff.stdout).toBe("api\nguides\nindex.mdx\ninternal\npartners\nquickstart.mdx\nskill.md\n");
  });

  it("a failing command is a result with its exit code; the text says so", async () => {
    const r = await runShell({ runtime, request: localContext() }, { command: "cat /internal/runbook.mdx" });
    expect(r).toEqual({ stdout: "", stderr: "cat: /internal/runbook.mdx: No such file or directory\n", exitCode: 1, truncated: false });
    expect(shellText(r)).toBe("cat: /internal/runbook.mdx: No such file or directory\n[exit code 1]");
    expect(shellText({ stdout: "", stderr: "", exitCode: 0, truncated: false })).toBe("(no output)");
  });
});
