/**
 * Adversary round 50 F1: a channel only a restricted AsyncAPI 3 operation's `reply` names is that
 * operation's readers' (docs/api-reference.md), but where the operation's rule was written on a
 * trait, the channel's address, description and messages stayed in every reader's page and spec
 * file: the reply channel's rule read the operation's own `x-svc` only.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const spec = (rule: string): string =>
  [
    "asyncapi: 3.0.0",
    "info: {title: E, version: '1'}",
    "channels:",
    "  pub: {address: pub, messages: {m: {payload: {type: string}}}}",
    "  replyCh:",
    "    address: SECRETREPLYADDR",
    "    description: SECRETREPLYDESC",
    "    messages: {r: {payload: {type: string, description: SECRETREPLYPAYLOAD}}}",
    "operations:",
    "  ask:",
    "    action: send",
    "    channel: {$ref: '#/channels/pub'}",
    "    summary: SECRETASK",
    `    ${rule}`,
    "    reply: {channel: {$ref: '#/channels/replyCh'}}",
    "",
  ].join("\n");

const RULES = {
  "on the operation": "x-svc: {metadata: {groups: [staff]}}",
  "on a trait": "traits: [{x-svc: {metadata: {groups: [staff]}}}]",
  "on a trait, beside metadata": "traits: [{x-svc: {groups: [staff]}}]",
};
const COMMAND = "find / -type f | sort; rg -l SECRET / | sort";

describe("a reply channel of an operation restricted by a trait", () => {
  const roots: string[] = [];
  const runtimes: Record<string, DocsRuntime> = {};
  beforeAll(async () => {
    for (const [name, rule] of Object.entries(RULES)) {
      const root = writeRepo({ "docs.json": { name: "E", navigation: { groups: [{ group: "Ev", asyncapi: "api/ev.yaml" }] } }, "api/ev.yaml": spec(rule) });
      roots.push(root);
      runtimes[name] = await DocsRuntime.load({ root });
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(runtimes).map((r) => r.close()));
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const run = async (name: string, reader: Reader): Promise<string> => (await (runtimes[name] as DocsRuntime).readerState(localContext(reader)).shell.run(COMMAND)).stdout;

  it("is the operation's readers' alone, as with the rule on the operation", async () => {
    for (const name of Object.keys(RULES)) {
      expect([name, await run(name, ANONYMOUS)]).toEqual([name, "/api-reference/pub.mdx\n/api/ev.yaml\n/skill.md\n"]);
      expect([name, await run(name, readerWithGroups(["staff"]))]).toEqual([name, "/api-reference/pub.mdx\n/api-reference/replych.mdx\n/api/ev.yaml\n/skill.md\n/api-reference/replych.mdx\n/api/ev.yaml\n"]);
    }
  });
});
