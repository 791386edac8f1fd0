/**
 * Adversary round 63 F1: an ignore file saved as UTF-16 (Windows Notepad's "Unicode"), UTF-32,
 * after two UTF-8 byte order marks, with NULs or in a code page was read as UTF-8 text whose rules
 * matched nothing: every file it excludes was served, at start and after a live replacement,
 * and `check` said nothing. Such bytes are an ignore file that cannot be read (`ignoreFileText`):
 * the load stops at start, a reload keeps the last good rules and says why once. A CR alone as a
 * line end is read as git reads it (one line), and `check` warns. Whole outputs: the CLI's, and
 * an anonymous MCP client's through the SDK.
 */
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { tempRepo } from "../config/temp-repo.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";

// Each live step waits for the reload that read the edit (its finding, or the secret served),
// never for time; a reload that never comes is the suite's hang detector's (vitest.config.ts).
// Each shape loses a rule read as UTF-8 text: `secret/` (a wide encoding, a byte order mark before
// it), or `brouillons-été/` (Latin-1: its letters are no UTF-8), which serves what it excluded.
const RULES = "# drafts are not published\nsecret/\nbrouillons-\u00e9t\u00e9/\n";
const BASE = { "docs.json": { name: "Vault", navigation: { groups: [{ group: "Home", pages: ["index"] }] } }, "index.mdx": "# Home\n", "secret/plan.mdx": "# Plan\n\nEXCLUDED-7Q\n" };
const SITE = { ...BASE, "brouillons-\u00e9t\u00e9/plan.mdx": "# Brouillon\n\nEXCLUDED-7Q\n" };

const utf16le = (s: string): Buffer => Buffer.from(`\uFEFF${s}`, "utf16le");
const utf16be = (s: string): Buffer => Buffer.from(`\uFEFF${s}`, "utf16le").swap16();
const utf32le = (s: string): Buffer => Buffer.from([...`\uFEFF${s}`].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8, 0, 0]));
const utf32be = (s: string): Buffer => Buffer.from([...`\uFEFF${s}`].flatMap((c) => [0, 0, c.charCodeAt(0) >> 8, c.charCodeAt(0) & 0xff]));

/** Each shape: the ignore file's bytes (excluding `secret/` when read right), and why it is refused. */
const SHAPES: readonly { readonly name: string; readonly bytes: Buffer; readonly why: string }[] = [
  { name: "UTF-16 LE with its byte order mark", bytes: utf16le(RULES), why: "saved as UTF-16, not UTF-8: it starts with the byte order mark FF FE" },
  { name: "UTF-16 BE with its byte order mark", bytes: utf16be(RULES), why: "saved as UTF-16, not UTF-8: it starts with the byte order mark FE FF" },
  { name: "UTF-32 LE with its byte order mark", bytes: utf32le(RULES), why: "saved as UTF-32, not UTF-8: it starts with the byte order mark FF FE 00 00" },
  { name: "UTF-32 BE with its byte order mark", bytes: utf32be(RULES), why: "saved as UTF-32, not UTF-8: it starts with the byte order mark 00 00 FE FF" },
  { name: "UTF-16 LE without a byte order mark", bytes: Buffer.from(RULES, "utf16le"), why: "not UTF-8 text: line 1 holds a NUL byte, as a file saved as UTF-16 or UTF-32 does" },
  { name: "two UTF-8 byte order marks", bytes: Buffer.from(`\uFEFF\uFEFF${RULES.replace("# drafts are not published\n", "")}`), why: "it starts with two byte order marks (EF BB BF EF BB BF), which would be read as part of a rule" },
  { name: "a byte order mark before a later rule", bytes: Buffer.from(RULES.replace("secret/", "\uFEFFsecret/")), why: "line 2 holds a byte order mark (U+FEFF) past the start of the file, which would be read as part of a rule" },
  { name: "Latin-1", bytes: Buffer.from(RULES, "latin1"), why: "not UTF-8 text: line 3 holds bytes that are not UTF-8, as a file saved as Latin-1 or another code page does" },
];

const stopped = (file: string, why: string) => `svc-mcp: cannot read ${file}: ${why}; the files it excludes would be served, so nothing is (save it as UTF-8, or remove it)\n`;
const kept = (file: string, why: string) => `${file} cannot read (${why}); still applying the last good ignore rules until it is fixed`;
const NOT_FOUND = "cat: /secret/plan.mdx: No such file or directory\n[exit code 1]";

describe("an ignore file whose bytes are not UTF-8 text, at start", () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: fs and check stop, naming the file and the encoding`, async () => {
      const root = tempRepo(SITE);
      writeFileSync(join(root, ".svcignore"), shape.bytes);
      const fs = await runCli(["fs", "--dir", root, "ls /; cat /secret/plan.mdx"]);
      const check = await runCli(["check", "--dir", root]);
      expect({ fs, check }).toEqual({ fs: { code: 2, stdout: "", stderr: stopped(".svcignore", shape.why) }, check: { code: 2, stdout: "", stderr: stopped(".svcignore", shape.why) } });
    });
  }

  it(".mintignore saved as UTF-16 stops the load too", async () => {
    const root = tempRepo(SITE);
    writeFileSync(join(root, ".mintignore"), utf16le(RULES));
    expect(await runCli(["fs", "--dir", root, "ls /"])).toEqual({ code: 2, stdout: "", stderr: stopped(".mintignore", "saved as UTF-16, not UTF-8: it starts with the byte order mark FF FE") });
  });

  it("one UTF-8 byte order mark is read past, as git reads it", async () => {
    const root = tempRepo(SITE);
    writeFileSync(join(root, ".svcignore"), Buffer.from(`\uFEFF${RULES}`));
    expect(await runCli(["fs", "--dir", root, "ls /"])).toEqual({ code: 0, stdout: "index.mdx\nskill.md\n", stderr: "" });
  });
});

describe("an ignore file replaced by one whose bytes are not UTF-8 text, while serving", () => {
  const cases = [...SHAPES.map((shape) => ({ file: ".svcignore", shape })), { file: ".mintignore", shape: SHAPES[0] as (typeof SHAPES)[number] }];
  for (const { file, shape } of cases) {
    it(`${file} as ${shape.name} (an atomic mv): the anonymous reader still sees nothing it excludes; said once; UTF-8 again applies`, async () => {
      const root = tempRepo({ ...SITE, [file]: RULES });
      const logs: string[] = [];
      const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
      await runtime.watch();
      const c = await connect(runtime);
      const shell = async (command: string) => c.text(await c.call(`query_docs_filesystem_${runtime.names.slug}`, { command }));
      const edit = async (write: () => void, shows: (change: RuntimeChange) => boolean): Promise<void> => {
        const changed = new Promise<void>((resolve) => {
          const off = runtime.onChange((change) => {
            if (!shows(change)) return;
            off();
            resolve();
          });
        });
        write();
        await changed;
      };
      const secretServed = (change: RuntimeChange) => change.site.files.has("/secret/plan.mdx") || change.site.files.has("/brouillons-\u00e9t\u00e9/plan.mdx");
      try {
        const before = { ls: await shell("ls /"), cat: await shell("cat /secret/plan.mdx") };
        await edit(
          () => {
            writeFileSync(join(root, `${file}.new`), shape.bytes);
            renameSync(join(root, `${file}.new`), join(root, file));
          },
          (change) => secretServed(change) || change.site.diagnostics.some((d) => d.code === "ignore-file-broken"),
        );
        const replaced = { ls: await shell("ls /"), cat: await shell("cat /secret/plan.mdx"), grep: await shell("grep -rl EXCLUDED-7Q / ; echo done") };
        await edit(() => writeFileSync(join(root, file), "secret/draft.mdx\nbrouillons-\u00e9t\u00e9/\n"), secretServed);
        expect({ before, replaced, utf8Again: await shell("ls /secret"), logs }).toEqual({
          before: { ls: "index.mdx\nskill.md\n", cat: NOT_FOUND },
          replaced: { ls: "index.mdx\nskill.md\n", cat: NOT_FOUND, grep: "done\n" },
          utf8Again: "plan.mdx\n",
          logs: [kept(file, shape.why)],
        });
      } finally {
        await c.close();
        await runtime.close();
      }
    });
  }
});

describe("an ignore file whose lines end with a CR alone (old Mac line ends)", () => {
  const WARNING =
    "warning: a CR alone splits this line (old Mac line ends): git reads it as one line, and so does svc-mcp, so it is one rule, or one comment when it starts with #, and the rules written after a CR do not apply; save the file with LF line ends";

  it("is read as git reads it, one line (here one comment), and check warns at the line", async () => {
    const root = tempRepo(BASE);
    writeFileSync(join(root, ".svcignore"), "# drafts are not published\rsecret/\r");
    const fs = await runCli(["fs", "--dir", root, "ls /"]);
    const check = await runCli(["check", "--dir", root]);
    expect({ fs, check }).toEqual({
      fs: { code: 0, stdout: "index.mdx\nsecret\nskill.md\n", stderr: "" },
      check: {
        code: 0,
        stdout: `.svcignore:1 ${WARNING}\nsecret/plan.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)\nchecked docs.json and 2 pages: 0 errors, 2 warnings\n`,
        stderr: "",
      },
    });
  });

  it("on a later line of a file with LF line ends, and not for CRLF or a CR at the very end", async () => {
    const root = tempRepo(BASE);
    writeFileSync(join(root, ".svcignore"), "secret/\r\n# notes\rold/\nlast/\r");
    expect(await runCli(["check", "--dir", root])).toEqual({ code: 0, stdout: `.svcignore:2 ${WARNING}\nchecked docs.json and 1 page: 0 errors, 1 warning\n`, stderr: "" });
  });
});
