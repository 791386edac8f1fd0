import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { compileJq } from "./wasm-host.mjs";

/**
 * Where jq.wasm is: beside the bundle's chunks (scripts/build.mjs copies it into dist/, and the
 * npm package's archive carries it), or in node_modules when running from the TypeScript sources.
 */
export function jqWasmPath(): string {
  const here = import.meta.url;
  if (new URL(here).pathname.endsWith(".ts")) return createRequire(here).resolve("jq-wasm/jq.wasm");
  return fileURLToPath(new URL("./jq.wasm", here));
}

/**
 * The compiled module, once per thread (compiling ~0.9 MB of WebAssembly costs tens of
 * milliseconds; instantiating it, done per command, well under one). A compiled module holds no
 * state of a run: every command gets a fresh instance and memory.
 */
let compiled: WebAssembly.Module | undefined;
export function jqModule(): WebAssembly.Module {
  compiled ??= compileJq(readFileSync(jqWasmPath()));
  return compiled;
}
