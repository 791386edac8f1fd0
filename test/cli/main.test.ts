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
      expect(runs).toEqual([usage("--dir"), usage("--dir"), ...(state ? [usage("--state")] : [])]);
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
      stderr: 'svc-mcp: --page-size must be a whole number in decimal digits (such as 10); got "many"\nRun with --help for usage.\n',
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

const WHOLE = "a whole number in decimal digits (such as 10)";
const FRACTION = "a number in decimal digits, with an optional fraction (such as 30 or 0.5)";

/**
 * A number option is read as written, by one rule for every command: decimal digits, and a
 * fraction only where the unit is divisible (seconds, a score). yargs read a word as NaN (and
 * each command's range check said "got NaN"), and JavaScript's Number() took `0x10`, ` 5`,
 * `1e3`, `5.0` and `+5` (adversary round 32).
 */
describe("a number option given something else", () => {
  it.each([
    [["serve", "--http", "--port=abc"], `--port must be ${WHOLE}; got "abc"`],
    [["serve", "--http", "--port", "0x10"], `--port must be ${WHOLE}; got "0x10"`],
    [["serve", "--http", "--max-connections", "1e3"], `--max-connections must be ${WHOLE}; got "1e3"`],
    [["serve", "--search-cache", "+5"], `--search-cache must be ${WHOLE}; got "+5"`],
    [["serve", "--http", "--relay-timeout", "soon"], `--relay-timeout must be ${FRACTION}; got "soon"`],
    [["serve", "--http", "--relay-timeout", "1e1"], `--relay-timeout must be ${FRACTION}; got "1e1"`],
    [["search", "bucket", "--page-size", "many"], `--page-size must be ${WHOLE}; got "many"`],
    [["search", "bucket", "--page-size", "0x10"], `--page-size must be ${WHOLE}; got "0x10"`],
    [["search", "bucket", "--page-size", " 5"], `--page-size must be ${WHOLE}; got " 5"`],
    [["search", "bucket", "--page-size", "5 "], `--page-size must be ${WHOLE}; got "5 "`],
    [["search", "bucket", "--page-size", "1e3"], `--page-size must be ${WHOLE}; got "1e3"`],
    [["search", "bucket", "--page-size", "5.0"], `--page-size must be ${WHOLE}; got "5.0"`],
    [["search", "bucket", "--page-size=+5"], `--page-size must be ${WHOLE}; got "+5"`],
    [["search", "bucket", "--page-size=-5"], `--page-size must be ${WHOLE}; got "-5"`],
    [["search", "bucket", "--page-size", "0b101"], `--page-size must be ${WHOLE}; got "0b101"`],
    [["search", "bucket", "--page-size", "Infinity"], `--page-size must be ${WHOLE}; got "Infinity"`],
    [["search", "bucket", "--score-threshold", "high"], `--score-threshold must be ${FRACTION}; got "high"`],
    [["search", "bucket", "--score-threshold", "5e-1"], `--score-threshold must be ${FRACTION}; got "5e-1"`],
    [["search", "bucket", "--score-threshold", "0x0"], `--score-threshold must be ${FRACTION}; got "0x0"`],
    [["fs", "--time-limit", "1s", "ls"], `--time-limit must be ${FRACTION}; got "1s"`],
    [["fs", "--time-limit", "-1", "ls"], `--time-limit must be ${FRACTION}; got "-1"`],
    [["fs", "--time-limit", "1.", "--time-limit", " 1", "ls"], `--time-limit must be ${FRACTION}; got " 1"`],
    [["preview", "--port", "x"], `--port must be ${WHOLE}; got "x"`],
    [["preview", "--port", "3000.0"], `--port must be ${WHOLE}; got "3000.0"`],
  ])("%j: exit 2, naming the option, what it accepts and what it was given", async (argv, message) => {
    expect(await runCli(argv)).toEqual({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\nRun with --help for usage.\n` });
  });

  it("takes plain decimals: a whole number, and a fraction where the unit is divisible (0.5, .5, 1.)", async () => {
    expect(await runCli(["search", "bucket", "--dir", fixture("demo"), "--page-size", "01", "--score-threshold", ".5", "--json"])).toMatchObject({ code: 0, stderr: "" });
    expect(await runCli(["fs", "--dir", fixture("demo"), "--time-limit", "1.", "ls /api"])).toEqual({ code: 0, stdout: "authentication.mdx\noverview.mdx\n", stderr: "" });
    expect(await runCli(["search", "bucket", "--dir", fixture("demo"), "--page-size", "0"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --page-size: must be an integer from 1 to 50 (got 0)\n" });
  });
});

/**
 * The other options with a value of a kind: every `--rate-limit` key must be one the server
 * counts (an unknown one was accepted and limited nothing), a list given no value is refused as
 * any other option is (`--rate-limit` alone started the server), an option of enumerated values
 * given twice counts the last one (`--editor a --editor b` was a stack trace, exit 1; `--format
 * csv --format json` printed a half JSON array), a value outside its choices is said in this
 * CLI's words, `--host=` names no address (it listened on every interface), and a flag takes
 * true or false only (`--http=1` was read as false: stdio was served).
 */
describe("options of a kind: keys, choices, flags", () => {
  const usage = (message: string) => ({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\nRun with --help for usage.\n` });
  const KEYS = "ip, search, filesystem, submit_feedback, api_request, authed-search, authed-filesystem, authed-submit_feedback, authed-api_request, feedback, feedback-bytes, relay";

  it("--rate-limit with an unknown key: exit 2, naming the option, the key and the known keys", async () => {
    expect(await runCli(["serve", "--http", "--dir", fixture("demo"), "--rate-limit", "search=5", "--rate-limit", "foo=1"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `svc-mcp: --rate-limit foo=1: unknown key "foo"; the keys are ${KEYS}\n`,
    });
    expect(await runCli(["serve", "--http", "--dir", fixture("demo"), "--rate-limit", "authed-ip=1"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `svc-mcp: --rate-limit authed-ip=1: unknown key "authed-ip"; the keys are ${KEYS}\n`,
    });
    expect(await runCli(["serve", "--http", "--dir", fixture("demo"), "--rate-limit", "search=0x10"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --rate-limit "search=0x10": expected KEY=N or KEY=off (e.g. search=20000, authed-search=off, ip=5000)\n',
    });
  });

  it("search with no results points at svc-mcp fs, not at the MCP tool a terminal cannot call", async () => {
    expect(await runCli(["search", "zzzqqq", "--dir", fixture("demo")])).toEqual({
      code: 0,
      stdout: `No results for "zzzqqq". Try other words, fewer terms, or search the files: svc-mcp fs 'rg -il "term" /'\n`,
      stderr: "",
    });
  });

  it("a folder of pages and no docs.json is served, with one warning on stderr saying how to give it one", async () => {
    const notes = makeRepo({ "b.mdx": "---\ntitle: Beta\n---\n\nbeta install\n", "a.mdx": "---\ntitle: Alpha\n---\n\nalpha\n" });
    const broken = makeRepo({ "docs.json": '{"name": ', "a.mdx": "---\ntitle: Alpha\n---\n\nalpha\n" });
    const warning = (where: string): string =>
      `svc-mcp: warning: no docs.json (or mint.json) in ${where}: every page is served, in file order, with no navigation; write a docs.json there with the site's "name" and its "navigation" to order them (\`svc-mcp schema\` prints its JSON Schema)\n`;
    try {
      // It was served in silence: no name, no navigation, and nothing said why.
      expect(await runCli(["fs", "ls /", "--dir", notes.dir])).toEqual({ code: 0, stdout: "a.mdx\nb.mdx\nskill.md\n", stderr: warning(notes.dir) });
      expect(await runCli(["fs", "ls /"], { cwd: notes.dir })).toEqual({ code: 0, stdout: "a.mdx\nb.mdx\nskill.md\n", stderr: warning("this folder") });
      // `check` says it in the same words, as its warning.
      expect(await runCli(["check"], { cwd: notes.dir })).toEqual({
        code: 0,
        stdout: `docs.json ${warning("this folder").slice("svc-mcp: ".length)}checked 2 pages (no docs.json): 0 errors, 1 warning\n`,
        stderr: "",
      });
      // A docs.json that cannot be read has its own errors: not said to be missing.
      expect(await runCli(["fs", "ls /", "--dir", broken.dir])).toEqual({
        code: 0,
        stdout: "a.mdx\nskill.md\n",
        stderr: `svc-mcp: 1 error in docs.json; run \`svc-mcp check --dir ${broken.dir}\` for details\n`,
      });
    } finally {
      notes.cleanup();
      broken.cleanup();
    }
  });

  it("a folder of no docs.json and no pages is said to be the wrong --dir, not searched in silence", async () => {
    const empty = makeRepo({ "notes.txt": "not a page\n" });
    const named = makeRepo({ "docs.json": JSON.stringify({ name: "Empty", navigation: { pages: [] } }) });
    try {
      expect(await runCli(["search", "install", "--dir", empty.dir])).toEqual({
        code: 0,
        stdout: `No results for "install". Try other words, fewer terms, or search the files: svc-mcp fs 'rg -il "term" /'\n`,
        stderr: `svc-mcp: warning: ${empty.dir} holds no docs.json and no pages: --dir names the docs folder, the one that holds docs.json\n`,
      });
      expect(await runCli(["fs", "ls /"], { cwd: empty.dir })).toEqual({
        code: 0,
        stdout: "skill.md\n",
        stderr: "svc-mcp: warning: this folder holds no docs.json and no pages: --dir names the docs folder, the one that holds docs.json\n",
      });
      // `check` in the same words: it said "every page is served, in file order" of a folder of none.
      expect(await runCli(["check", "--dir", empty.dir])).toEqual({
        code: 0,
        stdout: `docs.json warning: ${empty.dir} holds no docs.json and no pages: --dir names the docs folder, the one that holds docs.json\nchecked 0 pages (no docs.json): 0 errors, 1 warning\n`,
        stderr: "",
      });
      // A docs.json of no pages yet is a site being begun: nothing to say.
      expect((await runCli(["search", "install", "--dir", named.dir])).stderr).toBe("");
    } finally {
      empty.cleanup();
      named.cleanup();
    }
  });

  it("serve --help names every key --rate-limit takes (it named five of the twelve)", async () => {
    const help = (await runCli(["serve", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain(`--rate-limit --http: KEY=N|off per hour (repeatable); keys ${KEYS} [array]`);
  });

  it("serve --http's options are refused before the docs load: no loading line above the message", async () => {
    // A language code read with a warning: loading this site says so on stderr.
    const repo = makeRepo({ "docs.json": JSON.stringify({ name: "R", navigation: { languages: [{ language: "ko-KR", pages: ["index"] }] } }), "index.mdx": "---\ntitle: Home\n---\nhi\n" });
    try {
      expect((await runCli(["search", "hi", "--dir", repo.dir])).stderr).toBe(`svc-mcp: 1 warning in docs.json; run \`svc-mcp check --dir ${repo.dir}\` for details\n`);
      // The site was read and indexed first, its warning line printed above the refusal.
      expect(await runCli(["serve", "--http", "--dir", repo.dir, "--rate-limit", "foo=1"])).toEqual({ code: 2, stdout: "", stderr: `svc-mcp: --rate-limit foo=1: unknown key "foo"; the keys are ${KEYS}\n` });
      expect(await runCli(["serve", "--http", "--dir", repo.dir, "--public-url", "https://docs.example.com/path"])).toEqual({
        code: 2,
        stdout: "",
        stderr: 'svc-mcp: --public-url must be an origin such as https://docs.example.com; got "https://docs.example.com/path"\n',
      });
    } finally {
      repo.cleanup();
    }
  });

  it("a list option, or --host=, given no value", async () => {
    expect(await runCli(["serve", "--http", "--rate-limit"])).toEqual(usage("--rate-limit needs a value"));
    expect(await runCli(["serve", "--http", "--rate-limit", "--port", "0"])).toEqual(usage("--rate-limit needs a value"));
    expect(await runCli(["serve", "--http", "--host="])).toEqual(usage("--host needs a value"));
  });

  it("enumerated values: the last one counts, and a value outside them is named with its choices", async () => {
    expect(await runCli(["install", "--editor", "cursor", "--editor", "emacs"])).toEqual(usage('--editor must be one of cursor, vscode, claude-code; got "emacs"'));
    expect(await runCli(["feedback", "export", "--format", "xml"])).toEqual(usage('--format must be one of csv, json; got "xml"'));
    expect(await runCli(["users", "rename"])).toEqual(usage('action must be one of add, remove, list; got "rename"'));
  });

  it("a flag given a value other than true or false", async () => {
    expect(await runCli(["serve", "--http=1"])).toEqual(usage('--http takes no value (or true or false); got "1"'));
    expect(await runCli(["check", "--dir", fixture("demo"), "--json=yes"])).toEqual(usage('--json takes no value (or true or false); got "yes"'));
    expect(await runCli(["serve", "--no-watch=off"])).toEqual(usage('--no-watch takes no value (or true or false); got "off"'));
    expect(await runCli(["check", "--dir", fixture("demo"), "--json=false"])).toEqual({ code: 0, stdout: "checked docs.json and 9 pages: no problems\n", stderr: "" });
  });
});


/**
 * A web address option must be an absolute http(s) URL: `--base-url 'javascript:alert(1)//'`
 * went into every search result's link, and `connect --url 'http://[::1'` wrote editor
 * configurations for an address nothing can reach (adversary round 32).
 */
describe("a web address option given something else", () => {
  const URL_ACCEPTED = "an http or https URL such as https://docs.example.com";
  it.each([
    [["search", "bucket", "--base-url", "javascript:alert(1)//"], `--base-url must be ${URL_ACCEPTED}; got "javascript:alert(1)//"`],
    [["search", "bucket", "--base-url", "docs.example.com"], `--base-url must be ${URL_ACCEPTED}; got "docs.example.com"`],
    [["serve", "--base-url", "file:///etc/passwd"], `--base-url must be ${URL_ACCEPTED}; got "file:///etc/passwd"`],
    [["connect", "--url", "http://[::1"], `--url must be ${URL_ACCEPTED}; got "http://[::1"`],
    [["install", "--editor", "vscode", "--url", "ftp://example.com/mcp"], `--url must be ${URL_ACCEPTED}; got "ftp://example.com/mcp"`],
  ])("%j: exit 2, naming the option and what it was given", async (argv, message) => {
    expect(await runCli(argv)).toEqual({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\nRun with --help for usage.\n` });
  });

  it("takes an http(s) URL as written, and search links start with it", async () => {
    const r = await runCli(["search", "bucket", "--dir", fixture("demo"), "--base-url", "https://docs.example.com/", "--page-size", "1", "--json"]);
    expect({ code: r.code, stderr: r.stderr, urls: (JSON.parse(r.stdout) as { url: string }[]).map((h) => h.url) }).toEqual({
      code: 0,
      stderr: "",
      urls: ["https://docs.example.com/guides/access-control#bucket-policies"],
    });
  });
});
