import { describe, expect, it } from "vitest";
import { LazyShell } from "../../src/engine/shell/lazy-shell.js";
import type { Shell, ShellResult } from "../../src/engine/shell/shell.js";

/** A shell that echoes its command line. */
const echo: Shell = { run: async (command) => ({ stdout: `${command}\n`, stderr: "", exitCode: 0, truncated: false }) };

describe("LazyShell", () => {
  it("builds its shell once, whether prepared first or asked by several commands at once", async () => {
    let loads = 0;
    const shell = new LazyShell(async () => {
      loads++;
      return echo;
    });
    expect(loads).toBe(0);
    shell.prepare();
    const results: ShellResult[] = await Promise.all([shell.run("a"), shell.run("b")]);
    expect(results.map((r) => r.stdout)).toEqual(["a\n", "b\n"]);
    expect(loads).toBe(1);
  });

  it("reports a failed load to the command that waited for it, and loads again for the next", async () => {
    let loads = 0;
    const shell = new LazyShell(async () => {
      loads++;
      if (loads === 1) throw new Error("chunk missing");
      return echo;
    });
    shell.prepare();
    await expect(shell.run("ls")).rejects.toThrow("chunk missing");
    expect((await shell.run("ls")).stdout).toBe("ls\n");
    expect(loads).toBe(2);
  });
});
