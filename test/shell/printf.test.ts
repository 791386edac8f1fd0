/**
 * printf's messages where bash's differ from the fidelity suite's recordings only by bash's
 * `bash: line 1: ` prefix (issue 25): a conversion missing or unknown stops with status 1, after
 * what was printed; a number past 64 bits is clamped with a warning, status 0, each reported.
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

describe("printf", () => {
  it("names a missing or unknown conversion as bash does, and warns of each number past 64 bits", async () => {
    expect(await shell.run("printf 'ab%5'; printf '%s %' a; printf 'x%5%|'")).toEqual({
      stdout: "aba x",
      stderr: "printf: `%5': missing format character\nprintf: `%': missing format character\nprintf: `%': invalid format character\n",
      exitCode: 1,
      truncated: false,
    });
    expect(await shell.run("printf '%d %u\\n' 9223372036854775808 -18446744073709551616 12345678901234567890 7")).toEqual({
      stdout: "9223372036854775807 18446744073709551615\n9223372036854775807 7\n",
      stderr:
        "printf: warning: 9223372036854775808: Numerical result out of range\nprintf: warning: -18446744073709551616: Numerical result out of range\nprintf: warning: 12345678901234567890: Numerical result out of range\n",
      exitCode: 0,
      truncated: false,
    });
  });

  it("writes a byte that is not UTF-8 as that byte, in a pipe", async () => {
    expect(await shell.run("printf '\\377' | wc -c; printf '\\377' | od -An -tx1")).toEqual({ stdout: "1\n ff\n", stderr: "", exitCode: 0, truncated: false });
  });
});
