import type { RenderedMdx } from "./render-mdx.js";

/** What the pool sends a render worker: one page to render, or an API page's Markdown texts (its descriptions). */
export type ToRenderWorker =
  | { readonly id: number; readonly source: string; readonly filePath: string }
  | { readonly id: number; readonly markdown: readonly string[] };

/** What a render worker answers: it is loaded, or a page's result, or the error its render threw (a bug). */
export type FromRenderWorker =
  | { readonly t: "ready" }
  | { readonly t: "done"; readonly id: number; readonly rendered: RenderedMdx }
  /** The Markdown texts as HTML (`renderMarkdown`), in the order sent. */
  | { readonly t: "markdown"; readonly id: number; readonly html: readonly string[] }
  | { readonly t: "failed"; readonly id: number; readonly message: string };

/** What a render worker is started with. */
export interface RenderWorkerData {
  /** The TypeScript entry `worker-boot.mjs` loads (absent when started from the bundle). */
  readonly entry: string | undefined;
  /** Tests only (`RenderPoolOptions.gate`). */
  readonly gate?: Int32Array;
}

/** What the render pool did, in order (tests assert sequences of these instead of timings). */
export type RenderEvent =
  | { readonly t: "spawn"; readonly worker: number }
  /** The worker's code is loaded: it takes pages from now on. */
  | { readonly t: "booted"; readonly worker: number }
  | { readonly t: "queued"; readonly job: number; readonly caller: string }
  | { readonly t: "refused"; readonly caller: string; readonly limit: number }
  /** A page was given to a worker: its time limit counts from here. */
  | { readonly t: "start"; readonly job: number; readonly worker: number }
  | { readonly t: "end"; readonly job: number; readonly how: RenderEnd }
  | { readonly t: "exit"; readonly worker: number; readonly why: "time-limit" | "idle" | "died" | "shut-down" };

/** How a render ended: its result, the error it threw, or stopped by the pool. */
export type RenderEnd = "result" | "error" | "time-limit" | "worker-died" | "shut-down";
