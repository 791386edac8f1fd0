/**
 * AsyncAPI 3: a message that channels' `messages` maps `$ref` (one object once dereferenced) is
 * read once a spec load, as 2.x's are (`V3Messages`). Before, each channel read its own copy, and
 * each operation's `touches` listed every channel's copy: 100 channels sharing 2,000 messages took
 * `check` 8.7 s of CPU and 552 MB (bench/async-shared-site.ts, docs/measurements.md). Each page
 * still decides which messages it shows from what is named on its own channel: a message a
 * restricted operation carries stays off the page though an open operation elsewhere names it.
 */
import { describe, expect, it } from "vitest";
import { compileIgnoreRules } from "../../src/config/ignore-rules.js";
import { loadApiSpec } from "../../src/config/openapi/load-api-spec.js";
import { createOpenapiValidator } from "../../src/config/openapi/validate-openapi.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../config/temp-repo.js";
import { asyncSite } from "./async-budget-specs.js";

const message = (name: string): Record<string, unknown> => ({ name, payload: { type: "object", properties: { [name]: { type: "string" } } } });
const ref = (to: string): Record<string, unknown> => ({ $ref: to });

/** Channels `pub` and `mixed` both map `shared` to one component; `mixed`'s only operation naming it is staff's. */
const SPEC = {
  asyncapi: "3.0.0",
  info: { title: "T", version: "1" },
  channels: {
    pub: { address: "pub", messages: { shared: ref("#/components/messages/Shared") } },
    mixed: { address: "mixed", messages: { shared: ref("#/components/messages/Shared"), own: ref("#/components/messages/Own") } },
    resp: { address: "resp", messages: { shared: ref("#/components/messages/Shared") } },
  },
  operations: {
    openOp: { action: "send", channel: ref("#/channels/pub"), messages: [ref("#/channels/pub/messages/shared")] },
    staffOp: { action: "send", channel: ref("#/channels/mixed"), "x-svc": { metadata: { groups: ["staff"] } }, messages: [ref("#/channels/mixed/messages/shared")] },
    ownOp: { action: "receive", channel: ref("#/channels/mixed"), messages: [ref("#/channels/mixed/messages/own")] },
    // Its reply names the shared message on `resp`: shown there, not on `mixed`.
    ask: { action: "send", channel: ref("#/channels/pub"), reply: { channel: ref("#/channels/resp"), messages: [ref("#/channels/resp/messages/shared")] } },
  },
  components: { messages: { Shared: message("SharedMsg"), Own: message("OwnMsg") } },
};

describe("AsyncAPI 3 messages shared by channels", () => {
  it("are read once a spec load: every channel holding a component under one key holds one message", async () => {
    const root = tempRepo(asyncSite(SPEC));
    const r = await loadApiSpec("events.asyncapi.json", false, { root, ignore: compileIgnoreRules([]), validator: createOpenapiValidator() });
    if (!r.ok || r.spec.format !== "asyncapi") throw new Error("not loaded");
    const [pub, mixed, resp] = r.spec.channels;
    expect([pub?.messages.map((m) => m.name), mixed?.messages.map((m) => m.name), resp?.messages.map((m) => m.name)]).toEqual([["SharedMsg"], ["SharedMsg", "OwnMsg"], ["SharedMsg"]]);
    expect([mixed?.messages[0] === pub?.messages[0], resp?.messages[0] === pub?.messages[0]]).toEqual([true, true]);
  });

  it("a page shows what is named on its own channel: the message a restricted operation carries stays off its page though open operations name it on other channels", async () => {
    const root = tempRepo(asyncSite(SPEC));
    const headings = "grep '^###' /api-reference/pub.mdx /api-reference/mixed.mdx /api-reference/resp.mdx";
    const expected = [
      "/api-reference/pub.mdx:### SEND openOp",
      "/api-reference/pub.mdx:### SEND ask",
      "/api-reference/pub.mdx:### SharedMsg",
      "/api-reference/mixed.mdx:### RECEIVE ownOp",
      "/api-reference/mixed.mdx:### OwnMsg",
      "/api-reference/resp.mdx:### SharedMsg",
      "",
    ].join("\n");
    // One page for every reader of the channel: staff read the same page (the spec file holds staffOp).
    expect(await runCli(["fs", "--dir", root, headings])).toEqual({ code: 0, stdout: expected, stderr: "" });
    expect(await runCli(["fs", "--dir", root, "--groups", "staff", headings])).toEqual({ code: 0, stdout: expected, stderr: "" });
  });

  it("a channel whose map $refs shared components writes the page a channel with its own copies writes", async () => {
    const spec = structuredClone(SPEC) as typeof SPEC & { channels: Record<string, unknown>; operations: Record<string, unknown> };
    spec.channels.copy = { address: "copy", messages: { shared: message("SharedMsg") } };
    spec.operations.copyOp = { action: "send", channel: ref("#/channels/copy"), messages: [ref("#/channels/copy/messages/shared")] };
    const root = tempRepo(asyncSite(spec));
    const page = async (slug: string): Promise<string> => (await runCli(["fs", "--dir", root, `sed -n '/^## Messages/,$p' /api-reference/${slug}.mdx`])).stdout;
    const copy = await page("copy");
    expect(copy).toContain("### SharedMsg\n");
    expect(await page("resp")).toEqual(copy.replace(`["copy"]`, `["resp"]`));
  });
});
