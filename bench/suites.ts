import type { BenchSuite } from "./bench.js";
import { allocSuite } from "./alloc.bench.js";
import { availabilitySuite } from "./availability.bench.js";
import { bridgeSuite } from "./bridge.bench.js";
import { configBench } from "./config.bench.js";
import { feedbackSuite } from "./feedback.bench.js";
import { loadSuite } from "./load.bench.js";
import { openapiSuite } from "./openapi.bench.js";
import { packageSuite } from "./package.bench.js";
import { rateLimitSuite } from "./rate-limit.bench.js";
import { pagesSuite } from "./pages.bench.js";
import { previewSuite } from "./preview.bench.js";
import { protocolSuite } from "./protocol.bench.js";
import { searchSuite } from "./search.bench.js";
import { shellSuite } from "./shell.bench.js";
import { variantsSuite } from "./variants.bench.js";
import { workersSuite } from "./workers.bench.js";

/** Every benchmark suite `npm run bench` runs, in order. `npm run bench -- NAME` runs one. */
export const SUITES: readonly BenchSuite[] = [searchSuite, openapiSuite, loadSuite, variantsSuite, configBench, feedbackSuite, bridgeSuite, allocSuite, workersSuite, protocolSuite, pagesSuite, previewSuite, rateLimitSuite, shellSuite, availabilitySuite, packageSuite];
