import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { REPO, runCli } from "../config/cli-io.js";

/**
 * The README is the manual: every command and every option `--help` shows is in it. A boolean
 * documented by its negation (`--no-watch`) counts for the option (`--watch`).
 */
describe("README, CLI", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");

  it.each(COMMANDS.map((c) => c.name))("documents `svc-mcp %s` and each of its options", async (name) => {
    const help = await runCli([name, "--help"]);
    expect(help.code).toBe(0);
    const options = [...new Set([...help.stdout.matchAll(/(?<=\s)--([a-z][a-z-]*)/g)].map((m) => m[1] as string))];
    const undocumented = options.filter((o) => o !== "help" && o !== "no" && !readme.includes(`--${o}`) && !readme.includes(`--no-${o}`));
    expect({ command: readme.includes(`svc-mcp ${name}`), undocumented }).toEqual({ command: true, undocumented: [] });
  });
});
