import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./paths.js";

/**
 * The Node 22 executable the dev tools that need it run on (the MCP conformance suite, MCP
 * Inspector): the registry's `node` package, installed under tools/node22 so that it never
 * becomes node_modules/.bin/node (docs/dependencies.md).
 */
export const NODE22 = join(REPO, "tools", "node22", "node_modules", "node", "bin", "node");

/** Why NODE22 cannot run `tool`, which needs Node >= `major.minor`; undefined when it can. */
export function node22Problem(tool: string, [major, minor]: readonly [number, number] = [22, 0]): string | undefined {
  const wanted = `${major}.${minor}`;
  if (!existsSync(NODE22)) return `tools/node22's node package (Node >= ${wanted}, which ${tool} needs) is not installed`;
  const version = execFileSync(NODE22, ["--version"], { encoding: "utf8" }).trim();
  const [got = 0, gotMinor = 0] = (/^v(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  if (got > major || (got === major && gotMinor >= minor)) return undefined;
  return `tools/node22 holds Node ${version}; ${tool} needs ${wanted} or later`;
}
