/**
 * Adversary round 49 N1: `x-svc: {groups: [staff]}` (groups beside `metadata`, not in it) was read
 * as no rule, so the operation its author meant for staff was every reader's, and `check` said
 * nothing. It is now read as a rule a reader must pass besides `metadata`'s (fail closed, as a
 * path item's rule is), and `check` says where it belongs.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const op = (summary: string, extension?: Record<string, unknown>): Record<string, unknown> => ({ get: { summary, responses: { "200": { description: "Done" } }, ...extension } });
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Ops", version: "1" },
  paths: {
    "/a": op("Loose A", { "x-svc": { groups: ["staff"] } }),
    "/b": op("Loose B", { "x-mint": { groups: ["staff"], metadata: { public: true } } }),
    "/c": op("Loose C", { "x-svc": { groups: ["staff"], metadata: { groups: ["ops"] } } }),
    "/d": op("Open D"),
    "/e": { "x-svc": { groups: "staff" }, ...op("Item E") },
    // Both names, each with groups: a reader must pass each (round 50: x-mint's were passed over).
    "/f": op("Both F", { "x-mint": { groups: ["ops"] }, "x-svc": { groups: ["ops", "staff"] } }),
  },
};

describe("groups written beside metadata in x-svc", () => {
  let root: string;
  let runtime: DocsRuntime;
  beforeAll(async () => {
    root = writeRepo({ "docs.json": { name: "Acme", navigation: { groups: [{ group: "API", openapi: "api/openapi.json" }] } }, "api/openapi.json": SPEC });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });
  const run = async (reader: Reader): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run("jq -c '.paths | keys' /api/openapi.json; ls /api-reference")).stdout;

  it("restrict the operation to those groups, narrowing metadata's rule and closing public: true", async () => {
    expect(await run(ANONYMOUS)).toBe('["/d"]\nopen-d.mdx\n');
    expect(await run(readerWithGroups(["staff"]))).toBe('["/a","/b","/d","/e"]\nitem-e.mdx\nloose-a.mdx\nloose-b.mdx\nopen-d.mdx\n');
    expect(await run(readerWithGroups(["ops"]))).toBe('["/d","/f"]\nboth-f.mdx\nopen-d.mdx\n');
  });

  it("check says where each belongs", () => {
    expect(runtime.site.diagnostics.map((d) => `${d.severity} ${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual([
      "warning api/openapi.json api-unreadable-rule: x-svc of paths./a.get has groups beside metadata, where the hosted platform reads no rule: read as x-svc metadata.groups (a reader must pass both); write it under metadata",
      "warning api/openapi.json api-unreadable-rule: x-mint of paths./b.get has groups beside metadata, where the hosted platform reads no rule: read as x-mint metadata.groups (a reader must pass both); write it under metadata",
      "warning api/openapi.json api-unreadable-rule: x-svc of paths./c.get has groups beside metadata, where the hosted platform reads no rule: read as x-svc metadata.groups (a reader must pass both); write it under metadata",
      "warning api/openapi.json api-unreadable-rule: x-svc of paths./e has groups beside metadata, where the hosted platform reads no rule: read as x-svc metadata.groups (a reader must pass both); write it under metadata",
      "warning api/openapi.json api-unreadable-rule: x-mint of paths./f.get has groups beside metadata, where the hosted platform reads no rule: read as x-mint metadata.groups (a reader must pass both); write it under metadata",
      "warning api/openapi.json api-unreadable-rule: x-svc of paths./f.get has groups beside metadata, where the hosted platform reads no rule: read as x-svc metadata.groups (a reader must pass both); write it under metadata",
      // Staff and ops have no group in common: no reader passes both.
      "warning api/openapi.json api-unreadable-rule: x-svc metadata.groups of paths./c.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed",
    ]);
  });
});
