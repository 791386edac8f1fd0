import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A full garbage collection on this thread, for the few moments a large transient has just been
 * let go. V8 keeps the heap it grew to (and the old space a thread's command promoted) until its
 * memory reducer runs, which an idle server may never trigger: at 50,000 pages the process held
 * ~110 MB more after its persistent cache was written than before (issue 22: the bound is on the
 * process's RSS). One collection gave it back. (Not a shell worker's after `rg -il` over such a
 * site, ~70 MB: a collection after each command gave none of it back.)
 *
 * Node exposes `gc` only to a process started with `--expose-gc`, which `npx svc-mcp` cannot
 * pass: the flag is set for the moment a new context is made, which then holds the function, and
 * unset again, so that no later context (the shell's sandboxes) gets it. Taken when this module
 * loads. Undefined where V8 refuses.
 */
const collect: (() => void) | undefined = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
})();

/** Collect now; false when this runtime gives no way to. */
export function collectGarbage(): boolean {
  if (collect === undefined) return false;
  collect();
  return true;
}
