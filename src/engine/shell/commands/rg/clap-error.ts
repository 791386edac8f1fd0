import type { CommandIo } from "../../lib/command.js";
import type { OptionError } from "../../lib/options.js";
import { USAGE_BLOCK } from "./help.js";
import { RG_OPTIONS } from "./options.js";

/** ripgrep's report of an unknown option (clap 2), with its "Did you mean" line. */
export function clapError(error: OptionError, io: CommandIo, args: readonly string[]): number {
  const names = RG_OPTIONS.flatMap((s) => (s.long === undefined ? [] : typeof s.long === "string" ? [s.long] : [...s.long]));
  let text: string;
  if (error.kind === "missing-short" || error.kind === "missing-long") {
    const spec = RG_OPTIONS.find((s) => (error.kind === "missing-short" ? s.short === error.option : error.option === `--${String(s.long)}`));
    const long = spec === undefined ? error.option : typeof spec.long === "string" ? spec.long : (spec.long?.[0] ?? error.option);
    const repeatable = ["e", "f", "g", "iglob", "t", "T"].includes(spec?.key ?? "");
    // clap 2 checks the required PATTERN first when nothing else was given.
    const onlyThisOption = args.length === 1 && !repeatable;
    text = onlyThisOption
      ? "error: The following required arguments were not provided:\n    <PATTERN>\n"
      : `error: The argument '--${long} <${spec?.placeholder ?? "VALUE"}>${repeatable ? "..." : ""}' requires a value but none was supplied\n`;
  } else if (error.kind === "no-argument") {
    text = `error: Found argument '${error.option}' which wasn't expected, or isn't valid in this context\n`;
  } else {
    // clap reads `---` as `--` followed by junk, and names `--`.
    const shown = error.kind === "invalid" ? `-${error.option}` : error.option.startsWith("---") ? "--" : error.option;
    text = `error: Found argument '${shown}' which wasn't expected, or isn't valid in this context\n`;
    if (shown.startsWith("--")) {
      const guess = closest(shown.slice(2), names);
      if (guess !== undefined) text += `\tDid you mean --${guess}?\n`;
    }
  }
  io.out.error(`${text}\n${USAGE_BLOCK}`);
  return 2;
}

/** clap's suggestion: the most similar long option by Jaro-Winkler, above 0.8. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = 0.8;
  for (const c of candidates) {
    const score = jaroWinkler(word, c);
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

/** Jaro-Winkler similarity (0..1), as the strsim crate clap uses computes it. */
function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const range = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatch = new Array<boolean>(a.length).fill(false);
  const bMatch = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - range); j < Math.min(b.length, i + range + 1); j++) {
      if (!bMatch[j] && a[i] === b[j]) {
        aMatch[i] = true;
        bMatch[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let t = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatch[i]) continue;
    while (!bMatch[k]) k++;
    if (a[i] !== b[k]) t++;
    k++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - t / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
