import { parentPort, workerData } from "node:worker_threads";
import type { FromRenderWorker, RenderWorkerData, ToRenderWorker } from "./render-protocol.js";
import { renderMarkdown, renderMdx } from "./render-mdx.js";

/**
 * A page render worker (see `RenderPool`): renders the MDX it is sent with the same
 * `renderMdx` the main thread would run, so a page's HTML is the same in or out of a worker,
 * and answers each page with its result (plain data: HTML, headings, unknown components, the
 * problem) or the error it threw; an API page's descriptions likewise, with `renderMarkdown`.
 */
const port = parentPort;
if (port === null) throw new Error("render-worker runs as a worker thread (see RenderPool)");
const { gate } = workerData as RenderWorkerData;

port.on("message", (message: ToRenderWorker) => {
  const { id } = message;
  // Tests only: hold the render until the test opens the gate (a render that never ends, without
  // timing anything): the one gate of every page, or with one cell per page, the page's own (by its id).
  if (gate !== undefined) {
    const cell = gate.length > 1 ? id : 0;
    while (Atomics.load(gate, cell) === 0) Atomics.wait(gate, cell, 0);
  }
  let answer: FromRenderWorker;
  try {
    answer = "markdown" in message ? { t: "markdown", id, html: message.markdown.map((text) => renderMarkdown(text)) } : { t: "done", id, rendered: renderMdx(message.source, { filePath: message.filePath }) };
  } catch (error) {
    answer = { t: "failed", id, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
port.postMessage({ t: "ready" } satisfies FromRenderWorker);
