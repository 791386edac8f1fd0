import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO } from "../helpers/paths.js";

/**
 * One broken docs.json per rule under `fixtures/docs-json/<rule>/`, each with the exact output of
 * `svc-mcp check` in `expected.txt`. Fixtures named `warn-*` only warn (exit 0); the others fail.
 */
const ROOT = join(REPO, "fixtures/docs-json");
const FIXTURES = readdirSync(ROOT).sort();

describe("svc-mcp check on the docs.json fixtures", () => {
  it("has at least 30 broken docs.json fixtures", () => {
    expect(FIXTURES.filter((f) => !f.startsWith("warn-")).length).toBeGreaterThanOrEqual(30);
  });

  for (const name of FIXTURES) {
    it(name, async () => {
      const expected = readFileSync(join(ROOT, name, "expected.txt"), "utf8");
      // From the fixtures' folder, so that a finding naming the folder as given is the same on every machine.
      const run = await runCli(["check", "--dir", name], { cwd: ROOT });
      expect(run.stdout).toBe(expected);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(name.startsWith("warn-") ? 0 : 1);
    });
  }
});
