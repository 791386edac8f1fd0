/**
 * What the fidelity suite cannot compare with a real tool: help texts, our deliberate
 * differences, stdin handling, and the filesystem tool's result through a real MCP client.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import type { SiteView } from "../../src/vfs/view.js";
import { connect } from "../helpers/mcp.js";
import { REPO, fixture } from "../helpers/paths.js";
import { provenanceOf } from "../helpers/provenance.js";
import { ANONYMOUS } from "../../src/vfs/access.js";

const FS = "query_docs_filesystem_nimbus_storage";

let runtime: DocsRuntime;
let shell: Shell;
let view: SiteView;
let client: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo") });
  shell = runtime.readerState(localContext()).shell;
  view = runtime.readerState(localContext()).view;
  client = await connect(runtime);
});
afterAll(async () => client.close());

/** The names of our commands, from the registry. */
function ourCommands(): string[] {
  return SHELL_COMMANDS.map((make) => make(view).name);
}

describe("--help", () => {
  const firstLines: Record<string, string> = {
    rg: "ripgrep 13.0.0 (read-only docs shell)",
    grep: "Usage: grep [OPTION]... PATTERNS [FILE]...",
    fold: "Usage: fold [OPTION]... [FILE]...",
    tac: "Usage: tac [OPTION]... [FILE]...",
    egrep: "Usage: grep [OPTION]... PATTERNS [FILE]...",
    fgrep: "Usage: grep [OPTION]... PATTERNS [FILE]...",
    ls: "Usage: ls [OPTION]... [FILE]...",
    tree: "usage: tree [OPTIONS] [directory ...]",
    cat: "Usage: cat [OPTION]... [FILE]...",
    head: "Usage: head [OPTION]... [FILE]...",
    tail: "Usage: tail [OPTION]... [FILE]...",
    wc: "Usage: wc [OPTION]... [FILE]...",
    stat: "Usage: stat [OPTION]... FILE...",
    find: "Usage: find [-H] [-L] [-P] [path...] [expression]",
    sort: "Usage: sort [OPTION]... [FILE]...",
    uniq: "Usage: uniq [OPTION]... [INPUT [OUTPUT]]",
    cut: "Usage: cut OPTION... [FILE]...",
    sed: "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...",
    touch: "Usage: touch ...",
    mkdir: "Usage: mkdir ...",
    rmdir: "Usage: rmdir ...",
    rm: "Usage: rm ...",
    cp: "Usage: cp ...",
    mv: "Usage: mv ...",
    ln: "Usage: ln ...",
    chmod: "Usage: chmod ...",
    split: "Usage: split ...",
    tee: "Usage: tee ...",
    xargs: "Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...",
    realpath: "Usage: realpath [OPTION]... FILE...",
    du: "Usage: du [OPTION]... [FILE]...",
    which: "Usage: which [-as] COMMAND...",
    diff: "Usage: diff [OPTION]... FILE1 FILE2",
    od: "Usage: od [OPTION]... [FILE]...",
    xxd: "Usage: xxd [options] [infile]",
  };

  it("covers every command we implement", () => {
    const wrapped = new Set(["awk", "jq", "paste", "tr", "seq", "rev", "nl", "expand", "unexpand", "column", "join", "md5sum", "sha1sum", "sha256sum"]);
    expect(ourCommands().filter((n) => !wrapped.has(n)).sort()).toEqual(Object.keys(firstLines).sort());
  });

  for (const [name, first] of Object.entries(firstLines)) {
    it(name, async () => {
      const r = await shell.run(`${name} --help`);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout.split("\n")[0]).toBe(first);
    });
  }

  it("is also there for the just-bash commands we keep (awk, jq, tr...)", async () => {
    for (const name of ["awk", "jq", "tr", "paste", "nl", "comm"]) {
      const r = await shell.run(`${name} --help`);
      expect(r.exitCode, name).toBe(0);
      expect(r.stdout.length, name).toBeGreaterThan(20);
    }
  });
});

describe("deliberate differences from the real tools", () => {
  it("rg's md type also covers .mdx pages (ripgrep 13's does not)", async () => {
    expect((await shell.run("rg -t md -l signed /")).stdout).toBe("/guides/access-control.mdx\n/index.mdx\n/skill.md\n");
    expect((await shell.run("rg --type-list | grep -E '^(md|mdx|markdown):'")).stdout).toBe(
      "markdown: *.markdown, *.md, *.mdown, *.mdx, *.mkdn\nmd: *.markdown, *.md, *.mdown, *.mdx, *.mkdn\nmdx: *.mdx\n",
    );
  });

  it("rg without a path reads piped input, else searches the current folder", async () => {
    expect(await shell.run("printf 'a\\nb webhook\\n' | rg -n webhook")).toEqual({ stdout: "2:b webhook\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("cd /guides && rg -l Verifying")).toEqual({ stdout: "webhooks.mdx\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("grep without a file reads piped input", async () => {
    expect(await shell.run("printf 'a\\nb webhook\\n' | grep -n webhook")).toEqual({ stdout: "2:b webhook\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("xargs and find -exec run commands of the docs shell only, never a host program", async () => {
    expect(await shell.run("echo /index.mdx | xargs python3 -c 'print(1)'")).toEqual({
      stdout: "",
      stderr: "xargs: python3: No such file or directory\n",
      exitCode: 127,
      truncated: false,
    });
    expect(await shell.run("find /guides -name 'webhooks.mdx' -exec node {} \\;")).toEqual({
      stdout: "",
      stderr: "find: \u2018node\u2019: No such file or directory\n",
      exitCode: 0,
      truncated: false,
    });
    expect(await shell.run("printf 'a\\nb\\n' | xargs -P 8 -n 1 echo")).toEqual({ stdout: "a\nb\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("reports times in UTC and every entry as root's", async () => {
    const file = view.fileAt("/guides/webhooks.mdx");
    const iso = file?.mtime.toISOString() ?? "";
    const r = await shell.run("stat -c '%U %G %u %a %s %y' /guides/webhooks.mdx");
    expect(r.stdout).toBe(`root root 0 444 ${file?.size} ${iso.slice(0, 10)} ${iso.slice(11, 23)}000000 +0000\n`);
  });
});

describe("the filesystem tool through an MCP client", () => {
  it("adds did-you-mean to the result text, not to the command's stderr", async () => {
    const r = await client.call(FS, { command: "cat /guides/webhook.mdx" });
    const newest = runtime.readerState(localContext(ANONYMOUS)).view.mtimeOf("/").toISOString();
    expect(r.isError).toBe(true);
    expect(client.text(r)).toBe(
      "cat: /guides/webhook.mdx: No such file or directory\n[exit code 1]\n/guides/webhook.mdx does not exist. Did you mean: /guides/webhooks.mdx?",
    );
    expect(r.structuredContent).toEqual({
      stdout: "",
      stderr: "cat: /guides/webhook.mdx: No such file or directory\n",
      exitCode: 1,
      truncated: false,
      hint: "/guides/webhook.mdx does not exist. Did you mean: /guides/webhooks.mdx?",
      // The path named does not exist: what was read is `/`, as new as the reader's newest file.
      reads: [{ path: "/", lastModified: newest }],
      provenance: { ...provenanceOf(fixture("demo"), []), lastModified: newest },
    });
  });

  it("extracts one section with sed, as the tool description says", async () => {
    const r = await client.call(FS, { command: "sed -n '/^## Verifying/,/^## /p' /guides/webhooks.mdx" });
    expect(client.text(r)).toBe(
      "## Verifying signatures\n\nEvery delivery has a `Nimbus-Signature` header: an HMAC-SHA256 of the body with your webhook\n" +
        "secret. Compare it in constant time before trusting the payload.\n\n## Retries\n",
    );
  });

  it("reads a batch of pages in one call", async () => {
    const r = await client.call(FS, { command: "head -3 /guides/webhooks.mdx /api/overview.mdx" });
    const webhooks = readFileSync(join(fixture("demo"), "guides/webhooks.mdx"), "utf8").split("\n").slice(0, 3).join("\n");
    const overview = readFileSync(join(fixture("demo"), "api/overview.mdx"), "utf8").split("\n").slice(0, 3).join("\n");
    expect(client.text(r)).toBe(`==> /guides/webhooks.mdx <==\n${webhooks}\n\n==> /api/overview.mdx <==\n${overview}\n`);
  });
});

describe("docs/shell.md", () => {
  it("lists exactly the commands the registry implements", () => {
    const section = readFileSync(join(REPO, "docs/shell.md"), "utf8");
    const listed = /Our own implementations: (.*)\./.exec(section)?.[1]?.match(/`([a-z0-9]+)`/g)?.map((m) => m.slice(1, -1)) ?? [];
    expect(listed.sort()).toEqual(ourCommands().sort());
  });
});
