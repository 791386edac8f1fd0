/**
 * A page whose bytes are not all UTF-8 (issue 25): the docs shell's view holds text, so each
 * ill-formed sequence (the longest that starts one, as WHATWG's decoder reads it: `\xff`, `\xfe`,
 * `\xc3` before `(`, a cut `\xe2\x82`) reads as one U+FFFD, three bytes, in every command. What
 * `cat`, `wc -c`, `stat`, `rg` and `xxd` show is that text, not the file's bytes (41 on disk, 48
 * here); docs/shell.md ("not matched yet") says so. Asserted whole, so a change of it is seen.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

let repo: { dir: string; cleanup: () => void };
let shell: Shell;
beforeAll(async () => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "T", navigation: { groups: [{ group: "S", pages: ["index"] }] } }) });
  writeFileSync(join(repo.dir, "index.mdx"), Buffer.from("---\ntitle: Home\n---\n\nok \xff\xfe bad \xc3( end \xe2\x82\n", "latin1"));
  const runtime = await DocsRuntime.load({ root: repo.dir });
  shell = runtime.readerState(localContext()).shell;
});
afterAll(() => repo.cleanup());

describe("a page that is not all UTF-8", () => {
  it("reads each ill-formed sequence as U+FFFD in cat, wc, stat, rg and xxd", async () => {
    expect(await shell.run("sed -n 5p /index.mdx | xxd; wc -c /index.mdx; cat /index.mdx | wc -c; stat -c %s /index.mdx; rg -c bad /; rg -o 'ok..' /index.mdx")).toEqual({
      stdout: [
        "00000000: 6f6b 20ef bfbd efbf bd20 6261 6420 efbf  ok ...... bad ..",
        "00000010: bd28 2065 6e64 20ef bfbd 0a              .( end ....",
        "48 /index.mdx",
        "48",
        "48",
        "/index.mdx:1",
        "ok \uFFFD",
        "",
      ].join("\n"),
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
  });
});
