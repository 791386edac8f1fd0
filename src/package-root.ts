import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of svc-mcp's package.json above `from` (a module's `import.meta.url`): the checkout
 * when the sources or its dist/ run, the installed package's folder when the bundle runs from
 * node_modules. Throws when there is none (code copied out of its package).
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
    if (parent === dir) throw new Error("svc-mcp's package.json not found above the code");
    dir = parent;
  }
}
