// The browser assets of the HTML pages (API pages' playground, feedback dashboard): bundled by
// esbuild into dist/web/ with the CLI (scripts/build.mjs), or in memory when the server runs
// from a checkout's sources (src/bridge/web/assets.ts). Every script, style and font the pages
// use is in these files: the bridge serves them, so a page never loads anything from elsewhere.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Entry points by output name (`playground.js`, the MCP App's `playground-app.js` (inlined into its document), `dashboard.js` and its `dashboard.css`, `pages.css`,
 *  the preview's `preview.js` and `site.css`). */
export const WEB_ENTRIES = {
  playground: "src/web/playground.ts",
  "playground-app": "src/web/playground-app.ts",
  dashboard: "src/web/dashboard.ts",
  pages: "src/web/pages.css",
  preview: "src/web/preview.ts",
  site: "src/web/preview.css",
};

/**
 * Bundle the assets. `outdir` set: write them there; unset: return them as
 * `{ name: { text, type } }` (the server's source mode).
 */
export async function buildWeb(outdir) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: WEB_ENTRIES,
    outdir: outdir ?? "web",
    bundle: true,
    minify: true,
    format: "esm",
    // What the pages need (fetch, modules, optional chaining): every browser of the last years.
    target: ["chrome100", "firefox100", "safari15"],
    platform: "browser",
    write: outdir !== undefined,
    logLevel: "warning",
    legalComments: "none",
  });
  if (outdir !== undefined) return undefined;
  const out = {};
  for (const f of result.outputFiles ?? []) out[f.path.split("/").pop()] = f.text;
  return out;
}
