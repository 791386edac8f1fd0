import { appendAll } from "../../../arrays.js";
/** One option a command accepts. */
export interface OptionSpec {
  /** Name in the parse result. */
  readonly key: string;
  /** Single-character form (`n` for `-n`). */
  readonly short?: string;
  /** Long forms without dashes (`line-number`). */
  readonly long?: string | readonly string[];
  /** Whether the option takes a value (`-e PAT`, `--max-count=N`). */
  readonly value?: boolean;
}

export interface ParsedOption {
  readonly key: string;
  /** The option as written (`-e`, `--regexp`), for error messages. */
  readonly name: string;
  readonly value: string;
}

export interface ParsedArgs {
  /** Options in command-line order (later ones override earlier ones, as in the real tools). */
  readonly options: readonly ParsedOption[];
  readonly operands: readonly string[];
}

export type OptionErrorKind = "invalid" | "unrecognized" | "missing-short" | "missing-long" | "no-argument" | "ambiguous";

/** A command-line mistake; `formatGnu` renders getopt's wording. */
export class OptionError extends Error {
  override readonly name = "OptionError";
  constructor(
    readonly kind: OptionErrorKind,
    /** The option text: `z` for `-z`, `--foo` for long ones. */
    readonly option: string,
    readonly possibilities: readonly string[] = [],
  ) {
    super(`${kind} ${option}`);
  }

  /** getopt_long's message (without the `cmd: ` prefix). */
  formatGnu(): string {
    switch (this.kind) {
      case "invalid":
        return `invalid option -- '${this.option}'`;
      case "unrecognized":
        return `unrecognized option '${this.option}'`;
      case "missing-short":
        return `option requires an argument -- '${this.option}'`;
      case "missing-long":
        return `option '${this.option}' requires an argument`;
      case "no-argument":
        return `option '${this.option}' doesn't allow an argument`;
      case "ambiguous":
        return `option '${this.option}' is ambiguous; possibilities:${this.possibilities.map((p) => ` '--${p}'`).join("")}`;
    }
  }
}

export interface ParseSettings {
  /** GNU getopt accepts unambiguous prefixes of long options (`--max=3`); clap (ripgrep) does not. */
  readonly abbreviations: boolean;
  /** `-NUM` (grep context, head/tail line counts): the option key to store NUM under. */
  readonly numericKey?: string;
  /** Options may follow operands (GNU permutes them); false stops at the first operand. */
  readonly permute?: boolean;
}

/** Parse GNU/clap-style arguments: clustered short options, `--long=value`, `--` ending options. */
export function parseOptions(args: readonly string[], specs: readonly OptionSpec[], settings: ParseSettings): ParsedArgs {
  const byShort = new Map<string, OptionSpec>();
  const byLong = new Map<string, OptionSpec>();
  for (const s of specs) {
    if (s.short !== undefined) byShort.set(s.short, s);
    const longs = s.long === undefined ? [] : typeof s.long === "string" ? [s.long] : s.long;
    for (const l of longs) byLong.set(l, s);
  }
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const permute = settings.permute ?? true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      appendAll(operands, args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      let spec = byLong.get(name);
      let resolved = name;
      if (spec === undefined && settings.abbreviations) {
        const matches = [...byLong.keys()].filter((l) => l.startsWith(name));
        const distinct = new Set(matches.map((m) => byLong.get(m)));
        if (distinct.size === 1) {
          resolved = matches[0] as string;
          spec = byLong.get(resolved);
        } else if (distinct.size > 1) {
          throw new OptionError("ambiguous", `--${name}`, matches.sort());
        }
      }
      if (spec === undefined) throw new OptionError("unrecognized", eq === -1 ? arg : arg.slice(0, eq));
      if (spec.value === true) {
        let value: string;
        if (eq !== -1) value = arg.slice(eq + 1);
        else if (i + 1 < args.length) value = args[++i] as string;
        else throw new OptionError("missing-long", `--${resolved}`);
        options.push({ key: spec.key, name: `--${resolved}`, value });
      } else {
        if (eq !== -1) throw new OptionError("no-argument", `--${resolved}`);
        options.push({ key: spec.key, name: `--${resolved}`, value: "" });
      }
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      if (settings.numericKey !== undefined && /^-\d+$/.test(arg)) {
        options.push({ key: settings.numericKey, name: arg, value: arg.slice(1) });
        continue;
      }
      for (let k = 1; k < arg.length; k++) {
        const c = arg[k] as string;
        if (settings.numericKey !== undefined && /\d/.test(c)) {
          // Digits inside a cluster (`-5n`, `-n5` is handled by -n's value) accumulate as -NUM.
          let j = k;
          while (j < arg.length && /\d/.test(arg[j] as string)) j++;
          options.push({ key: settings.numericKey, name: `-${arg.slice(k, j)}`, value: arg.slice(k, j) });
          k = j - 1;
          continue;
        }
        const spec = byShort.get(c);
        if (spec === undefined) throw new OptionError("invalid", c);
        if (spec.value === true) {
          let value: string;
          if (k + 1 < arg.length) value = arg.slice(k + 1);
          else if (i + 1 < args.length) value = args[++i] as string;
          else throw new OptionError("missing-short", c);
          options.push({ key: spec.key, name: `-${c}`, value });
          break;
        }
        options.push({ key: spec.key, name: `-${c}`, value: "" });
      }
      continue;
    }
    operands.push(arg);
    if (!permute) {
      appendAll(operands, args.slice(i + 1));
      break;
    }
  }
  return { options, operands };
}

/** Last value of an option, or undefined. */
export function lastValue(parsed: ParsedArgs, key: string): string | undefined {
  let v: string | undefined;
  for (const o of parsed.options) if (o.key === key) v = o.value;
  return v;
}

/** Whether an option was given. */
export function has(parsed: ParsedArgs, key: string): boolean {
  return parsed.options.some((o) => o.key === key);
}

/** Every value of a repeatable option, in order. */
export function allValues(parsed: ParsedArgs, key: string): string[] {
  return parsed.options.filter((o) => o.key === key).map((o) => o.value);
}

/**
 * One row of a command's option table: how the option is written (`OptionSpec`) and what it does
 * to the command's typed settings. A table is read once by `parseOptions` (spelling) and once by
 * `applyOptions` (meaning), so an option is declared in one place instead of a spec list plus a
 * switch. Rows without `apply` are accepted without effect; a key's one row with `apply` gives
 * the meaning to every row of that key (`-y` is `-i`).
 */
export interface OptionRow<S, C = unknown> extends OptionSpec {
  /** Apply the option; a number stops the command with that exit status (its message written). */
  readonly apply?: (settings: S, value: string, context: C, option: ParsedOption) => number | void;
}

/** Apply parsed options to `settings` in command-line order; an exit status if one stops it. */
export function applyOptions<S, C>(parsed: ParsedArgs, rows: readonly OptionRow<S, C>[], settings: S, context: C): number | undefined {
  const byKey = new Map<string, OptionRow<S, C>>();
  for (const row of rows) {
    if (row.apply === undefined) continue;
    // A table bug, not a user's mistake: two meanings for one key would depend on row order.
    if (byKey.has(row.key)) throw new Error(`option table: two rows apply key ${row.key}`);
    byKey.set(row.key, row);
  }
  for (const option of parsed.options) {
    const status = byKey.get(option.key)?.apply?.(settings, option.value, context, option);
    if (typeof status === "number") return status;
  }
  return undefined;
}

