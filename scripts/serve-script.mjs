// The CLI as one CommonJS script, dist/cli-<hash>.cjs, beside the ES module chunks: what
// bin/svc-mcp.js runs `serve` from on a Node without `module.enableCompileCache` (Node 20), so
// that V8's compiled code of it can be kept in the user's cache folder and taken back on the next
// start (bin/code-cache.js). Node 20 takes a code cache only for a script compiled through
// `vm.Script` (`cachedData`): ES modules would need `vm.SourceTextModule`, behind a flag the bin
// cannot set for itself, and esbuild cannot split CommonJS, hence one file holding every command
// (the ones serve does not run stay behind esbuild's lazy wrappers, never evaluated).
// docs/measurements.md ("The bundle's compile on Node 20") has what it saves.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/**
 * Options the ES module build also uses (plugins, externals, aliases, minification): the two
 * builds must hold the same code. `import.meta.url` becomes the URL of cli.mjs in the same
 * folder: what the modules resolve their workers, jq.wasm and package.json from, as in the chunks.
 */
export async function buildServeScript(shared, outdir, fingerprint, placeholder) {
  const result = await build({
    ...shared,
    entryPoints: { cli: "src/cli/main.ts" },
    outdir,
    outExtension: { ".js": ".cjs" },
    splitting: false,
    format: "cjs",
    banner: { js: 'const __svcImportMetaUrl = require("node:url").pathToFileURL(require("node:path").join(__dirname, "cli.mjs")).href;' },
    define: { ...shared.define, "import.meta.url": "__svcImportMetaUrl" },
    metafile: false,
    sourcemap: false,
    write: false,
  });
  const [output] = result.outputFiles;
  // The same fingerprint as the chunks: caches keyed by it (the site cache, the spec cache) are
  // shared by both ways of running the same code.
  const text = output.text.split(placeholder).join(fingerprint);
  // Named by its content: the code cache is keyed by the name (bin/code-cache.js), so a rebuilt
  // script never meets a cache made for another.
  const name = `cli-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.cjs`;
  writeFileSync(join(outdir, name), text);
  return name;
}
