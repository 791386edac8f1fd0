/**
 * A brace range longer than the docs shell expands is refused with the limit named and a
 * non-zero status (issue 25, adversary finding 39): just-bash stopped `{1..100000000}` at its
 * first 10,000 words and answered with exit 0, as if that were the whole range.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";

let shell: Shell;

beforeAll(async () => {
  const runtime = await DocsRuntime.load({ root: fixture("demo") });
  shell = runtime.readerState(localContext()).shell;
});

const refusal = (range: string, words: number): string =>
  `bash: ${range}: brace expansion makes ${words} words, more than the docs shell's limit of 10000 (a limit of the docs shell: do less in one call)\n`;

describe("brace ranges", () => {
  it("refuses a range past the limit before anything on the line runs", async () => {
    expect(await shell.run("echo {1..100000000}")).toEqual({ stdout: "", stderr: refusal("{1..100000000}", 100000000), exitCode: 1, truncated: false });
    expect(await shell.run("echo start; for i in {0..20000..2}; do echo $i; done")).toEqual({ stdout: "", stderr: refusal("{0..20000..2}", 10001), exitCode: 1, truncated: false });
    expect(await shell.run("echo $(echo x{-5000..5000})")).toEqual({ stdout: "", stderr: refusal("{-5000..5000}", 10001), exitCode: 1, truncated: false });
  });

  it("expands a range up to the limit whole", async () => {
    const r = await shell.run("echo {1..10000} | wc -w; echo {a..e}");
    expect(r).toEqual({ stdout: "10000\na b c d e\n", stderr: "", exitCode: 0, truncated: false });
  });
});
