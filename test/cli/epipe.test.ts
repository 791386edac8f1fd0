import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { REPO, fixture } from "../helpers/paths.js";

it("stops quietly when the reader of its stdout goes away (`svc-mcp nav | head -1`)", async () => {
  const bin = join(REPO, "bin", "svc-mcp.js");
  const script = `"${process.execPath}" "${bin}" nav --dir "${fixture("spree-subset")}" | head -1; echo "exit \${PIPESTATUS[0]}"`;
  const { stdout, stderr } = await promisify(execFile)("bash", ["-c", script]);
  expect(stdout).toBe("Spree Commerce documentation\nexit 0\n");
  expect(stderr).toBe("");
});
