import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The assets the pages load, by file name, with their content types. */
export const ASSET_TYPES: Readonly<Record<string, string>> = {
  "playground.js": "text/javascript; charset=utf-8",
  "playground-app.js": "text/javascript; charset=utf-8",
  "dashboard.js": "text/javascript; charset=utf-8",
  "dashboard.css": "text/css; charset=utf-8",
  "pages.css": "text/css; charset=utf-8",
  "preview.js": "text/javascript; charset=utf-8",
  "site.css": "text/css; charset=utf-8",
};

/** Where the pages load assets from (`/_svc/assets/playground.js`). */
export const ASSETS_PATH = "/_svc/assets";

export interface WebAssets {
  /** An asset's text, or undefined for a name that is not one. */
  get(name: string): Promise<string | undefined>;
}

/**
 * The pages' scripts and styles. A build (`npm install`, `npm pack`) writes them to dist/web/,
 * beside the CLI chunks: they are read from there. A checkout running its sources (tests, or
 * src/ newer than dist/) bundles them in memory on first use with the same esbuild options
 * (scripts/web-build.mjs), so the pages always run the current code.
 */
export function webAssets(): WebAssets {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, "web");
  let texts: Promise<Record<string, string>> | undefined;
  const load = (): Promise<Record<string, string>> => {
    if (existsSync(join(built, "playground.js"))) {
      const out: Record<string, string> = {};
      for (const name of Object.keys(ASSET_TYPES)) out[name] = readFileSync(join(built, name), "utf8");
      return Promise.resolve(out);
    }
    // Sources: src/bridge/web/ is three levels under the repository. A computed URL, so the
    // CLI bundle does not pull the build script (and esbuild) in.
    const script = pathToFileURL(resolve(here, "../../../scripts/web-build.mjs")).href;
    return (import(script) as Promise<{ buildWeb: () => Promise<Record<string, string>> }>).then((m) => m.buildWeb());
  };
  return {
    async get(name) {
      if (!Object.hasOwn(ASSET_TYPES, name)) return undefined;
      texts ??= load();
      try {
        return (await texts)[name];
      } catch (error) {
        // A failed build is retried on the next request rather than cached.
        texts = undefined;
        throw error;
      }
    },
  };
}
