import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { connect } from "../helpers/mcp.js";
import { fixture } from "../helpers/paths.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const STAFF_OP = "  /staff/secret:\n    get:\n      summary: Staff STAFFOPMARK\n      x-svc:\n        metadata:\n          groups: [staff]\n      responses:\n        \"200\": { description: ok }\n";

/**
 * A spec kept as its last good version while its text is broken never shows what that text adds
 * (adversary round 38, F2: an edit that added a staff-only operation and a YAML error showed the
 * operation to anonymous readers of the raw file, under the last good version's rules, which had
 * none). It was then mounted as it read now, its restrictions counted too; since round 57 F4 it is
 * mounted as last read whole, the bytes its kept pages were made from.
 */
describe("a spec file kept as its last good version", () => {
  it("never shows what its broken text restricts: a text that cannot be parsed but restricts is for all-access readers only", async () => {
    const root = mkdtempSync(join(tmpdir(), "svc-spec-kept-"));
    made.push(root);
    cpSync(fixture("api-demo"), root, { recursive: true });
    const file = join(root, "api", "openapi.yaml");
    const good = readFileSync(file, "utf8");
    const runtime = await DocsRuntime.load({ root });
    const command = "rg -c STAFFOPMARK /; wc -c < /api/openapi.yaml; ls /api-reference | wc -l";
    const answers = async (): Promise<string[]> => {
      const out: string[] = [];
      for (const reader of [undefined, readerWithGroups(["staff"])]) {
        const c = await connect(runtime, reader);
        out.push(c.text(await c.call("query_docs_filesystem_parcel_api", { command })));
        await c.close();
      }
      return out;
    };
    try {
      const pagesBefore = [...runtime.site.pages.keys()];
      const before = await answers();
      writeFileSync(file, `${good.replace("  /parcels:\n", `${STAFF_OP}  /parcels:\n`)}  bad: : [\n`);
      await runtime.applyChanges(["api/openapi.yaml"]);
      expect([...runtime.site.pages.keys()]).toEqual(pagesBefore);
      const broken = await answers();
      // Before: everyone reads the file as written (no part restricted). After: no trace of the
      // staff operation for anyone; the file reads as its last good version, as its pages do
      // (adversary round 57 F4, test/openapi/spec-kept-bytes.test.ts). Until then it was mounted
      // as it read now, and so not at all for these readers (what its text restricts cannot be
      // told apart).
      expect(before).toEqual(["1120\n1\n", "1120\n1\n"]);
      expect(broken).toEqual(before);
    } finally {
      await runtime.close();
    }
  });
});
