import type { CommandIo } from "../../lib/command.js";
import { type Ctx, type Env, FindError, type Node } from "./expression.js";
import { PRIMARIES, type PrimaryParser, newerXY } from "./primaries.js";

/**
 * Recursive-descent parser for find's expression language: operators here, each primary in the
 * `PRIMARIES` table (primaries.ts).
 */
export class Parser implements PrimaryParser {
  private i = 0;
  maxDepth = Number.POSITIVE_INFINITY;
  minDepth = 0;
  depthFirst = false;
  hasAction = false;
  regexType: "emacs" | "ere" | "bre" = "emacs";

  constructor(
    private readonly args: readonly string[],
    readonly io: CommandIo,
  ) {}

  parse(): Node | undefined {
    if (this.args.length === 0) return undefined;
    const node = this.comma();
    if (this.i < this.args.length) {
      const t = this.args[this.i] as string;
      if (t === ")") throw new FindError("invalid expression; you have too many ')'");
      throw new FindError(`paths must precede expression: \`${t}'`);
    }
    return node;
  }

  private comma(): Node {
    let left = this.or();
    while (this.args[this.i] === ",") {
      this.i++;
      left = { op: "comma", left, right: this.or() };
    }
    return left;
  }

  private or(): Node {
    let left = this.and();
    while (this.args[this.i] === "-o" || this.args[this.i] === "-or") {
      this.i++;
      left = { op: "or", left, right: this.and() };
    }
    return left;
  }

  private and(): Node {
    let left = this.unary();
    for (;;) {
      const t = this.args[this.i];
      if (t === undefined || t === ")" || t === "-o" || t === "-or" || t === ",") return left;
      if (t === "-a" || t === "-and") this.i++;
      left = { op: "and", left, right: this.unary() };
    }
  }

  private unary(): Node {
    const t = this.args[this.i];
    if (t === "!" || t === "-not") {
      this.i++;
      return { op: "not", expr: this.unary() };
    }
    if (t === "(") {
      this.i++;
      if (this.args[this.i] === ")") throw new FindError("invalid expression; empty parentheses are not allowed.");
      const inner = this.comma();
      if (this.args[this.i] !== ")") throw new FindError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
      this.i++;
      return inner;
    }
    return this.primary();
  }

  value(option: string): string {
    const v = this.args[++this.i];
    if (v === undefined) throw new FindError(`missing argument to \`${option}'`);
    this.i++;
    return v;
  }

  test(name: string, test: (c: Ctx, env: Env) => boolean | Promise<boolean>, action = false): Node {
    if (action) this.hasAction = true;
    return { op: "test", name, test, action };
  }

  skip(): void {
    this.i++;
  }

  execWords(option: string): { command: string[]; batch: boolean } {
    this.i++;
    const command: string[] = [];
    let batch = false;
    for (;;) {
      const w = this.args[this.i];
      if (w === undefined) throw new FindError(`missing argument to \`${option}'`);
      this.i++;
      if (w === ";") break;
      if (w === "+" && command[command.length - 1] === "{}") {
        batch = true;
        break;
      }
      command.push(w);
    }
    if (command.length === 0) throw new FindError(`missing argument to \`${option}'`);
    return { command, batch };
  }

  private primary(): Node {
    const t = this.args[this.i] as string;
    const primary = PRIMARIES.get(t);
    if (primary !== undefined) return primary(this, t);
    if (/^-newer[aBcm][aBcmt]$/.test(t)) return newerXY(this, t);
    if (t.startsWith("-newer") && t.length === 8) throw new FindError(`invalid predicate \`${t}'`);
    if (t.startsWith("-")) throw new FindError(`unknown predicate \`${t}'`);
    throw new FindError(`paths must precede expression: \`${t}'`);
  }
}
