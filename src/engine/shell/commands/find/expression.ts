import type { EntryInfo } from "../../../../vfs/view.js";
import type { CommandIo } from "../../lib/command.js";

/** An entry being tested. */
export interface Ctx {
  readonly path: string;
  /** The path as find prints it (start operand joined with names). */
  readonly display: string;
  /** The starting point it was found under, for %P. */
  readonly start: string;
  readonly depth: number;
  readonly info: EntryInfo;
}

/** What evaluating the expression shares across entries. */
export interface Env {
  readonly io: CommandIo;
  prune: boolean;
  quit: boolean;
  /**
   * Paths collected by `-exec ... {} +` per exec node, with the folder they run in. GNU runs an
   * `-execdir ... +` batch as soon as the walk moves to another folder.
   */
  readonly batches: Map<ExecNode, { dir: string; names: string[] }>;
  status: number;
}

/** A parsed expression. */
export type Node =
  | { readonly op: "and" | "or" | "comma"; readonly left: Node; readonly right: Node }
  | { readonly op: "not"; readonly expr: Node }
  | { readonly op: "test"; readonly name: string; readonly test: (c: Ctx, env: Env) => boolean | Promise<boolean>; readonly action: boolean }
  | ExecNode;

export interface ExecNode {
  readonly op: "exec";
  readonly command: readonly string[];
  readonly batch: boolean;
  /** `-execdir`: run in the entry's folder, naming it `./NAME`. */
  readonly inDir: boolean;
}

/** A mistake in the expression: find prints the message and exits with 1. */
export class FindError extends Error {}
