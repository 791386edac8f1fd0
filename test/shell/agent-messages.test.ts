/**
 * Messages the fidelity suites cannot compare with the real tools (bash -c names `line 1:`,
 * which an interactive bash 5.2 does not, and the docs shell does not), or where the docs shell
 * refuses an option by name rather than run it (issue 25): each answer whole.
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

const ok = (stdout: string, stderr = "", exitCode = 0) => ({ stdout, stderr, exitCode, truncated: false });

describe("$(< FILE) and input redirects say why a file cannot be read, as bash 5.2 does", () => {
  it("$(< FILE) of a missing file, or of a path through a file, writes bash's message and sets status 1 (it was silent)", async () => {
    expect(await shell.run('x=$(< /nope); echo "[$x] $?"')).toEqual(ok("[] 1\n", "bash: /nope: No such file or directory\n"));
    expect(await shell.run('x=$(< /index.mdx/.); echo "[$x] $?"')).toEqual(ok("[] 1\n", "bash: /index.mdx/.: Not a directory\n"));
    expect(await shell.run('echo "$(< /nope)" | wc -c')).toEqual(ok("1\n", "bash: /nope: No such file or directory\n"));
  });

  it("$(< FOLDER) is empty with status 0, silently, as in bash; a readable file is read", async () => {
    expect(await shell.run('x=$(< /guides); echo "[$x] $?"')).toEqual(ok("[] 0\n"));
    expect(await shell.run('x=$(< /index.mdx); [ -n "$x" ] && echo read $?')).toEqual(ok("read 0\n"));
  });

  it("an input redirect names the file with bash's prefix: missing, through a file, a folder", async () => {
    expect(await shell.run("cat < /missing; echo $?")).toEqual(ok("1\n", "bash: /missing: No such file or directory\n"));
    expect(await shell.run("cat < /index.mdx/x; echo $?")).toEqual(ok("1\n", "bash: /index.mdx/x: Not a directory\n"));
    // bash opens a folder and the command's read fails (`cat: -: Is a directory`); here the
    // shell says it and the command does not run (docs/shell.md).
    expect(await shell.run("wc -l < /guides; echo $?")).toEqual(ok("1\n", "bash: /guides: Is a directory\n"));
  });
});

describe("options refused by name, not ignored or called invalid", () => {
  it("rg --stats says it is not supported (it printed the plain search)", async () => {
    expect(await shell.run("rg --stats -c title /index.mdx")).toEqual(
      ok("", "rg: --stats is not supported by this docs shell; count with -c (matching lines per file), --count-matches, or -l | wc -l (files)\n", 2),
    );
  });

  it("grep -z names the option (it said `invalid option -- 'z'`)", async () => {
    const refusal = "grep: -z (--null-data) is not supported by this docs shell; the docs are lines of text (to split on NUL, pipe through tr '\\0' '\\n')\n";
    expect(await shell.run("grep -z title /index.mdx")).toEqual(ok("", refusal, 2));
    expect(await shell.run("grep --null-data title /index.mdx")).toEqual(ok("", refusal, 2));
  });
});
