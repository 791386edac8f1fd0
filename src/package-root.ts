import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of svc-mcp's package.json above `from` (a module's `import.meta.url`): the checkout
 * when the sources or its dist/ run, the installed package's folder when the bundle runs from
 * node_modules. The installed bundle unpacked under the user's cache folder (bin/svc-mcp.js does
 * that when the package's folder is not writable) has none above it: SVC_MCP_PACKAGE_ROOT, set by
 * that bin, names the package. Throws when there is none (code copied out of its package).
 */
export function packageRoot(from: string): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (pkg.name === "svc-mcp") return dir;
    } catch {
      // No package.json here: keep going up.
    }
    const parent = dirname(dir);
    if (parent === dir) {
      const named = process.env.SVC_MCP_PACKAGE_ROOT;
      if (named !== undefined && named !== "") return named;
      throw new Error("svc-mcp's package.json not found above the code");
    }
    dir = parent;
  }
}
