import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

describe("svc-mcp --version", () => {
  it("prints the package's version alone", async () => {
    expect(await runCli(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it("is listed by --help, and leaves the --version of nav and search theirs", async () => {
    expect((await runCli(["--help"])).stdout).toContain("      --version  Show the version number");
    expect((await runCli(["nav", "--dir", fixture("nav-demo"), "--version", "v2"])).code).toBe(0);
    expect(await runCli(["check", "--version"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: Unknown argument: version\nRun with --help for usage.\n" });
  });
});

describe("help text", () => {
  it("is wrapped at the terminal's width between words", async () => {
    expect(await runCli(["fs", "--help"], { columns: 60 })).toEqual({
      code: 0,
      stdout: [
        "svc-mcp fs [command..]",
        "",
        "Run a command in the read-only docs shell, as the filesystem",
        "tool does",
        "",
        "Positionals:",
        '  command  Command line, e.g. "rg -il webhook /" (quote it)',
        "                                       [array] [default: []]",
        "",
        "Options:",
        "  -h, --help        Show help                      [boolean]",
        "      --dir         Docs repository folder (holds docs.json",
        "                    and the pages)",
        "                      [string] [default: the current folder]",
        "      --groups      Comma-separated user groups the local",
        "                    reader belongs to (default: public",
        "                    content only)                   [string]",
        "      --time-limit  Seconds the command line may run",
        "                    (default 60, as the tool; at most 3600)",
        "                                                    [number]",
        "",
        "Examples:",
        "  svc-mcp fs 'tree / -L 2'        Show the top of the docs",
        "                                  tree",
        "  svc-mcp fs -- rg -n -C 2        Everything after -- is the",
        "  webhook /                       command",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("never splits a word, at any width, for any command (80 columns when not a terminal, 100 at most)", async () => {
    // Words, and the [type] tags yargs sets in the right column (at 50 columns a tag can touch
    // the text before it: `one)[number]`).
    const words = (text: string): Set<string> => new Set(text.split(/\s+|(?=\[)/));
    for (const argv of [["--help"], ...COMMANDS.map((c) => [c.name, "--help"])]) {
      const wide = await runCli(argv, { columns: 500 });
      const piped = await runCli(argv);
      const narrow = await runCli(argv, { columns: 50 });
      const longest = (text: string): number => Math.max(...text.split("\n").map((l) => l.length));
      expect([argv[0], longest(wide.stdout) <= 100, longest(piped.stdout) <= 80, longest(narrow.stdout) <= 50]).toEqual([argv[0], true, true, true]);
      // A split word leaves pieces that the wide layout does not have.
      const whole = words(wide.stdout);
      expect([argv[0], [...words(narrow.stdout)].filter((w) => !whole.has(w))]).toEqual([argv[0], []]);
    }
  });
});

/**
 * The smallest valid command line of each command that takes `--dir` (every one but `schema`).
 * `state`: it also takes `--state`.
 */
const MINIMAL: Record<string, { argv: string[]; state: boolean }> = {
  serve: { argv: ["serve"], state: true },
  preview: { argv: ["preview", "--no-open", "--port", "0"], state: true },
  search: { argv: ["search", "bucket"], state: false },
  fs: { argv: ["fs", "ls /"], state: false },
  check: { argv: ["check"], state: false },
  nav: { argv: ["nav"], state: false },
  feedback: { argv: ["feedback", "list"], state: true },
  keys: { argv: ["keys", "list"], state: true },
  mcp: { argv: ["mcp", "status"], state: true },
  users: { argv: ["users", "list"], state: true },
  credentials: { argv: ["credentials", "list"], state: true },
  "redirect-domains": { argv: ["redirect-domains", "list"], state: true },
  connect: { argv: ["connect"], state: true },
  install: { argv: ["install", "--editor", "cursor"], state: true },
};

describe("--dir and --state must name folders, for every command", () => {
  it("lists every command but schema", () => {
    expect(Object.keys(MINIMAL)).toEqual(COMMANDS.map((c) => c.name).filter((n) => n !== "schema"));
  });

  it.each(Object.entries(MINIMAL))("%s: a missing folder or a file is a message and exit 2", async (_name, { argv, state }) => {
    const home = makeRepo({});
    const env = { HOME: home.dir };
    try {
      const file = fixture("demo/index.mdx");
      const runs = [
        await runCli([...argv, "--dir", "no/such/docs"], { env }),
        await runCli([...argv, "--dir", file], { env }),
        ...(state ? [await runCli([...argv, "--state", "no/such/state"], { env }), await runCli([...argv, "--state", file], { env })] : []),
        ...(argv[0] === "serve" ? [await runCli([...argv, "--http", "--dir", "no/such/docs"], { env })] : []),
      ];
      expect(runs).toEqual([
        { code: 2, stdout: "", stderr: "svc-mcp: --dir no/such/docs: no such folder\n" },
        { code: 2, stdout: "", stderr: `svc-mcp: --dir ${file}: not a folder\n` },
        ...(state
          ? [
              { code: 2, stdout: "", stderr: "svc-mcp: --state no/such/state: no such folder (create it first, or leave --state out for the default state folder)\n" },
              { code: 2, stdout: "", stderr: `svc-mcp: --state ${file}: not a folder\n` },
            ]
          : []),
        ...(argv[0] === "serve" ? [{ code: 2, stdout: "", stderr: "svc-mcp: --dir no/such/docs: no such folder\n" }] : []),
      ]);
      // Nothing was created: no state folder, no editor config.
      expect([existsSync(join(home.dir, ".local")), existsSync(join(fixture("demo"), ".cursor"))]).toEqual([false, false]);
    } finally {
      home.cleanup();
    }
  });
});

/**
 * An option that takes a value, given none (at the end of the line, before another flag, or
 * `--dir=`), is a usage error naming it, exit 2: `serve --dir` served the current folder without
 * a word (issue 25). Every command, and `--state` where it takes one.
 */
describe("an option without its value", () => {
  const usage = (option: string) => ({ code: 2, stdout: "", stderr: `svc-mcp: ${option} needs a value\nRun with --help for usage.\n` });

  it.each(Object.entries(MINIMAL))("%s --dir, --dir=, --state: exit 2 naming the option", async (_name, { argv, state }) => {
    const home = makeRepo({});
    const env = { HOME: home.dir };
    try {
      const runs = [
        await runCli([...argv, "--dir"], { env }),
        await runCli([...argv, "--dir="], { env }),
        ...(state ? [await runCli([...argv, "--state"], { env })] : []),
      ];
      expect(runs).toEqual([usage("--dir"), { code: 2, stdout: "", stderr: "svc-mcp: --dir needs a value\n" }, ...(state ? [usage("--state")] : [])]);
      // Nothing was created: no state folder, no editor config.
      expect([existsSync(join(home.dir, ".local")), existsSync(join(fixture("demo"), ".cursor"))]).toEqual([false, false]);
    } finally {
      home.cleanup();
    }
  });

  it("--dir before another flag (serve --dir --http), and a number option (search --page-size)", async () => {
    expect([await runCli(["serve", "--dir", "--http"]), await runCli(["search", "bucket", "--page-size"])]).toEqual([usage("--dir"), usage("--page-size")]);
  });
});

/** An option given twice: yargs made an array, which each command took for a string (a node:path stack trace, exit 1). */
describe("an option given twice", () => {
  it("counts the last one, as getopt's tools do (adversary round 31 F1)", async () => {
    const demo = fixture("demo");
    expect(await runCli(["fs", "--dir", "/nowhere", "--dir", demo, "--groups", "x", "--groups", "", "ls /api"])).toEqual({ code: 0, stdout: "authentication.mdx\noverview.mdx\n", stderr: "" });
    expect(await runCli(["search", "bucket", "--page-size", "5", "--page-size", "many"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --page-size must be a number; got "many"\nRun with --help for usage.\n',
    });
    expect(await runCli(["serve", "--http", "--host", "127.0.0.1", "--port", "1", "--port", "70000"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --port must be an integer from 0 to 65535; got 70000\n" });
  });
});

describe("serve over stdio with a bad --project-id", () => {
  it("ends the process with the message and exit 2, its client's stdin still open (it printed the message and kept running: adversary round 31 F2)", async () => {
    const child = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--dir", fixture("demo"), "--project-id", "!!"], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    child.stdin.destroy();
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --project-id must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit; got "!!"\n',
    });
  });
});

/** A number option given a word: yargs reads it as NaN, and each command's range check said "got NaN". */
describe("a number option given something else", () => {
  it.each([
    [["serve", "--http", "--port=abc"], '--port must be a number; got "abc"'],
    [["serve", "--http", "--relay-timeout", "soon"], '--relay-timeout must be a number; got "soon"'],
    [["search", "bucket", "--page-size", "many"], '--page-size must be a number; got "many"'],
    [["search", "bucket", "--score-threshold", "high"], '--score-threshold must be a number; got "high"'],
    [["fs", "--time-limit", "1s", "ls"], '--time-limit must be a number; got "1s"'],
    [["preview", "--port", "x"], '--port must be a number; got "x"'],
  ])("%j: exit 2, naming the option and what it was given", async (argv, message) => {
    expect(await runCli(argv)).toEqual({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\nRun with --help for usage.\n` });
  });
});
