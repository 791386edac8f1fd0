import type { PipelineNode } from "just-bash";

/**
 * Visit every pipeline of a just-bash AST, innermost first: commands nest in loops, groups,
 * functions, subshells and substitutions, so the walk goes through every object and array. A
 * pipeline is visited after the pipelines inside its commands, so a transform may replace or
 * wrap its commands without the walk visiting what it put there.
 */
export function forEachPipeline(node: unknown, visit: (pipeline: PipelineNode) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) forEachPipeline(item, visit);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const value of Object.values(node)) forEachPipeline(value, visit);
  if ((node as { type?: unknown }).type === "Pipeline") visit(node as PipelineNode);
}
