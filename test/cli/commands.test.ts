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

  it("a missing or extra word names the command's words, and a command that does not exist lists the commands", async () => {
    const usage = (message: string) => ({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\nRun with --help for usage.\n` });
    // yargs said "Not enough non-option arguments: got 0, need at least 1" and "Unknown argument: limits".
    expect(await runCli(["search"])).toEqual(usage("missing <query>: svc-mcp search <query>"));
    expect(await runCli(["users", "--json"])).toEqual(usage("missing <action>: svc-mcp users <action> [name]"));
    expect(await runCli(["search", "rate", "limits", "--page-size", "2"])).toEqual(
      usage('too many words for svc-mcp search <query>: "limits"; quote a value of several words: svc-mcp search "rate limits"'),
    );
    // After an option the words might be its value: no quoted line is made up.
    expect(await runCli(["search", "--page-size", "2", "rate", "limits", "now"])).toEqual(usage('too many words for svc-mcp search <query>: "limits", "now"; quote a value of several words'));
    expect(await runCli(["users", "add", "alice", "bob"])).toEqual(usage('too many words for svc-mcp users <action> [name]: "bob"'));
    expect(await runCli(["check", "extra"])).toEqual(usage('too many words for svc-mcp check: "extra"'));
    const commands = COMMANDS.map((c) => c.name).join(", ");
    expect(await runCli(["bogus", "--dir", "x"])).toEqual(usage(`unknown command "bogus"; the commands are ${commands}`));
    // yargs' suggestion only for a typo: `init` was "Did you mean nav?" (three edits away).
    expect(await runCli(["init"])).toEqual(usage(`unknown command "init"; the commands are ${commands}`));
    expect(await runCli(["serach", "x"])).toEqual(usage("Did you mean search?"));
    // An unknown option is still yargs' message, naming it.
    expect(await runCli(["search", "x", "--bogus"])).toEqual(usage("Unknown argument: bogus"));
  });
});
