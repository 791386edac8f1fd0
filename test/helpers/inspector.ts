import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Suite } from "./conformance.js";
import { NODE22, node22Problem } from "./node22.js";
import { REPO } from "./paths.js";

/**
 * MCP Inspector 2.12 (`@modelcontextprotocol/inspector`), a dependency of tools/node22 beside
 * the Node 22 it needs (>= 22.19). Resolved from tools/node22, where npm may hoist it or not.
 */
const require = createRequire(join(REPO, "tools", "node22", "package.json"));

/** The inspector's launcher (what `npx @modelcontextprotocol/inspector` runs) and the Node to run it with, or why they cannot be had. */
export function findInspector(): Suite | string {
  let manifest: string;
  try {
    manifest = require.resolve("@modelcontextprotocol/inspector/package.json");
  } catch {
    return "@modelcontextprotocol/inspector is not installed (a dependency of tools/node22)";
  }
  const problem = node22Problem("MCP Inspector", [22, 19]);
  if (problem !== undefined) return problem;
  const { version, bin } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string; bin: Record<string, string> };
  if (!version.startsWith("2.12.")) return `@modelcontextprotocol/inspector ${version} is installed; the test is written for 2.12`;
  const entry = bin["mcp-inspector"];
  if (entry === undefined) return "@modelcontextprotocol/inspector names no mcp-inspector executable";
  return { cli: join(dirname(manifest), entry), node: NODE22 };
}
