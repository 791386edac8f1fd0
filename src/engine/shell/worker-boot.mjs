// Starts the shell worker from the TypeScript sources (a checkout without the dist/ bundle, the
// tests, the benchmarks): registers tsx in the worker thread, then loads the entry it was given.
// The bundle starts dist/shell-worker.mjs directly and never uses this file.
import module from "node:module";
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

// just-bash's awk with the corrections the bundle has (just-bash-patches.mjs).
module.register("./just-bash-hooks.mjs", import.meta.url);
register();
await import(workerData.entry);
