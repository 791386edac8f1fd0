/**
 * Adversary round 50 F2: an example, default, enum or const value holding an object with an
 * `x-svc` key carrying `groups` (or `metadata.groups`) was taken for a stray rule and cut from
 * every page and every reader's spec file. Such a value is data shown as written; a rule written
 * on a part of the description where no page is made from it (a response) is still a stray one.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const LOOSE = { "x-svc": { groups: ["staff"] }, note: "LOOSEDATA" };
const META = { "x-svc": { metadata: { groups: ["staff"] } }, note: "METADATA" };
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Ops", version: "1" },
  paths: {
    "/rules": {
      get: {
        summary: "Read rules",
        responses: {
          "200": {
            description: "Done",
            content: {
              "application/json": {
                schema: { type: "object", default: LOOSE, enum: [META], properties: { c: { const: { ...LOOSE, note: "CONSTDATA" }, examples: [{ ...META, note: "SCHEMAEXAMPLES" }] } } },
                example: { ...META, note: "EXAMPLEDATA" },
              },
            },
          },
          "201": { description: "Made", content: { "application/json": { examples: { one: { value: { ...LOOSE, note: "NAMEDEXAMPLE" } } } } } },
          // A response is described, not data: its rule stays a stray one, cut for every page.
          default: { description: "STRAYDEFAULT", "x-svc": { metadata: { groups: ["staff"] } } },
        },
      },
    },
  },
};

const MARKERS = "grep -ohE 'LOOSEDATA|METADATA|CONSTDATA|SCHEMAEXAMPLES|EXAMPLEDATA|NAMEDEXAMPLE|STRAYDEFAULT'";
const EVENTS = [
  "asyncapi: 3.0.0",
  "info: {title: E, version: '1'}",
  "channels:",
  "  pub:",
  "    address: pub",
  "    messages:",
  "      m:",
  "        payload: {type: object}",
  "        examples:",
  "          - payload: {x-svc: {metadata: {groups: [staff]}}, note: MESSAGEEXAMPLE}",
  "operations:",
  "  send: {action: send, channel: {$ref: '#/channels/pub'}}",
  "",
].join("\n");

describe("x-svc inside example data", () => {
  let root: string;
  let runtime: DocsRuntime;
  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Acme", navigation: { groups: [{ group: "API", openapi: "api/openapi.json" }, { group: "Events", asyncapi: "api/events.yaml" }] } },
      "api/openapi.json": SPEC,
      "api/events.yaml": EVENTS,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  it("is shown as written to every reader, in the page and the spec file", async () => {
    const written = readFileSync(join(root, "api/openapi.json"), "utf8");
    const { default: stray, ...responses } = SPEC.paths["/rules"].get.responses;
    void stray;
    const withoutStray = JSON.stringify({ ...SPEC, paths: { "/rules": { get: { ...SPEC.paths["/rules"].get, responses } } } }, null, 2);
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"])]) {
      expect(await run(reader, `${MARKERS} /api-reference/read-rules.mdx`)).toBe("EXAMPLEDATA\n");
      const stray = reader === ANONYMOUS ? "" : "STRAYDEFAULT\n";
      expect(await run(reader, `${MARKERS} /api/openapi.json`)).toBe(`LOOSEDATA\nMETADATA\nCONSTDATA\nSCHEMAEXAMPLES\nEXAMPLEDATA\nNAMEDEXAMPLE\n${stray}`);
      expect(await run(reader, "grep -c MESSAGEEXAMPLE /api-reference/pub.mdx /api/events.yaml")).toBe("/api-reference/pub.mdx:1\n/api/events.yaml:1\n");
    }
    expect(await run(readerWithGroups(["staff"]), "cat /api/openapi.json")).toBe(written);
    expect(await run(ANONYMOUS, "cat /api/openapi.json")).toBe(withoutStray);
    expect(await run(ANONYMOUS, "cat /api-reference/read-rules.mdx")).toBe(await run(readerWithGroups(["staff"]), "cat /api-reference/read-rules.mdx"));
    expect(await run(ANONYMOUS, "cat /api/events.yaml")).toBe(EVENTS);
  });

  it("check warns of the response's stray rule alone", () => {
    expect(runtime.site.diagnostics.map((d) => `${d.severity} ${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual([
      "warning api/openapi.json api-stray-rule: x-svc metadata.groups at paths./rules.get.responses.default is not on an operation, webhook or channel (no page is made from it): left out of every page, and out of the spec file for readers outside its groups",
    ]);
  });
});
