import { maxOf } from "../arrays.js";
import { boundedEditDistance } from "../engine/search/fuzzy.js";

/**
 * yargs' words for a command line whose bare words do not fit, as this CLI says them. yargs
 * says "Not enough non-option arguments: got 0, need at least 1" for `svc-mcp search` alone,
 * and "Unknown argument: limits" both for `svc-mcp search rate limits` (an unquoted query) and
 * for `svc-mcp bogus` (a command that does not exist), none of which tells a new user what to
 * type. Undefined for any other failure, or a line whose first word names no loaded command
 * where that matters.
 */
export function wordsMessage(yargsMessage: string, argv: readonly string[], commands: readonly { readonly command: string }[]): string | undefined {
  const names = commands.map((c) => c.command.split(" ")[0] as string);
  const first = argv[0];
  const usage = commands.find((c) => c.command.split(" ")[0] === first)?.command;
  const missing = /^Not enough non-option arguments: got (\d+), need at least \d+$/.exec(yargsMessage);
  if (missing !== null) {
    if (usage === undefined) return undefined;
    const required = [...usage.matchAll(/<[\w-]+(?:\.\.)?>/g)].map((m) => m[0]);
    const word = required[Number(missing[1])];
    return word === undefined ? undefined : `missing ${word}: svc-mcp ${usage}`;
  }
  // yargs suggests any command within three edits: `svc-mcp init` was "Did you mean nav?", a
  // command that has nothing to do with setting a site up. Kept for a typo (one edit in a short
  // word, `chekc`; two in a longer one); else the commands are listed, as for any unknown word.
  const suggested = /^Did you mean (\S+)\?$/.exec(yargsMessage)?.[1];
  if (suggested !== undefined && first !== undefined && !names.includes(first)) {
    const typo = boundedEditDistance(first, suggested, 2) <= (first.length < 6 ? 1 : 2);
    return typo ? undefined : `unknown command ${JSON.stringify(first)}; the commands are ${names.join(", ")}`;
  }
  const unknown = /^Unknown arguments?: (.*)$/.exec(yargsMessage);
  if (unknown === null) return undefined;
  const listed = (unknown[1] as string).split(", ");
  // `svc-mcp bogus --dir x`: yargs lists the options of no command too.
  if (first !== undefined && !first.startsWith("-") && !names.includes(first) && listed.includes(first)) return `unknown command ${JSON.stringify(first)}; the commands are ${names.join(", ")}`;
  // Only bare words (an unknown `--option` is yargs' to name, as it does).
  const beforeDashes = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  if (usage === undefined || !listed.every((word) => beforeDashes.includes(word) && !word.startsWith("-"))) return undefined;
  const text = `too many words for svc-mcp ${usage}: ${listed.map((word) => JSON.stringify(word)).join(", ")}`;
  // A command of one positional given it as several words (`search rate limits`): quote them.
  if ((usage.match(/[<[][\w-]+(?:\.\.)?[>\]]/g) ?? []).length !== 1) return text;
  const last = maxOf(listed.map((word) => beforeDashes.indexOf(word)));
  const words = beforeDashes.slice(1, last + 1);
  // Shown quoted only when the words come first, so that none of them is an option's value.
  if (words.some((word) => word.startsWith("-"))) return `${text}; quote a value of several words`;
  return `${text}; quote a value of several words: svc-mcp ${first} ${JSON.stringify(words.join(" "))}`;
}
