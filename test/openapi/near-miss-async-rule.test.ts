/**
 * Near-miss spellings of an AsyncAPI rule (security row 198's class): `X-SVC` and `Metadata` on a
 * channel, a quoted `"groups "` on an operation were read as no rule, so the channel's page and
 * the operation's text were every reader's. Read as the rule now, and `check` says to rename them.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const V3 = [
  "asyncapi: 3.0.0",
  "info: {title: Ev, version: '1'}",
  "channels:",
  "  pub: {address: pub, messages: {m: {name: M, payload: {type: string}}}}",
  "  staffch: {address: staffch, description: SECRETCHANNEL, X-SVC: {Metadata: {groups: [staff]}}}",
  "operations:",
  "  pubSend: {action: send, channel: {$ref: '#/channels/pub'}, messages: [{$ref: '#/channels/pub/messages/m'}]}",
  "  secretOp: {action: receive, summary: SECRETOP, channel: {$ref: '#/channels/pub'}, x-mint: {metadata: {'groups ': [staff]}}}",
  "",
].join("\n");

describe("near-miss spellings of an AsyncAPI rule", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;
  beforeAll(async () => {
    root = writeRepo({ "docs.json": { name: "R", navigation: { groups: [{ group: "Events", asyncapi: "v3.yaml" }] } }, "v3.yaml": V3 });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("restrict the channel and the operation", async () => {
    expect(await run(ANONYMOUS, "ls /api-reference; rg -c SECRET / || echo none")).toBe("pub.mdx\nnone\n");
    expect(await run(readerWithGroups(["staff"]), "ls /api-reference")).toBe("pub.mdx\nstaffch.mdx\n");
    expect(await run(readerWithGroups(["staff"]), "cat /v3.yaml")).toBe(V3);
  });

  it("check names each key and says to rename it", () => {
    const tail = "restricting the part to the groups it names (to no reader if it names none); the hosted platform reads only a key written exactly";
    expect(runtime.site.diagnostics.map((d) => `${d.severity} ${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual([
      `warning v3.yaml api-unreadable-rule: the key "X-SVC" at #/channels/staffch is read as x-svc, ${tail} x-svc and would show the part to everyone: rename the key`,
      `warning v3.yaml api-unreadable-rule: the key "Metadata" at #/channels/staffch/X-SVC is read as metadata, ${tail} metadata and would show the part to everyone: rename the key`,
      `warning v3.yaml api-unreadable-rule: the key "groups " at #/operations/secretOp/x-mint/metadata is read as groups, ${tail} groups and would show the part to everyone: rename the key`,
    ]);
  });
});
