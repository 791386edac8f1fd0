import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { runCli } from "../helpers/cli.js";
import { REPO } from "../helpers/paths.js";

/**
 * The manual: every command and every option `--help` shows is in docs/cli.md. A boolean
 * documented by its negation (`--no-watch`) counts for the option (`--watch`).
 */
describe("docs/cli.md", () => {
  const readme = readFileSync(join(REPO, "docs/cli.md"), "utf8");

  it.each(COMMANDS.map((c) => c.name))("documents `svc-mcp %s` and each of its options", async (name) => {
    const help = await runCli([name, "--help"]);
    expect(help.code).toBe(0);
    const options = [...new Set([...help.stdout.matchAll(/(?<=\s)--([a-z][a-z-]*)/g)].map((m) => m[1] as string))];
    const undocumented = options.filter((o) => o !== "help" && o !== "no" && !readme.includes(`--${o}`) && !readme.includes(`--no-${o}`));
    expect({ command: readme.includes(`svc-mcp ${name}`), undocumented }).toEqual({ command: true, undocumented: [] });
  });
});
