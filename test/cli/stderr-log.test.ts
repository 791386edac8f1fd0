import { describe, expect, it } from "vitest";
import type { CliIO } from "../../src/cli/io.js";
import { stderrLog } from "../../src/cli/load-docs.js";

describe("the CLI's log on stderr", () => {
  it("writes a message naming a repository file with control characters escaped, its line breaks kept", () => {
    const written: string[] = [];
    const io: CliIO = { stdout: () => {}, stderr: (t) => written.push(t), cwd: "/", env: {}, stopSignal: new Promise(() => {}) };
    const log = stderrLog(io);
    log("warning: rendering /x\u001b[2K\u001b[1Aclean.mdx took more than 10 s; stopped it and its render worker");
    log("a\nb\tc");
    expect(written).toEqual(["svc-mcp: warning: rendering /x\\x1b[2K\\x1b[1Aclean.mdx took more than 10 s; stopped it and its render worker\n", "svc-mcp: a\nb\\tc\n"]);
  });
});
