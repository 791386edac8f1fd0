import { parentPort } from "node:worker_threads";
import type { FromAnalysisWorker, ToAnalysisWorker } from "./analysis-feed.js";
import { readStored } from "../../vfs/stored-text.js";
import { BodyAnalyzer } from "./body-analysis.js";

/**
 * A page analysis worker (see `AnalysisFeed`): analyses the bodies it is sent in its own
 * vocabulary and answers each batch with the analyses (their id arrays moved, not copied) and
 * the terms it assigned meanwhile.
 */
const port = parentPort;
if (port === null) throw new Error("analysis-worker runs as a worker thread (see AnalysisFeed)");
const analyzer = new BodyAnalyzer();
port.on("message", ({ first, bodies }: ToAnalysisWorker) => {
  const analyses = bodies.map((b) => analyzer.analyse("bytes" in b ? readStored(b.bytes) : b.body, b.api));
  const transfer = analyses.flatMap((a) => [a.ids.buffer as ArrayBuffer, a.ends.buffer as ArrayBuffer]);
  port.postMessage({ first, analyses, terms: analyzer.newTerms() } satisfies FromAnalysisWorker, transfer);
});
