// Lint: type-aware rules that catch real bugs (floating promises, misused promises, unsafe
// comparisons); formatting is left to the author.
import tseslint from "typescript-eslint";

export default tseslint.config(
  // Generated code (ajv standalone validators): checked by a staleness test, not by hand.
  // worker-boot.mjs is plain JavaScript by necessity (it registers tsx for the shell worker), and
  // so are just-bash-patches.mjs and just-bash-hooks.mjs (the build script, the test runner's
  // config and Node's module hooks load them before any TypeScript can be), and so are
  // bench/loop-probe.mjs, bench/pool-trace.mjs and bench/memory-probe.cjs (preloaded into the bench's server processes
  // by NODE_OPTIONS, where no TypeScript loader runs), and test/helpers/start-gate.mjs (preloaded
  // so into a test's worker processes), and jq's host (src/engine/shell/jq/*.mjs: its thread starts
  // without a TypeScript loader; wasm-host.d.mts types it).
  {
    ignores: [
      "node_modules/",
      "scratch/",
      "coverage/",
      "bin/",
      "scripts/",
      "dist/",
      "eslint.config.js",
      "src/config/openapi/validators/*.mjs",
      "src/config/openapi/validators/*.d.mts",
      "src/engine/shell/worker-boot.mjs",
      "src/engine/shell/just-bash-patches.mjs",
      "src/engine/shell/just-bash-int64-patches.mjs",
      "src/engine/shell/just-bash-jq-order-patches.mjs",
      "src/engine/shell/just-bash-jq-number-patches.mjs",
      "src/engine/shell/just-bash-printf-patches.mjs",
      "src/engine/shell/just-bash-jq-char-patches.mjs",
      "src/engine/shell/just-bash-jq-lazy-patches.mjs",
      "src/engine/shell/just-bash-jq-error-patches.mjs",
      "src/engine/shell/just-bash-awk-regex-patches.mjs",
      "src/engine/shell/just-bash-hooks.mjs",
      "src/engine/shell/re2js-work-patches.mjs",
      "src/engine/shell/jq/wasm-host.mjs",
      "src/engine/shell/jq/strptime.mjs",
      "src/engine/shell/jq/jq-thread.mjs",
      "bench/loop-probe.mjs",
      "bench/pool-trace.mjs",
      "bench/memory-probe.cjs",
      "test/helpers/start-gate.mjs",
    ],
  },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "error",
    },
  },
  // Spreading an array into a call passes each element as an argument, and V8 throws past
  // ~100,000 of them (a sort of 175,180 lines did): src/arrays.ts has the forms for any length.
  {
    files: ["src/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.property.name=/^(push|unshift)$/] > SpreadElement", message: "use appendAll (src/arrays.ts): a spread argument list fails past ~100,000 items" },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min)$/] > SpreadElement", message: "use maxOf / minOf (src/arrays.ts): a spread argument list fails past ~100,000 items" },
      ],
    },
  },
  { files: ["bench/**"], rules: { "no-console": "off" } },
);
