// Test-only preload (NODE_OPTIONS=--import) for test/bridge/workers-handout.test.ts: a worker
// process of `serve --http --workers N` that starts while the FIFO named by SVC_TEST_START_GATE
// exists waits there, before it loads anything, until the test opens the FIFO for writing. So the
// test holds a replacement worker "still starting" for as long as it needs, with no timing.
// Only a worker's main thread waits (NODE_OPTIONS also preloads into worker threads).
import { closeSync, existsSync, openSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const gate = process.env.SVC_TEST_START_GATE;
if (isMainThread && process.env.SVC_MCP_HTTP_WORKER === "1" && gate !== undefined && existsSync(gate)) closeSync(openSync(gate, "r"));
