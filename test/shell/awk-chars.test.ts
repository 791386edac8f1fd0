/**
 * Issue 25 (adversary, F1): awk's substr, index and match count characters as gawk does in a
 * UTF-8 locale, a character outside the BMP (an emoji) one (docs/shell.md). Each row was recorded
 * from GNU awk 5.2.1 (`bash --norc -c COMMAND` in `C.UTF-8`); none held before (UTF-16 units).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

/** [command, stdout, stderr, exit status], as gawk 5.2 gave them. */
const RECORDED: ReadonlyArray<readonly [string, string, string, number]> = [
  ["echo 😀x | awk '{print length($0), substr($0,2,1), index($0,\"x\")}'", "2 x 2\n", "", 0],
  ["echo 😀x | awk '{print match($0,/x/), RSTART, RLENGTH}'", "2 2 1\n", "", 0],
  ["echo 😀x | awk '{print substr($0,1,1)}'", "😀\n", "", 0],
  ["echo 😀x | awk '{print substr($0,2)}'", "x\n", "", 0],
  ["echo 😀é😀 | awk '{print length(), substr($0,2,2)}'", "3 é😀\n", "", 0],
  ["echo x😀😀y | awk '{print match($0,/😀+/), RSTART, RLENGTH, index($0,\"y\")}'", "2 2 2 4\n", "", 0],];

/**
 * Issue 25, adversary round 26: sub, gsub and gensub over characters outside ASCII, printf's `%s`
 * width and precision, and FS = "" (`-F ''`, `-v FS=`). gawk 5.2 in C.UTF-8 steps an empty match
 * on by a byte: where its regex then searches byte by byte (a pattern of literal characters, `.`,
 * plain lists and anchors), an empty match meets each byte of the character and the replacement
 * splits it (`gsub(//, "-")` on `😀` writes its four bytes apart, shown here through od); where it
 * does not (a class, a range, a negated list, IGNORECASE) the character stays whole. Before: 45 of
 * these 77 rows held (lone surrogates, `%.1s` half an emoji, `-F ''` one field, `gsub(/x*\/, "-")`
 * on `axb` gave `-a--b-`).
 */
const ROUND_26: ReadonlyArray<readonly [string, string, string, number]> = [
  ["echo '😀a😀b' | awk '{gsub(/a/, \"X\"); print}'", "😀X😀b\n", "", 0],
  ["echo '😀a😀b' | awk '{n=gsub(//, \"-\"); print n, $0}' | od -An -tx1", " 31 31 20 2d f0 2d 9f 2d 98 2d 80 2d 61 2d f0 2d\n 9f 2d 98 2d 80 2d 62 2d 0a\n", "", 0],
  ["echo '😀😀' | awk '{gsub(/./, \"<&>\"); print}'", "<😀><😀>\n", "", 0],
  ["echo '😀x😀' | awk '{sub(/x/, \"y\"); print}'", "😀y😀\n", "", 0],
  ["echo 'a😀b' | awk '{sub(/./, \"Z\"); print}'", "Z😀b\n", "", 0],
  ["echo '😀b' | awk '{sub(/^./, \"Z\"); print}'", "Zb\n", "", 0],
  ["echo '😀x' | awk '{print substr($0, 1, 1)}'", "😀\n", "", 0],
  ["echo '😀x😀y' | awk '{print substr($0, 3)}'", "😀y\n", "", 0],
  ["echo '😀x😀y' | awk '{print index($0, \"y\"), index($0, \"😀y\")}'", "4 3\n", "", 0],
  ["echo '😀x😀y' | awk '{print match($0, /y/), RSTART, RLENGTH}'", "4 4 1\n", "", 0],
  ["echo '😀x😀y' | awk '{print match($0, /😀y/), RSTART, RLENGTH}'", "3 3 2\n", "", 0],
  ["echo '😀x😀y' | awk '{print length($0), length()}'", "4 4\n", "", 0],
  ["echo '😀x' | awk '{printf \"%.1s|\\n\", $0}'", "😀|\n", "", 0],
  ["echo '😀x' | awk '{printf \"%5s|\\n\", $0}'", "   😀x|\n", "", 0],
  ["echo '😀x' | awk '{printf \"%-4.1s|\\n\", $0}'", "😀   |\n", "", 0],
  ["echo '😀x😀' | awk -F '' '{print NF; for(i=1;i<=NF;i++) print $i}'", "3\n😀\nx\n😀\n", "", 0],
  ["echo '😀x😀' | awk '{n=split($0, a, \"\"); print n, a[1], a[3]}'", "3 😀 😀\n", "", 0],
  ["echo '😀x😀' | awk 'BEGIN{FS=\"\"}{print NF, $1}'", "3 😀\n", "", 0],
  ["echo '😀x😀' | awk '{gsub(/x*/, \"-\"); print}' | od -An -tx1", " 2d f0 2d 9f 2d 98 2d 80 2d f0 2d 9f 2d 98 2d 80\n 2d 0a\n", "", 0],
  ["echo '😀x😀' | awk '{print toupper($0)}'", "😀X😀\n", "", 0],
  ["awk 'BEGIN{s=\"😀😀\"; gsub(/😀/, \"a\", s); print s}'", "aa\n", "", 0],
  ["awk 'BEGIN{s=\"a😀b\"; print substr(s, 2, 1) \"|\" substr(s, 0, 2)}'", "😀|a😀\n", "", 0],
  ["echo '😀x😀' | awk '{print gensub(/./, \"[&]\", \"g\")}'", "[😀][x][😀]\n", "", 0],
  ["echo '😀x😀' | awk '{print gensub(/./, \"[&]\", 2)}'", "😀[x]😀\n", "", 0],
  ["echo '😀 x 😀' | awk '{print $1, $3, NF}'", "😀 😀 3\n", "", 0],
  ["echo '😀' | awk '{printf \"%c|\\n\", $0}'", "😀|\n", "", 0],
  ["awk 'BEGIN{printf \"%c|\\n\", 128512}'", "😀|\n", "", 0],
  ["echo 'é😀' | awk '{printf \"%.2s|%3s|\\n\", $0, \"😀\"}'", "é😀|  😀|\n", "", 0],
  ["echo '😀a😀' | awk -F a '{print $2 $1}'", "😀😀\n", "", 0],
  ["echo '😀a😀' | awk -F '😀' '{print NF}'", "3\n", "", 0],
  ["echo '😀x' | awk '{print substr($0, 2, 1)}'", "x\n", "", 0],
  ["echo '𝔘x𝔘' | awk '{gsub(/[^x]/, \"_\"); print}'", "_x_\n", "", 0],
  ["echo '😀x😀' | awk '{gsub(/[😀]/, \"_\"); print}'", "_x_\n", "", 0],
  ["echo '😀x😀' | awk '{gsub(/😀+/, \"_\"); print}'", "_x_\n", "", 0],
  ["echo '😀😀😀' | awk '{gsub(/😀{2}/, \"_\"); print}'", "_😀\n", "", 0],
  ["echo '😀x😀' | awk '{print split($0, a, /x/), a[1], a[2]}'", "2 😀 😀\n", "", 0],
  ["echo 'x😀y' | awk '{sub(\"\", \"-\"); print}'", "-x😀y\n", "", 0],
  ["echo axbx | awk '{print gensub(/x*/,\"<&>\",1)}'", "<>axbx\n", "", 0],
  ["echo axbx | awk '{print gensub(/x*/,\"<&>\",2)}'", "a<x>bx\n", "", 0],
  ["echo axbx | awk '{print gensub(/x*/,\"<&>\",3)}'", "ax<>bx\n", "", 0],
  ["echo axbx | awk '{print gensub(/x*/,\"<&>\",4)}'", "axb<x>\n", "", 0],
  ["echo axbx | awk '{print gensub(/x*/,\"<&>\",\"g\")}'", "<>a<x>b<x>\n", "", 0],
  ["echo axbx | awk '{gsub(/x*/,\"<&>\")}1'", "<>a<x>b<x>\n", "", 0],
  ["echo axbx | awk '{sub(/x*/,\"<&>\")}1'", "<>axbx\n", "", 0],
  ["echo xab | awk '{sub(/x*/,\"<&>\")}1'", "<x>ab\n", "", 0],
  ["echo 'éx😀' | awk '{print gensub(//,\"-\",1)}'", "-éx😀\n", "", 0],
  ["echo 'éx😀' | awk '{print gensub(//,\"-\",2)}' | od -An -tx1", " c3 2d a9 78 f0 9f 98 80 0a\n", "", 0],
  ["echo 'éx😀' | awk '{print gensub(//,\"-\",5)}' | od -An -tx1", " c3 a9 78 f0 2d 9f 98 80 0a\n", "", 0],
  ["echo 'éx😀' | awk '{print gensub(//,\"-\",6)}' | od -An -tx1", " c3 a9 78 f0 9f 2d 98 80 0a\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/[a-z]*/, \"-\"); print n, $0}'", "2 -é-\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/[abc]*/, \"-\"); print n, $0}' | od -An -tx1", " 33 20 2d c3 2d a9 2d 0a\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/[[:digit:]]*/, \"-\"); print n, $0}'", "2 -é-\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/a|/, \"-\"); print n, $0}' | od -An -tx1", " 33 20 2d c3 2d a9 2d 0a\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/(a)*/, \"-\"); print n, $0}' | od -An -tx1", " 33 20 2d c3 2d a9 2d 0a\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/a{0,2}/, \"-\"); print n, $0}' | od -An -tx1", " 33 20 2d c3 2d a9 2d 0a\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/.*/, \"-\"); print n, $0}'", "1 -\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/^a*/, \"-\"); print n, $0}'", "1 -é\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/a*$/, \"-\"); print n, $0}'", "1 é-\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/é*/, \"-\"); print n, $0}'", "1 -\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/[é]*/, \"-\"); print n, $0}'", "1 -\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/[^é]?/, \"-\"); print n, $0}'", "2 -é-\n", "", 0],
  ["echo 'é' | awk '{n=gsub(/é?b?/, \"-\"); print n, $0}'", "1 -\n", "", 0],
  ["echo 'é' | awk -v IGNORECASE=1 '{n=gsub(/a*/, \"-\"); print n, $0}'", "2 -é-\n", "", 0],
  ["echo 'x😀' | awk '{n=gsub(/x?/, \"-\"); print n, $0}' | od -An -tx1", " 35 20 2d f0 2d 9f 2d 98 2d 80 2d 0a\n", "", 0],
  ["echo '😀x' | awk '{n=gsub(/[^x]?/, \"-\"); print n, $0}'", "2 -x-\n", "", 0],
  ["echo '😀' | awk '{n=gsub(/[[:alpha:]]*/, \"-\"); print n, $0}'", "2 -😀-\n", "", 0],
  ["echo 'éa😀b€' | awk '{print gensub(/x*/, \"-\", \"g\")}' | od -An -tx1", " 2d c3 2d a9 2d 61 2d f0 2d 9f 2d 98 2d 80 2d 62\n 2d e2 2d 82 2d ac 2d 0a\n", "", 0],
  ["echo 'aé' | awk '{n=gsub(/[a]*/, \"-\"); print n, $0}' | od -An -tx1", " 33 20 2d c3 2d a9 2d 0a\n", "", 0],
  ["echo 'éa😀b' | awk '{n=gsub(//, \"-\"); print n, $0}' | od -An -tx1", " 39 20 2d c3 2d a9 2d 61 2d f0 2d 9f 2d 98 2d 80\n 2d 62 2d 0a\n", "", 0],
  ["echo abc | awk -F '' '{print NF, $2}'", "3 b\n", "", 0],
  ["echo abc | awk 'BEGIN{FS=\"\"}{print NF, $2}'", "3 b\n", "", 0],
  ["echo abc | awk -v FS= '{print NF, $2}'", "3 b\n", "", 0],
  ["echo axb | awk '{gsub(/x*/,\"-\")}1'", "-a-b-\n", "", 0],
  ["echo abc | awk '{gsub(//,\"-\")}1'", "-a-b-c-\n", "", 0],
  ["echo 'xa' | awk '{print gensub(/x?/,\"-\",\"g\")}'", "-a-\n", "", 0],
  ["echo aaa | awk '{print gensub(/a*/,\"<&>\",2)}'", "aaa<>\n", "", 0],
  ["awk 'BEGIN{printf \"\\303\"}' | od -An -tx1", " c3\n", "", 0],
];

let repo: { dir: string; cleanup: () => void };
let shell: Shell;
let runtime: DocsRuntime;
beforeAll(async () => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "T", navigation: { groups: [{ group: "S", pages: ["index"] }] } }), "index.mdx": "---\ntitle: Home\n---\n\nok\n" });
  runtime = await DocsRuntime.load({ root: repo.dir });
  shell = runtime.readerState(localContext()).shell;
});
afterAll(async () => {
  await runtime.close();
  repo.cleanup();
});

describe("awk's substr, index and match in characters (recorded from gawk 5.2)", () => {
  it.each(RECORDED)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });

  it.each(ROUND_26)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });
});
