import type { DocsRuntime, RuntimeChange } from "../../src/engine/runtime.js";

/**
 * Resolves at the first reload (a runtime change event) whose snapshot `shows` what the test
 * waits for; call it before the edit. Never "the next reload": an earlier edit's reload can still
 * be on its way on a busy machine (files written one after another may settle, and be reloaded,
 * apart), and a wait for the next one then ends on that reload, before the edit it means is read.
 */
export function reloadShowing(runtime: DocsRuntime, shows: (change: RuntimeChange) => boolean): Promise<RuntimeChange> {
  return new Promise((resolve) => {
    const stop = runtime.onChange((change) => {
      if (!shows(change)) return;
      stop();
      resolve(change);
    });
  });
}

/** Whether the snapshot serves the file at `path` with text `text` (its current bytes), or holds no such file when `text` is undefined. */
export const fileText =
  (path: string, text: string | undefined) =>
  (change: RuntimeChange): boolean =>
    change.site.files.get(path)?.text === text;
