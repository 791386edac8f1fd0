/**
 * `rg` and `grep` tell whether a file held as UTF-8 bytes (a shell worker's shared snapshot)
 * matches an ASCII literal from its bytes, without decoding it (issue 22: `rg -il` over 50,000
 * pages spent most of its time decoding them): the same output as searching the decoded texts,
 * case folds to ASCII (KELVIN SIGN, LONG S) included, and no text read for -l, -L, -q, nor for a
 * file without a match.
 */
import { describe, expect, it } from "vitest";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import { literalHitInBytes } from "../../src/engine/shell/lib/byte-search.js";
import { compilePatterns } from "../../src/engine/shell/regex/patterns.js";
import { decodeSnapshot, SnapshotEncoder } from "../../src/engine/shell/shared-snapshot.js";
import { ALL_ACCESS } from "../../src/vfs/access.js";
import { makeFile, type SiteFile } from "../../src/vfs/site-file.js";
import { SiteView } from "../../src/vfs/view.js";

const TEXTS = [
  "# Checkout — the “guest” way\n\nGuests pay at checkout.\n",
  "# Cart — totals\n\nNo payment here – only the cart.\n",
  "# Stock — the \u212aelvin checkout\n\nA wide K: CHEC\u212aOUT.\n",
  "# Long s — \u017ftock levels\n\nThe \u017ftock is low — reorder.\n",
  "# Plain checkout — ASCII\n\nbase URL: /api\n",
  "# 快速开始 checkout\n\n结账 — base URL\n",
  "# Emoji 🚀 — launch\n\nCheck-out (soon) at base URL.\n",
];
const FILES: SiteFile[] = TEXTS.map((text, i) => makeFile(`/docs/p${i}.mdx`, text, {}, new Date(Date.UTC(2030, 0, 1 + i))));

/** A shell over `files`, as a worker builds one. */
function shellOver(files: readonly SiteFile[]): DocsShell {
  const view = new SiteView({ files: new Map(files.map((f) => [f.path, f])), pages: new Map() }, ALL_ACCESS, "public");
  return new DocsShell(view, SHELL_COMMANDS.map((make) => make(view)), undefined, false);
}

/** The snapshot's files, each counting how often its text is read. */
function countedSnapshotFiles(): { files: SiteFile[]; reads: () => number } {
  let reads = 0;
  const decoded = decodeSnapshot(new SnapshotEncoder().encode(FILES).snapshot);
  const files = decoded.map((f) => {
    const counted = Object.create(f) as SiteFile;
    Object.defineProperty(counted, "text", {
      get: () => {
        reads++;
        return f.text;
      },
    });
    return counted;
  });
  return { files, reads: () => reads };
}

const COMMANDS = [
  "rg -il checkout /",
  "rg -l checkout /",
  "rg -il stock /",
  "rg -L -i checkout /",
  "rg -c checkout /",
  "rg -c --include-zero -i checkout /",
  "rg -i -e cart -e 'base URL' -l /",
  "rg -il 'check-out' /",
  "rg -iq stock / && echo found",
  "rg -i checkout /",
  "rg -il 'check.ut' /",
  "rg -ilw checkout /",
  "grep -ril checkout /",
  "grep -rL -i checkout /",
  "grep -rc 'base URL' /",
  "grep -rli stock /",
  "grep -rqi kelvin / && echo found",
  "grep -rn checkout /",
  "grep -rlF 'Check-out (soon)' /",
  "grep -rlv checkout /",
];

describe("rg and grep over texts held as UTF-8 bytes", () => {
  it("print what they print over the decoded texts", async () => {
    const plain = shellOver(FILES);
    const shared = shellOver(countedSnapshotFiles().files);
    for (const command of COMMANDS) {
      expect({ command, ...(await shared.run(command)) }).toEqual({ command, ...(await plain.run(command)) });
    }
  });

  it("read no text for -l, -L or -q with a literal, nor a text without a match", async () => {
    const { files, reads } = countedSnapshotFiles();
    const shell = shellOver(files);
    expect((await shell.run("rg -il url /")).stdout).toBe("/docs/p4.mdx\n/docs/p5.mdx\n/docs/p6.mdx\n");
    expect((await shell.run("grep -rlF 'base URL' /")).stdout).toBe("/docs/p4.mdx\n/docs/p5.mdx\n/docs/p6.mdx\n");
    expect((await shell.run("grep -rL 'base URL' /")).stdout).toBe("/docs/p0.mdx\n/docs/p1.mdx\n/docs/p2.mdx\n/docs/p3.mdx\n");
    expect(reads()).toBe(0);
    // p2 and p3 hold a KELVIN SIGN and a LONG S, which ignoring case match k and s: read for a
    // pattern with a k or an s, unless their bytes match it anyway: p2 holds "Stock" in ASCII
    // (issue 22: a file its bytes match is not scanned for those characters), p3 only "ſtock".
    expect((await shell.run("rg -il stock /")).stdout).toBe("/docs/p2.mdx\n/docs/p3.mdx\n");
    expect(reads()).toBe(1);
    // GNU grep's -i does not match the KELVIN SIGN with k (its pattern comes as `[kK]`, without the
    // `i` flag): p3, with a LONG S, is read; p2 again matches from its bytes.
    expect((await shell.run("grep -rli stock /")).stdout).toBe("/docs/p2.mdx\n/docs/p3.mdx\n");
    expect(reads()).toBe(2);
    // Lines printed: only the files with a match are read.
    expect((await shell.run("rg 'base URL' /")).stdout).toBe("/docs/p4.mdx:base URL: /api\n/docs/p5.mdx:结账 — base URL\n/docs/p6.mdx:Check-out (soon) at base URL.\n");
    expect(reads()).toBe(5);
  });

  it("tell a match from the bytes only for ASCII literals in UTF-8", () => {
    const [utf8] = decodeSnapshot(new SnapshotEncoder().encode([FILES[0] as SiteFile]).snapshot);
    const [latin1] = decodeSnapshot(new SnapshotEncoder().encode([makeFile("/a.mdx", "Café checkout\n", {}, new Date(0))]).snapshot);
    const regex = (pattern: string, ignoreCase = true) => compilePatterns([pattern], { dialect: "rust", ignoreCase, word: false, line: false }).regex;
    expect(literalHitInBytes(utf8?.stored, regex("checkout"))).toBe(true);
    expect(literalHitInBytes(utf8?.stored, regex("CHECKOUT", false))).toBe(false);
    expect(literalHitInBytes(utf8?.stored, regex("pay at"))).toBe(true);
    expect(literalHitInBytes(utf8?.stored, regex("cart|guest"))).toBe(true);
    // Not literals: classes, any character, a word boundary, a look-around.
    for (const pattern of ["check\\w+", "check.ut", "\\bcheckout", "che[ck]+out"]) expect(literalHitInBytes(utf8?.stored, regex(pattern))).toBeUndefined();
    expect(literalHitInBytes(utf8?.stored, /(?=checkout)/giu)).toBeUndefined();
    // A Latin-1 text decodes by a copy: searched as before.
    expect(latin1?.stored?.encoding).toBe("latin1");
    expect(literalHitInBytes(latin1?.stored, regex("checkout"))).toBeUndefined();
    expect(literalHitInBytes(undefined, regex("checkout"))).toBeUndefined();
  });
});
