/** Import statements in every form MDX accepts are left out for readers who may not read the file they name. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";

const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({ name: "Docs", navigation: { groups: [{ group: "Start", pages: ["comment", "unicode", "escaped", "alias", "unread"] }] } }),
  "snippets/secret.mdx": "---\ngroups: [staff]\n---\n\nThe key is SNIPPET-SECRET.\n",
  "comment.mdx": '---\ntitle: Comment\n---\nimport Secret /* x */ from "/snippets/secret.mdx"\n\nText.\n\n<Secret />\n',
  "unicode.mdx": '---\ntitle: Unicode\n---\nimport Sécret from "/snippets/secret.mdx"\n\nText.\n\n<Sécret />\n',
  "escaped.mdx": '---\ntitle: Escaped\n---\nimport Secret from "/snippets/secr\\u0065t.mdx"\n\nText.\n\n<Secret />\n',
  // A form the matcher does not read (an arbitrary module namespace name): removed all the same.
  "unread.mdx": '---\ntitle: Unread\n---\nimport { "the secret" as Secret } from "/snippets/secret.mdx"\n\nText.\n\n<Secret />\n',
  "alias.mdx": '---\ntitle: Alias\n---\nimport Secret from "/snippets/secret.mdx"\nexport const Alias = Secret\n\nText.\n\n<Alias />\n',
};

let dir: string;
let runtime: DocsRuntime;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-mcp-import-forms-"));
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  runtime = await DocsRuntime.load({ root: dir });
});
afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (reader: Reader, command: string) => runtime.readerState(localContext(reader)).shell.run(command);

describe("a page importing a restricted snippet with comments, a non-ASCII name, an escaped path or an alias", () => {
  it("is, for a reader who may not read the snippet, the page without the statement, the alias and the tags", async () => {
    // As written without the import: the body starts right after the front matter, as it did.
    const page = (title: string) => `---\ntitle: ${title}\n---\nText.\n`;
    for (const [file, title] of [["comment", "Comment"], ["unicode", "Unicode"], ["escaped", "Escaped"], ["alias", "Alias"], ["unread", "Unread"]] as const) {
      expect(await run(ANONYMOUS, `cat /${file}.mdx`), file).toEqual({ stdout: page(title), stderr: "", exitCode: 0, truncated: false });
    }
    expect(await run(ANONYMOUS, "rg -l -i 'secr|snippets|<Alias' /")).toEqual({ stdout: "", stderr: "", exitCode: 1, truncated: false });
  });

  it("is the page as written for a reader who may read the snippet", async () => {
    expect((await run(readerWithGroups(["staff"]), "cat /escaped.mdx")).stdout).toBe(FILES["escaped.mdx"]);
    expect((await run(readerWithGroups(["staff"]), "cat /unread.mdx")).stdout).toBe(FILES["unread.mdx"]);
  });
});
