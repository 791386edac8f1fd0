// What the CLI bundle (scripts/build.mjs) leaves out, and esbuild plugins. The bundle holds every
// library the CLI runs, so the npm package has no runtime dependencies to install; the plugins
// cover the two places where bundling a library as it is would either miss code or pull in code
// nothing runs. test/cli/bundle.test.ts reads these lists.
import { readFile } from "node:fs/promises";
import { relative, sep } from "node:path";

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
 * never offers (src/tools/shell/docs-shell.ts leaves sqlite3, html-to-markdown, gzip and tar out;
 * curl, python3 and js-exec exist only with network or interpreter options we never set) or to
 * features we never turn on (`coverage`, the network's HTTP client). Bundled, they would bring
 * sql.js, turndown, seek-bzip, undici and the Python and QuickJS workers along; left out, a
 * command that loads one fails with the message below. test/cli/bundle.test.ts checks that no
 * command the shell offers loads one of them.
 */
export const LEFT_OUT_JUST_BASH_CHUNKS = ["sqlite3", "html-to-markdown", "gzip", "tar", "curl", "python3", "js-exec", "flag-coverage", "undici"];

/** Replace just-bash's chunks of `names` by a module that refuses to load. */
export function leaveOutJustBashChunks(names = LEFT_OUT_JUST_BASH_CHUNKS) {
  const pattern = new RegExp(`^\\./chunks/(${names.map((n) => n.replace(/[-]/g, "\\-")).join("|")})-[A-Z0-9]+\\.js$`);
  return {
    name: "leave-out-just-bash-chunks",
    setup(build) {
      const seen = new Set();
      build.onResolve({ filter: /^\.\/chunks\// }, (args) => {
        if (!args.importer.includes(`${sep}just-bash${sep}`)) return undefined;
        const m = pattern.exec(args.path);
        if (m === null) return undefined;
        seen.add(m[1]);
        return { path: m[1], namespace: "left-out" };
      });
      build.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`just-bash's ${args.path} is not part of svc-mcp's bundle (the docs shell does not offer it)`)});\n`,
        loader: "js",
      }));
      // A just-bash upgrade that renames a chunk would silently bundle it again: say so.
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        const missing = names.filter((n) => !seen.has(n));
        if (missing.length > 0) {
          result.errors.push({ text: `just-bash has no chunk named ${missing.join(", ")} any more: update LEFT_OUT_JUST_BASH_CHUNKS in scripts/bundle-plugins.mjs` });
        }
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
