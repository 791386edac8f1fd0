/**
 * Issue 25: a call's output holding bytes that are not UTF-8 (`printf '\377'`, `base64 -d`,
 * `fold -b` cutting a character) reads as every other text of the docs shell does: each
 * ill-formed sequence is one U+FFFD (WHATWG's decoder), the rest UTF-8, at the end of the call
 * and between statements alike (docs/shell.md). Before, just-bash read such an output whole as
 * Latin-1: `printf 'é\377'` showed `Ã©ÿ`. Piped on, the bytes stay exact.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

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

describe("output bytes that are not UTF-8", () => {
  it("read as U+FFFD at the end of a call, the valid characters kept", async () => {
    expect(await shell.run("printf '\u00e9\\377'")).toEqual({ stdout: "\u00e9\uFFFD", stderr: "", exitCode: 0, truncated: false });
  });

  it("read alike in every statement, pipeline and command, the bytes exact when piped on", async () => {
    const command = [
      "printf 'a\\377b\\n'",
      "printf '\u00e9\\303\\n' | cat",
      "echo /w== | base64 -d",
      "echo",
      "printf '\u00e9\\n' | fold -b -w1 | head -n 1",
      "printf '\u00e9\\377' | od -An -tx1",
    ].join("; ");
    expect(await shell.run(command)).toEqual({ stdout: "a\uFFFDb\n\u00e9\uFFFD\n\uFFFD\n\uFFFD\n c3 a9 ff\n", stderr: "", exitCode: 0, truncated: false });
  });
});
