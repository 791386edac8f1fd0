import { join } from "node:path";
import { REPO } from "./paths.js";

/**
 * The Node 22 executable the dev tools that need it run on (the MCP conformance suite, MCP
 * Inspector): the registry's `node` package, installed under tools/node22 so that it never
 * becomes node_modules/.bin/node (docs/dependencies.md).
 */
export const NODE22 = join(REPO, "tools", "node22", "node_modules", "node", "bin", "node");
