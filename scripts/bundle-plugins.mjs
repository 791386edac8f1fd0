// What the CLI bundle (scripts/build.mjs) leaves out, and esbuild plugins. The bundle holds every
// library the CLI runs, so the npm package has no runtime dependencies to install; the plugins
// cover the two places where bundling a library as it is would either miss code or pull in code
// nothing runs. test/cli/bundle.test.ts reads these lists.
import { readFile } from "node:fs/promises";
import { relative, sep } from "node:path";
import { JUST_BASH_PATCHES, PATCHED_FILE, RE2JS_PATCHES, patchJustBash } from "../src/engine/shell/just-bash-patches.mjs";

/**
 * Packages the bundle leaves to Node's own resolution at run time: native addons, which cannot be
 * bundled and are optional. better-sqlite3 is an optional peer dependency (src/store/sqlite.ts
 * says what to install when it is missing); pg's pg-native, just-bash's zstd and lzma are loaded
 * only on request, in a try, and we never request them.
 */
export const EXTERNAL = ["better-sqlite3", "pg-native", "@mongodb-js/zstd", "node-liblzma"];

/**
 * just-bash's prebuilt bundle loads each command from a chunk of its own when the command first
 * runs (`import("./chunks/sqlite3-UVVRYDAL.js")`). These chunks belong to commands the docs shell
 * never offers (src/engine/shell/docs-shell.ts leaves sqlite3, html-to-markdown, gzip and tar out;
 * curl, python3 and js-exec exist only with network or interpreter options we never set) or to
 * a feature we never turn on (the network's HTTP client). Bundled, they would bring sql.js,
 * turndown, seek-bzip, undici and the Python and QuickJS workers along; left out, a command
 * that loads one fails with the message below. test/cli/bundle.test.ts checks that no command
 * the shell offers loads one of them, and runs every one through the bundle.
 *
 * flag-coverage is NOT left out (4.6 kB, shared chunks only): the docs shell gives just-bash a
 * `coverage` writer (its work budget, src/engine/shell/work-budget.ts), and just-bash then
 * imports flag-coverage before every built-in command it runs; left out, `echo hi` failed in
 * the bundle only (issue 25).
 */
export const LEFT_OUT_JUST_BASH_CHUNKS = ["sqlite3", "html-to-markdown", "gzip", "tar", "curl", "python3", "js-exec", "undici"];

/** What loading a left-out chunk fails with. */
export function leftOutMessage(name) {
  return `just-bash's ${name} is not part of svc-mcp's bundle (the docs shell does not offer it)`;
}

/**
 * just-bash's `import("./chunks/NAME-HASH.js")`s, as the bundle takes them: a left-out chunk
 * (`names`) becomes a promise rejected with `leftOutMessage`, so nothing of it is bundled;
 * every other chunk is imported statically, so that its code joins the chunk that holds the
 * interpreter. Kept as dynamic imports, the chunks made ~110 files of the package's ~200: `npx
 * --package <tgz>` unpacks the whole package three times on every run, and its cost grows with
 * the number of files more than with their size (docs/measurements.md). The shell loads them
 * all at once instead (~40 ms more for its first command), after a stdio server has answered
 * `tools/list` (src/engine/shell/lazy-shell.ts).
 */
export function justBashChunks(names = LEFT_OUT_JUST_BASH_CHUNKS) {
  const chunkImport = /\bimport\("(\.\/(?:chunks\/)?)([a-z0-9-]+?)-([A-Z0-9]+)\.js"\)/g;
  return {
    name: "just-bash-chunks",
    setup(build) {
      const seen = new Set();
      let inlined = 0;
      // src/engine/shell/just-bash-patches.mjs: awk's values corrected (issue 25).
      const patched = new Set();
      build.onLoad({ filter: PATCHED_FILE }, async (args) => {
        const original = await readFile(args.path, "utf8");
        const text = patchJustBash(original, patched);
        const hoisted = [];
        const contents = text.replace(chunkImport, (_all, dir, name, hash) => {
          if (names.includes(name)) {
            seen.add(name);
            return `Promise.reject(new Error(${JSON.stringify(leftOutMessage(name))}))`;
          }
          const binding = `__svcJustBashChunk${hoisted.length}`;
          hoisted.push(`import * as ${binding} from "${dir}${name}-${hash}.js";`);
          inlined++;
          return `Promise.resolve(${binding})`;
        });
        if (hoisted.length === 0 && contents === original) return undefined;
        // Static imports are hoisted whatever their place; at the top they keep the lines below.
        return { contents: `${hoisted.join("")}${contents}`, loader: "js" };
      });
      // A just-bash upgrade that renames a chunk or loads chunks another way would silently
      // bundle a left-out chunk again, or split the package into files again: say so.
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        const missing = names.filter((n) => !seen.has(n));
        if (missing.length > 0) {
          result.errors.push({ text: `just-bash has no chunk named ${missing.join(", ")} any more: update LEFT_OUT_JUST_BASH_CHUNKS in scripts/bundle-plugins.mjs` });
        }
        const unapplied = [...JUST_BASH_PATCHES, ...RE2JS_PATCHES].filter((p) => !patched.has(p));
        if (unapplied.length > 0) result.errors.push({ text: `just-bash patches found nothing to correct: ${unapplied.map((p) => p.why).join("; ")} (src/engine/shell/just-bash-patches.mjs)` });
        if (inlined === 0) result.errors.push({ text: "just-bash no longer loads its commands by import(\"./chunks/...\"): update justBashChunks in scripts/bundle-plugins.mjs" });
      });
    },
  };
}

/**
 * Our modules that load CommonJS through `createRequire(import.meta.url)`, and why, by path from
 * the repository. Under Node, tsx and vitest that `require` is Node's own; esbuild does not follow
 * it, so in the bundle it is turned into a plain `require(...)`, which esbuild bundles. The
 * SQLite driver (src/store/sqlite.ts) keeps Node's `require`: better-sqlite3 is a native addon,
 * an optional dependency installed beside the package.
 */
const BUNDLED_REQUIRES = {
  // yargs' CommonJS build: its help layout wraps between words (src/cli/main.ts says why).
  "src/cli/main.ts": [["createRequire(import.meta.url)(", "require("]],
  // gray-matter, loaded when front matter is first parsed (a start from the site cache parses none).
  "src/config/frontmatter.ts": [["createRequire(import.meta.url)(", "require("]],
  // ajv's runtime helpers, which ajv's generated ES module code still `require`s.
  "src/config/openapi/validators/openapi-3.0.mjs": [["const require = createRequire(import.meta.url);", ""]],
  "src/config/openapi/validators/openapi-3.1.mjs": [["const require = createRequire(import.meta.url);", ""]],
};

/** Rewrite the `createRequire(import.meta.url)` of `BUNDLED_REQUIRES` into bundled `require`s. */
export function bundledRequires(root) {
  return {
    name: "bundled-requires",
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.(ts|mjs)$/ }, async (args) => {
        const rel = relative(root, args.path).split(sep).join("/");
        const edits = BUNDLED_REQUIRES[rel];
        if (edits === undefined) return undefined;
        let text = await readFile(args.path, "utf8");
        for (const [from, to] of edits) {
          // A file that no longer has the text would silently run Node's require on a package
          // the npm package does not install.
          if (!text.includes(from)) return { errors: [{ text: `${rel} no longer contains ${JSON.stringify(from)}: update BUNDLED_REQUIRES in scripts/bundle-plugins.mjs` }] };
          text = text.split(from).join(to);
        }
        return { contents: text, loader: rel.endsWith(".ts") ? "ts" : "js" };
      });
    },
  };
}

/**
 * zod's `locales` namespace (every language's error messages, ~300 kB minified), which zod's entry
 * re-exports and the MCP SDK imports with it: nothing here reads any but English (zod sets it as
 * its default from its own module), so the namespace holds only `en`. `serve` parses 300 kB less
 * before it answers.
 */
export function zodEnglishOnly() {
  return {
    name: "zod-english-only",
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";\n', loader: "js" }));
    },
  };
}
