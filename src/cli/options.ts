import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { checkStateOption, redactUrl } from "../store/location.js";
import { isWebUrl } from "../config/web-url.js";
import { CliError, type CliIO } from "./io.js";

/** `--dir`: the docs repository (default: the current folder). Shared by every command. */
export function withDir<T>(y: Argv<T>) {
  return y.option("dir", {
    type: "string",
    describe: "Docs repository folder (holds docs.json and the pages)",
    default: ".",
    defaultDescription: "the current folder",
  });
}

/**
 * The number options whose unit is divisible (seconds, a score): they take a decimal fraction
 * (`--time-limit 0.5`). Every other number option takes a whole number.
 */
const FRACTION_OPTIONS: ReadonlySet<string> = new Set(["score-threshold", "time-limit", "relay-timeout"]);
const WHOLE_NUMBER = /^[0-9]+$/;
const DECIMAL_NUMBER = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

/**
 * What a number option accepts, one rule for every command: decimal digits only, and a
 * fraction (`0.5`) only where the option's unit is divisible (`FRACTION_OPTIONS`). JavaScript's
 * `Number()`, which yargs used, also took `0x10`, `1e3`, `+5`, ` 5` and `5.0` for a count, so a
 * typo could pass for a figure nobody meant (adversary round 32).
 */
export function parseNumberOption(key: string, text: string): number {
  const fraction = FRACTION_OPTIONS.has(key);
  if ((fraction ? DECIMAL_NUMBER : WHOLE_NUMBER).test(text)) return Number(text);
  const accepted = fraction ? "a number in decimal digits, with an optional fraction (such as 30 or 0.5)" : "a whole number in decimal digits (such as 10)";
  throw new CliError(`--${key} must be ${accepted}; got ${JSON.stringify(text)}`, 2);
}

/** Options whose value is a web address: `--base-url` (links in search results), `--url` (the MCP server to connect to). */
const URL_OPTIONS: ReadonlySet<string> = new Set(["base-url", "url"]);

/**
 * A web address option as written, if it is an absolute http(s) URL with a host: `--base-url
 * 'javascript:alert(1)//'` went into every search result's link, and `connect --url
 * 'http://[::1'` wrote editor configurations for an address nothing can reach (adversary round 32).
 */
export function parseUrlOption(key: string, text: string): string {
  if (isWebUrl(text)) return text;
  throw new CliError(`--${key} must be an http or https URL such as https://docs.example.com; got ${JSON.stringify(text)}`, 2);
}

/**
 * Every option that takes one value (a string or a number) must be given one: yargs otherwise
 * reads `--dir` at the end of the line, or before another flag, as an empty string, and `serve
 * --dir` served the current folder without a word (issue 25); `--host=` listened on every
 * interface. Lists (`--rate-limit`) must be given one each time too. `--groups` keeps yargs' own
 * reading: its empty value means a reader of no group (`nav --groups` alone: the anonymous
 * reader's navigation). Number options are read as written (`parseNumberOption`), an option of
 * enumerated values (`--format`) given twice counts the last one as the others do, and a flag
 * (`--json`) given a value other than true or false is refused: yargs read `--http=1` as false
 * and served over stdio. Web addresses (`URL_OPTIONS`) must be http(s) URLs. Positionals (named in `command`, yargs' form) are left alone. Applied to every command by `main`; the error is `usageMessage`'s.
 */
export function requireValues<T>(y: Argv<T>, argv: readonly string[] = [], command = ""): Argv<T> {
  // The command's positionals (`search <query>`, `fs [command..]`) are no options: `search ""` is the use case's to judge.
  const positionals = new Set([...command.matchAll(/[<[]([\w-]+)(?:\.\.)?[>\]]/g)].map((m) => m[1] as string));
  // `getOptions` is yargs' own (its typings leave it out): the options declared so far, by type.
  const options = (y as unknown as {
    getOptions(): {
      readonly string: string[];
      readonly number: string[];
      readonly array: string[];
      readonly boolean: string[];
      readonly choices: Readonly<Record<string, unknown>>;
    };
  }).getOptions();
  const lists = new Set(options.array);
  const numbers = new Set(options.number);
  // Read as written: yargs would have turned `0x10` into 16 before anything could see it.
  for (const key of numbers) y.string(key);
  for (const key of new Set([...options.string, ...options.number, ...Object.keys(options.choices)])) {
    if (positionals.has(key)) continue;
    if (lists.has(key)) {
      y.coerce(key, (value: unknown) => {
        // `--rate-limit` at the end of the line (or before another flag): yargs gave an empty list, and the server started.
        if (Array.isArray(value) && value.length === 0) throw new CliError(`--${key} needs a value`, 2);
        return value;
      });
      continue;
    }
    if (key !== "groups") y.requiresArg(key);
    y.coerce(key, (value: unknown) => {
      // Given twice (`--dir a --dir b`), yargs makes an array, which every command then took
      // for a string (a node:path stack trace, exit 1: adversary round 31): the last one
      // counts, as in getopt's tools.
      const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
      if (typeof last !== "string" || key === "groups") return last;
      // `--dir=`: no value, as `--dir` alone.
      if (last === "") throw new CliError(`--${key} needs a value`, 2);
      if (numbers.has(key)) return parseNumberOption(key, last);
      return URL_OPTIONS.has(key) ? parseUrlOption(key, last) : last;
    });
  }
  for (const key of options.boolean) {
    if (key === "help" || key === "version") continue;
    y.coerce(key, (value: unknown) => {
      const given = flagValue(argv, key);
      if (given !== undefined && given.value !== "true" && given.value !== "false") {
        throw new CliError(`--${given.name} takes no value (or true or false); got ${JSON.stringify(given.value)}`, 2);
      }
      return Array.isArray(value) ? (value[value.length - 1] as unknown) : value;
    });
  }
  return y;
}

/** The last `--key=VALUE` or `--no-key=VALUE` of the command line (before `--`), with the name as written. */
function flagValue(argv: readonly string[], key: string): { name: string; value: string } | undefined {
  let found: { name: string; value: string } | undefined;
  for (const arg of argv) {
    if (arg === "--") break;
    for (const name of [key, `no-${key}`]) {
      if (arg.startsWith(`--${name}=`)) found = { name, value: arg.slice(name.length + 3) };
    }
  }
  return found;
}

/**
 * yargs' words for a usage error, as this CLI says them: an option given without its value
 * (`requiresArg`), and a value not among an option's choices (yargs' "Invalid values:" block:
 * `--format must be one of csv, json; got "xml"`). Undefined for any other failure.
 */
export function usageMessage(yargsMessage: string, argv: readonly string[] = []): string | undefined {
  const name = /^Not enough arguments following: (\S+)$/.exec(yargsMessage)?.[1];
  if (name !== undefined) return `--${name} needs a value`;
  if (!yargsMessage.startsWith("Invalid values:\n")) return undefined;
  const lines = yargsMessage.split("\n").slice(1).map((line) => {
    const m = /^\s*Argument: (\S+), Given: (.*), Choices: (.*)$/.exec(line);
    if (m === null) return undefined;
    const [, key, given, choices] = m as unknown as [string, string, string, string];
    // An option is named as written (`--format`); a positional by its name (`action`).
    const option = argv.some((arg) => arg === `--${key}` || arg.startsWith(`--${key}=`));
    const values = choices.split(", ").map((c) => (c.startsWith('"') ? (JSON.parse(c) as string) : c));
    return `${option ? `--${key}` : key} must be one of ${values.join(", ")}; got ${given}`;
  });
  return lines.every((line) => line !== undefined) ? lines.join("\n") : undefined;
}

/** `--groups a,b`: the user groups of the local reader (a local preview of restricted pages). */
export function withGroups<T>(y: Argv<T>) {
  return y.option("groups", {
    type: "string",
    describe: "Comma-separated user groups the local reader belongs to (default: public content only)",
  });
}

/** `--json`: machine-readable output. */
export function withJson<T>(y: Argv<T>) {
  return y.option("json", { type: "boolean", default: false, describe: "Print JSON instead of text" });
}

/** `--state DIR|URL` and `--project-id ID`: where service state lives and which project it is for.
 *  Every command that reads or changes state takes both, like `serve`. */
export function withState<T>(y: Argv<T>) {
  return y
    .option("state", {
      type: "string",
      describe:
        "Where credentials, accounts, tokens, settings, feedback and API keys live: a folder (never inside the docs repo by default) or a postgres:// URL (shared by several servers)",
      defaultDescription: "$SVC_STATE_URL, else $XDG_STATE_HOME/svc-mcp/<project-id>",
    })
    .option("project-id", {
      type: "string",
      describe: "Project ID in API paths and the default state folder",
      defaultDescription: "derived from the docs.json name",
    });
}

/** `--fetch-remote`: fetch API specs that docs.json names by URL (off by default: offline). */
export function withFetchRemote<T>(y: Argv<T>) {
  return y.option("fetch-remote", {
    type: "boolean",
    default: false,
    describe: "Fetch API specs docs.json names by URL, to verify their operation entries (default: offline)",
  });
}

export function resolveDir(io: CliIO, dir: string | undefined): string {
  return resolve(io.cwd, dir ?? ".");
}

export function parseGroups(groups: string | undefined): string[] {
  if (groups === undefined) return [];
  return groups.split(",").map((g) => g.trim()).filter((g) => g !== "");
}

/**
 * `--dir` must name an existing folder, for every command: a typo in an editor's config would
 * otherwise serve an empty site that looks like a working server. `--state` must be an existing
 * folder or a supported database URL (`checkStateOption`).
 */
export async function checkFolderOptions(io: CliIO, args: { readonly dir?: unknown; readonly state?: unknown }): Promise<void> {
  for (const flag of ["dir"] as const) {
    const value = args[flag];
    if (typeof value !== "string") continue;
    // `--dir ""` (or `--dir=`) names no folder: not the current one.
    if (value === "") throw new CliError(`--${flag} needs a value`, 2);
    let isFolder: boolean;
    try {
      isFolder = (await stat(resolve(io.cwd, value))).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw new CliError(`--${flag} ${value}: ${(error as Error).message}`, 2);
      throw new CliError(`--${flag} ${value}: no such folder`, 2);
    }
    if (!isFolder) throw new CliError(`--${flag} ${value}: not a folder`, 2);
  }
  if (typeof args.state === "string") {
    const problem = await checkStateOption(args.state, io.cwd);
    if (problem !== undefined) throw new CliError(`--state ${redactUrl(args.state)}: ${problem}`, 2);
  }
}
