import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { checkStateOption, redactUrl } from "../store/location.js";
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
 * Every option that takes one value (a string or a number) must be given one: yargs otherwise
 * reads `--dir` at the end of the line, or before another flag, as an empty string, and `serve
 * --dir` served the current folder without a word (issue 25). Lists (`--rate-limit`) keep
 * yargs' own reading, and so does `--groups`, whose empty value means a reader of no group
 * (`nav --groups` alone: the anonymous reader's navigation). Applied to every command by `main`;
 * the error is `needsValueMessage`'s.
 */
export function requireValues<T>(y: Argv<T>, argv: readonly string[] = []): Argv<T> {
  // `getOptions` is yargs' own (its typings leave it out): the options declared so far, by type.
  const options = (y as unknown as { getOptions(): { readonly string: string[]; readonly number: string[]; readonly array: string[] } }).getOptions();
  const lists = new Set([...options.array, "groups"]);
  for (const key of [...options.string, ...options.number]) if (!lists.has(key)) y.requiresArg(key);
  const numbers = new Set(options.number);
  for (const key of [...options.string, ...options.number]) {
    if (options.array.includes(key)) continue;
    y.coerce(key, (value: unknown) => {
      // Given twice (`--dir a --dir b`), yargs makes an array, which every command then took
      // for a string (a node:path stack trace, exit 1: adversary round 31): the last one
      // counts, as in getopt's tools.
      const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
      // yargs reads `--port soon` as NaN, and each command's range check then said "got NaN".
      if (numbers.has(key) && typeof last === "number" && Number.isNaN(last)) {
        throw new CliError(`--${key} must be a number; got ${JSON.stringify(givenValue(argv, key) ?? "something else")}`, 2);
      }
      return last;
    });
  }
  return y;
}

/** What the command line gave option `key` last (`--key VALUE` or `--key=VALUE`), as written. */
function givenValue(argv: readonly string[], key: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") break;
    if (arg === `--${key}`) found = argv[i + 1];
    else if (arg.startsWith(`--${key}=`)) found = arg.slice(key.length + 3);
  }
  return found;
}

/** yargs' words for an option given without its value (`requiresArg`), as this CLI says it; undefined for any other failure. */
export function needsValueMessage(yargsMessage: string): string | undefined {
  const name = /^Not enough arguments following: (\S+)$/.exec(yargsMessage)?.[1];
  return name === undefined ? undefined : `--${name} needs a value`;
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
