import { parentPort } from "node:worker_threads";
import type { BodyAnalysis } from "./body-analysis.js";
import type { FromAnalysisWorker, ToAnalysisWorker } from "./analysis-feed.js";
import { readStored } from "../../vfs/stored-text.js";
import { BodyAnalyzer } from "./body-analysis.js";

/**
 * A page analysis worker (see `AnalysisFeed`): analyses the bodies it is sent in its own
 * vocabulary and answers each batch with the analyses (their id arrays in shared slabs, not
 * copied) and the terms it assigned meanwhile.
 */
const port = parentPort;
if (port === null) throw new Error("analysis-worker runs as a worker thread (see AnalysisFeed)");

/** Ids per slab: 32 MB, which the allocator maps for itself (past the largest threshold glibc
 *  may raise its own to) and unmaps once the last view of it is gone. */
const SLAB_IDS = 8 * 1024 * 1024;

/**
 * Where the analyses' id arrays are sent from: `SharedArrayBuffer` slabs, ids one array after
 * another. Why not the arrays themselves, moved: they came from this thread's malloc arena, and
 * were let go by the index's thread once indexed, into that arena, which kept them: at 50,000
 * distinct pages ~160 MB of the process's memory stayed resident, freed, for the server's whole
 * life (issue 22). A slab's memory goes back to the system with its last view.
 */
class IdSlabs {
  private slab: SharedArrayBuffer | undefined;
  private used = 0;

  /** `ids` copied into a slab. */
  copy(ids: Int32Array): Int32Array {
    if (this.slab === undefined || this.used + ids.length > this.slab.byteLength / 4) {
      this.slab = new SharedArrayBuffer(4 * Math.max(SLAB_IDS, ids.length));
      this.used = 0;
    }
    const out = new Int32Array(this.slab, 4 * this.used, ids.length);
    out.set(ids);
    this.used += ids.length;
    return out;
  }
}
const slabs = new IdSlabs();
const analyzer = new BodyAnalyzer();
port.on("message", ({ first, bodies }: ToAnalysisWorker) => {
  const analyses = bodies.map((b): BodyAnalysis => {
    const a = analyzer.analyse("bytes" in b ? readStored(b.bytes) : b.body, b.api);
    return { ...a, ids: slabs.copy(a.ids), ends: slabs.copy(a.ends) };
  });
  port.postMessage({ first, analyses, terms: analyzer.newTerms() } satisfies FromAnalysisWorker);
});
