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
  `bash: brace expansion limit reached (${range} makes ${words} words, 100000 per word; a limit of the docs shell: do less in one call)\n`;

describe("brace ranges", () => {
  it("refuses a range past the limit before anything on the line runs", async () => {
    expect(await shell.run("echo {1..100000000}")).toEqual({ stdout: "", stderr: refusal("{1..100000000}", 100000000), exitCode: 1, truncated: false });
    expect(await shell.run("echo start; for i in {0..200000..2}; do echo $i; done")).toEqual({ stdout: "", stderr: refusal("{0..200000..2}", 100001), exitCode: 1, truncated: false });
    expect(await shell.run("echo $(echo x{-50000..50000})")).toEqual({ stdout: "", stderr: refusal("{-50000..50000}", 100001), exitCode: 1, truncated: false });
  });

  it("refuses a product of braces past the limit, and expands one up to it", async () => {
    expect(await shell.run("echo {a,b}{1..99999} | wc -w")).toEqual({ stdout: "", stderr: refusal("{a,b}{1..99999}", 199998), exitCode: 1, truncated: false });
    expect(await shell.run("echo x{a,{b..d}}{1..30000}y | wc -w")).toEqual({ stdout: "", stderr: refusal("x{a,{b..d}}{1..30000}y", 120000), exitCode: 1, truncated: false });
    expect(await shell.run("echo {a,b}{1..50000} | wc -w")).toEqual({ stdout: "100000\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("expands a range up to the limit whole", async () => {
    const r = await shell.run("echo {1..100000} | wc -w; echo {a..e}");
    expect(r).toEqual({ stdout: "100000\na b c d e\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("expands what bash expands below the limit: {1..20000}, several ranges in one line (issue 25: just-bash stopped at 10,000)", async () => {
    // bash 5.2: 108894 bytes; ten ranges of 10,000 in one call (just-bash counted them together against 100,000).
    expect(await shell.run("echo {1..20000} | wc -c; for i in {1..20000}; do :; done; echo $i; for k in 1 2 3 4 5 6 7 8 9 10 11; do echo {1..10000}; done | wc -w")).toEqual({
      stdout: "108894\n20000\n110000\n",
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
  });
});

/**
 * Texts the interpreter parses at run time, outside the transforms that see the command line:
 * `eval 'echo {1..20000}'` printed the first 10,000 numbers with exit 0, and `declare -a
 * a=({1..20000})` made 10,000 elements, where the same range written on the line is refused.
 */
describe("brace ranges in text parsed at run time", () => {
  const refused20000 = refusal("{1..200000}", 200000);

  it("refuses a long range in the text of eval, however eval is named or nested", async () => {
    expect(await shell.run("eval 'echo {1..100000000}'; echo status $?")).toEqual({ stdout: "status 1\n", stderr: refusal("{1..100000000}", 100000000), exitCode: 0, truncated: false });
    for (const line of ["builtin eval 'echo {1..200000}'", "command eval 'echo {1..200000}'", "f() { eval \"$1\"; }; f 'echo {1..200000}'", "eval 'eval \"echo {1..200000}\"'", "n=200000; eval \"echo {1..$n}\""]) {
      expect(await shell.run(`${line}; echo status $?`), line).toEqual({ stdout: "status 1\n", stderr: refused20000, exitCode: 0, truncated: false });
    }
    expect(await shell.run("echo $(eval 'echo {1..200000}') | wc -w")).toEqual({ stdout: "0\n", stderr: refused20000, exitCode: 0, truncated: false });
    expect(await shell.run("echo 'echo {1..200000}' | xargs -I{} bash -c 'eval \"{}\"'")).toEqual({ stdout: "", stderr: refused20000, exitCode: 123, truncated: false });
  });

  it("runs eval's text in the current shell, as bash does", async () => {
    const r = await shell.run("x=3; eval 'y=$((x+1))'; echo $y; false; eval 'echo $?'; eval echo '{1..3}'; eval 'f() { echo fn; }'; f; eval; eval ''; echo $?; eval 'echo \"a  b\"' | cat");
    expect(r).toEqual({ stdout: "4\n1\n1 2 3\nfn\n0\na  b\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("eval 'echo x > /a'; echo $?")).toEqual({ stdout: "1\n", stderr: "bash: /a: Read-only file system\n", exitCode: 0, truncated: false });
  });

  it("stops the line at an eval reached by a computed name, which no transform sees", async () => {
    expect(await shell.run("e=eval; $e 'echo {1..200000}'; echo not reached")).toEqual({
      stdout: "",
      stderr: "bash: eval: reached through a name computed at run time, which the docs shell cannot check first (write eval itself)\n",
      exitCode: 126,
      truncated: false,
    });
  });

  it("refuses the builtins that read and run text of their own: source, ., compgen -W and -C", async () => {
    const source = "bash: source: not available in the docs shell: it parses and runs text of its own (read the file with cat instead)\n";
    expect(await shell.run("source <(echo 'echo {1..200000}')")).toEqual({ stdout: "", stderr: source, exitCode: 126, truncated: false });
    expect(await shell.run("eval 'source /index.mdx'")).toEqual({ stdout: "", stderr: source, exitCode: 126, truncated: false });
    expect(await shell.run("s=source; $s /index.mdx")).toEqual({ stdout: "", stderr: source, exitCode: 126, truncated: false });
    expect(await shell.run(". /index.mdx")).toEqual({ stdout: "", stderr: source.replace("source", "."), exitCode: 126, truncated: false });
    const compgen = "bash: compgen: not available in the docs shell: it parses and runs text of its own (its -W word list and -C command are parsed at run time; list files with ls or find)\n";
    expect(await shell.run("compgen -W '{1..200000}'")).toEqual({ stdout: "", stderr: compgen, exitCode: 126, truncated: false });
    expect(await shell.run("compgen -aC 'echo {1..200000}'")).toEqual({ stdout: "", stderr: compgen, exitCode: 126, truncated: false });
    // An option not written out may be -W: refused where it stands, the line goes on.
    expect(await shell.run("o=-W; compgen $o '{1..200000}'; echo after $?")).toEqual({ stdout: "after 126\n", stderr: compgen, exitCode: 0, truncated: false });
    // What parses no text still runs: a glob (compgen -G lists its matches), and complete.
    expect(await shell.run("compgen -G '/g*'; echo $?; complete -W 'a b' foo; complete -p")).toEqual({ stdout: "/guides\n0\ncomplete -W 'a b' foo\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("refuses a long range in an array that declare reads at run time", async () => {
    expect(await shell.run("declare -a a=({1..200000}); echo ${#a[@]}")).toEqual({ stdout: "", stderr: refused20000, exitCode: 1, truncated: false });
    expect(await shell.run("f() { local -a a=({1..200000}); echo ${#a[@]}; }; f")).toEqual({ stdout: "", stderr: refused20000, exitCode: 1, truncated: false });
    expect(await shell.run("declare -a a=({1..3} x); echo ${#a[@]}")).toEqual({ stdout: "4\n", stderr: "", exitCode: 0, truncated: false });
  });
});
