import { describe, expect, it } from "vitest";
import { COMMANDS, commandsFor } from "../../src/cli/commands/index.js";
import { runCli } from "../helpers/cli.js";

describe("the command table (commands load lazily)", () => {
  it("each entry's name is the first word of the command it loads", async () => {
    const loaded = await Promise.all(COMMANDS.map(async (c) => [c.name, (await c.load()).command.split(" ")[0]]));
    expect(loaded.filter(([name, word]) => name !== word)).toEqual([]);
  });

  it("a named command loads only itself; --help, options first, a typo or no command load them all", async () => {
    const names = async (argv: string[]) => (await commandsFor(argv)).map((c) => c.command.split(" ")[0]);
    expect(await names(["check", "--dir", "x"])).toEqual(["check"]);
    expect(await names(["redirect-domains", "list"])).toEqual(["redirect-domains"]);
    const all = COMMANDS.map((c) => c.name);
    for (const argv of [["--help"], ["--dir", "x", "check"], ["chekc"], []]) expect(await names(argv)).toEqual(all);
  });

  it("--help lists every command, and a typo gets a suggestion", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(COMMANDS.filter((c) => !help.stdout.includes(`svc-mcp ${c.name}`)).map((c) => c.name)).toEqual([]);
    expect(await runCli(["chekc"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: Did you mean check?\nRun with --help for usage.\n" });
  });
});
