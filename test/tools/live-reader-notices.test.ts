import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";

/**
 * What a live (stdio) server tells its reader of a reload (adversary round 11 F3): `list_changed`
 * only when that reader's own lists changed, as over HTTP, and no log message about a page the
 * reader may not read. The anonymous reader here; `internal/runbook` is staff-only. A request
 * answered after the reload is the fence: a notification the reload sent comes before it.
 */

let tmp: { dir: string; cleanup: () => void } | undefined;
let runtime: DocsRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  tmp?.cleanup();
  runtime = undefined;
  tmp = undefined;
});

function nextReload(): Promise<void> {
  const r = runtime as DocsRuntime;
  return new Promise((resolve) => {
    const stop = r.onChange(() => {
      stop();
      resolve();
    });
  });
}

it("an edit of a staff-only page tells the anonymous reader nothing; docs.json problems are not sent to a reader of part of the site", async () => {
  tmp = copyToTemp(fixture("demo"));
  const root = tmp.dir;
  runtime = await DocsRuntime.load({ root, watch: true, log: () => {} });
  await runtime.watch();
  const c = await connect(runtime);
  const heard: string[] = [];
  c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard.push("resources/list_changed"));
  c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push("tools/list_changed"));
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(`message: ${String(n.params.data)}`));
  let reloaded = nextReload();
  appendFileSync(join(root, "internal/runbook.mdx"), "\nOne more step.\n");
  await reloaded;
  await c.client.listTools();
  expect(heard).toEqual([]);
  // The staff-only page and a public one each listed twice: docs.json's findings go only to a
  // reader of the whole site (their positions tell where restricted navigation is: adversary
  // round 12 F1), so neither is told; stderr keeps both.
  const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as { navigation: { tabs: { groups: { pages: string[] }[] }[] } };
  docs.navigation.tabs[0]?.groups[2]?.pages.push("internal/runbook", "quickstart");
  reloaded = nextReload();
  writeFileSync(join(root, "docs.json"), JSON.stringify(docs));
  await reloaded;
  await c.client.listTools();
  expect(heard.filter((line) => line.startsWith("message: "))).toEqual([]);
  await c.close();
});
