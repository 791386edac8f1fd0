/**
 * Issue 25 (adversary, F1): awk's substr, index and match count characters as gawk does in a
 * UTF-8 locale, a character outside the BMP (an emoji) one (docs/shell.md). Each row was recorded
 * from GNU awk 5.2.1 (`bash --norc -c COMMAND` in `C.UTF-8`); none held before (UTF-16 units).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

/** [command, stdout, stderr, exit status], as gawk 5.2 gave them. */
const RECORDED: ReadonlyArray<readonly [string, string, string, number]> = [
  ["echo 😀x | awk '{print length($0), substr($0,2,1), index($0,\"x\")}'", "2 x 2\n", "", 0],
  ["echo 😀x | awk '{print match($0,/x/), RSTART, RLENGTH}'", "2 2 1\n", "", 0],
  ["echo 😀x | awk '{print substr($0,1,1)}'", "😀\n", "", 0],
  ["echo 😀x | awk '{print substr($0,2)}'", "x\n", "", 0],
  ["echo 😀é😀 | awk '{print length(), substr($0,2,2)}'", "3 é😀\n", "", 0],
  ["echo x😀😀y | awk '{print match($0,/😀+/), RSTART, RLENGTH, index($0,\"y\")}'", "2 2 2 4\n", "", 0],
];

let repo: { dir: string; cleanup: () => void };
let shell: Shell;
let runtime: DocsRuntime;
beforeAll(async () => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "T", navigation: { groups: [{ group: "S", pages: ["index"] }] } }), "index.mdx": "---\ntitle: Home\n---\n\nok\n" });
  runtime = await DocsRuntime.load({ root: repo.dir });
  shell = runtime.readerState(localContext()).shell;
});
afterAll(async () => {
  await runtime.close();
  repo.cleanup();
});

describe("awk's substr, index and match in characters (recorded from gawk 5.2)", () => {
  it.each(RECORDED)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });
});
