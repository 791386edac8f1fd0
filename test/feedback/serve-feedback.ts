/**
 * Test-only entry point: the feedback app over `<stateDir>` on 127.0.0.1, a free port, printed
 * as the first stdout line. Stands in for `svc-mcp serve --http` (issue 4) in the durability
 * test, which must kill a real server process.
 *   node --import tsx test/feedback/serve-feedback.ts <stateDir> [projectId]
 */
import { serve } from "@hono/node-server";
import { createFeedbackApp } from "../../src/bridge/feedback/app.js";
import { openFeedbackStore } from "../../src/store/feedback/sqlite-store.js";
import { openKeyStore } from "../../src/store/keys/key-store.js";

const [stateDir, projectId = "docs"] = process.argv.slice(2);
if (stateDir === undefined) throw new Error("usage: serve-feedback.ts <stateDir> [projectId]");
const app = createFeedbackApp({ store: openFeedbackStore(stateDir), keys: openKeyStore(stateDir), projects: new Set([projectId]) });
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => process.stdout.write(`${info.port}\n`));
