/**
 * Fidelity on the files real sites have and a curated corpus may not: CRLF line ends, a last
 * line without newline, non-ASCII names and text (accents, CJK, emoji), spaces in names, an
 * empty page, a 3 KB line, tabs. Same comparison as fidelity.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { type FidelityCase, fidelitySuite } from "../helpers/fidelity.js";

const root = mkdtempSync(join(tmpdir(), "svc-edge-"));
mkdirSync(join(root, "guides"));
const pages: Record<string, string> = {
  "guides/crlf.mdx": "---\ntitle: CRLF\r\n---\r\n\r\n## Setup\r\nRun it.\r\n\r\n## Next\r\nDone.\r\n",
  "guides/no-newline.mdx": "---\ntitle: No newline\n---\n\nlast line without newline",
  "guides/caf\u00e9.mdx":
    "---\ntitle: Caf\u00e9\n---\n\n## \u00dcn\u00efc\u00f6d\u00e9\n\nCaf\u00e9 cr\u00e8me, na\u00efve fa\u00e7ade. \u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3002 Emoji \u{1F680} rocket.\n\u00dcN\u00cfC\u00d6D\u00c9 upper.\n",
  "guides/with space.mdx": "---\ntitle: Spaced\n---\n\nA page with spaces in its name.\n",
  "empty.md": "",
  "long.mdx": `---\ntitle: Long\n---\n\n${"word ".repeat(600)}end\n`,
  "tabs.mdx": "---\ntitle: Tabs\n---\n\ncol1\tcol2\tcol3\n\tindented\n",
};
for (const [path, text] of Object.entries(pages)) writeFileSync(join(root, path), text);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CASES: readonly FidelityCase[] = [
  { cmd: "cat -A /guides/crlf.mdx" },
  { cmd: "rg -n 'Setup$' /guides" },
  { cmd: "grep -c 'Setup$' /guides/crlf.mdx" },
  { cmd: "grep -c $'\\r$' /guides/crlf.mdx" },
  { cmd: "rg -c '\\r$' /guides/crlf.mdx" },
  { cmd: "sed -n '/^## Setup/,/^## /p' /guides/crlf.mdx" },
  { cmd: "tail -1 /guides/no-newline.mdx" },
  { cmd: "cat /guides/no-newline.mdx /guides/no-newline.mdx" },
  { cmd: "sed p /guides/no-newline.mdx" },
  { cmd: "wc /guides/no-newline.mdx" },
  { cmd: "grep -n line /guides/no-newline.mdx" },
  { cmd: "rg -n line /guides/no-newline.mdx" },
  { cmd: "tail -c 5 /guides/no-newline.mdx" },
  { cmd: "awk '{print NR\": \"$0}' /guides/no-newline.mdx" },
  { cmd: "sort /guides/no-newline.mdx" },
  { cmd: "rg -i '\u00fcn\u00ef' /" },
  { cmd: "grep -ri '\u00dcN\u00cf' /" },
  { cmd: "rg -w 'Caf\u00e9' /guides" },
  { cmd: "cd /guides && grep -o '[[:alpha:]]*\u00e9[[:alpha:]]*' caf\u00e9.mdx" },
  { cmd: "rg -o '\\w+\u00e9\\w*' /guides" },
  // empty matches never land inside an emoji (V8 tries positions within a surrogate pair)
  { cmd: "rg -c '^$' /guides" },
  { cmd: "rg -v '^$' -c /guides" },
  { cmd: "cd /guides && grep -c '^$' caf\u00e9.mdx" },
  { cmd: "cd /guides && grep -vn '^$' caf\u00e9.mdx" },
  { cmd: "cd /guides && grep -c '\\B' caf\u00e9.mdx" },
  { cmd: "rg -c '\\B' /guides" },
  { cmd: "cd /guides && grep -o 'x*' caf\u00e9.mdx | wc -l" },
  { cmd: "cd /guides && wc -m -c caf\u00e9.mdx" },
  { cmd: "cd /guides && cut -c1-6 caf\u00e9.mdx" },
  { cmd: "ls -l /guides" },
  { cmd: "find / -name '*\u00e9*'" },
  { cmd: "tree /" },
  { cmd: "ls /" },
  { cmd: "cd /guides && cat 'with space.mdx'" },
  { cmd: "cd /guides && grep -l spaces *" },
  { cmd: "rg -l spaces /" },
  { cmd: "grep -rl spaces /" },
  { cmd: "find / -name '* *'" },
  { cmd: "wc -l /empty.md" },
  { cmd: "cat /empty.md | wc -c" },
  { cmd: "grep -c '' /empty.md" },
  { cmd: "rg -c '' /empty.md /tabs.mdx" },
  { cmd: "head -c 50 /long.mdx" },
  { cmd: "rg -o 'end$' /long.mdx" },
  { cmd: "awk '{print NF}' /long.mdx" },
  { cmd: "cat -T /tabs.mdx" },
  { cmd: "cut -f2 /tabs.mdx" },
  { cmd: "expand /tabs.mdx" },
  { cmd: "rg -n '\\t' /tabs.mdx" },
  { cmd: "grep -P -c '\\t' /tabs.mdx" },
  { cmd: "stat -c '%n %s %F' /empty.md /tabs.mdx" },
  { cmd: "ls -la /guides" },
  { cmd: "sort -k2 /tabs.mdx" },
];

fidelitySuite("docs shell output equals the real tools on edge-case files", "edge", () => root, CASES);
