/**
 * Issue 25, adversary round 26: tr works on bytes, as GNU tr 9.1 does in C.UTF-8: its input and
 * its sets are bytes, a character outside ASCII in a set is its UTF-8 bytes (`tr é e` turns `é`
 * into `ee`, `tr 😀 x` writes four x) and a byte escape is that byte (`tr -d '\303'` takes half of
 * an `é` away); what it writes is bytes, shown here in hex as bash wrote them (the call's output
 * reads them as WHATWG's decoder does). Each row was recorded from GNU bash 5.2.15 and coreutils
 * 9.1 (`bash --norc -c COMMAND` in `C.UTF-8`): the command, its stdout and stderr bytes in hex,
 * its status. Before: 11 of these 30 rows held (just-bash's tr read characters).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

/** [command, stdout bytes (hex), stderr bytes (hex), exit status], as bash 5.2 and GNU tr gave them. */
const RECORDED: ReadonlyArray<readonly [string, string, string, number]> = [
  ["echo 'a😀b' | tr '😀' 'x' | od -An -tx1", "2036312037382037382037382037382036322030610a", "", 0],
  ["echo 'a😀b' | tr -d '😀' | od -An -tx1", "2036312036322030610a", "", 0],
  ["echo 'a😀b' | tr 'a' '😀' | od -An -tx1", "2066302066302039662039382038302036322030610a", "", 0],
  ["echo 'a😀b😁' | tr '😀😁' 'xy' | od -An -tx1", "2036312037392037392037392037392036322037392037392037392037392030610a", "", 0],
  ["echo 'aéb' | tr 'é' 'e' | od -An -tx1", "2036312036352036352036322030610a", "", 0],
  ["echo 'aéb' | tr -d 'é' | od -An -tx1", "2036312036322030610a", "", 0],
  ["echo 'aéb' | tr -d '\\303' | od -An -tx1", "2036312061392036322030610a", "", 0],
  ["echo 'a😀😀b' | tr -s '😀' | od -An -tx1", "2036312066302039662039382038302066302039662039382038302036322030610a", "", 0],
  ["echo 'a😀b' | tr -c 'a' 'x' | od -An -tx1", "2036312037382037382037382037382037382037380a", "", 0],
  ["echo 'a😀b' | tr -dc 'a' | od -An -tx1", "2036310a", "", 0],
  ["echo 'a😀b' | tr -cd '😀' | od -An -tx1", "2066302039662039382038300a", "", 0],
  ["echo 'héllo' | tr 'a-z' 'A-Z' | od -An -tx1", "2034382063332061392034632034632034662030610a", "", 0],
  ["echo 'héllo wörld' | tr '[:lower:]' '[:upper:]' | od -An -tx1", "2034382063332061392034632034632034662032302035372063332062362035322034632034342030610a", "", 0],
  ["echo 'héllo' | tr -d '[:alpha:]' | od -An -tx1", "2063332061392030610a", "", 0],
  ["echo 'a😀b' | tr '😀' 'xyzw' | od -An -tx1", "2036312037382037392037612037372036322030610a", "", 0],
  ["echo 'a😀b' | tr 'ab' '😀' | od -An -tx1", "2066302066302039662039382038302039662030610a", "", 0],
  ["echo 'é😀' | tr '\\200-\\277' '_' | od -An -tx1", "2063332035662066302035662035662035662030610a", "", 0],
  ["echo 'a😀b' | tr -s 'a😀b' | od -An -tx1", "2036312066302039662039382038302036322030610a", "", 0],
  ["echo 'aéb' | tr 'é' 'xy' | od -An -tx1", "2036312037382037392036322030610a", "", 0],
  ["echo 'aéb' | tr 'é' 'x'", "617878620a", "", 0],
  ["echo 'a😀b' | tr '😀' 'x'", "6178787878620a", "", 0],
  ["echo 'a😀b' | tr -d '😀'", "61620a", "", 0],
  ["echo 'ééé' | tr -s 'é'", "c3a9c3a9c3a90a", "", 0],
  ["echo 'abc' | tr 'abc' 'é😀x' | od -An -tx1", "2063332061392066302030610a", "", 0],
  ["printf 'h\\303\\251\\377\\n' | tr -d '\\303' | od -An -tx1", "2036382061392066662030610a", "", 0],
  ["echo é | tr é e", "65650a", "", 0],
  ["echo 'aéb' | tr -s 'é' | od -An -tx1", "2036312063332061392036322030610a", "", 0],
  ["echo 'éa' | tr 'a-z' '\\303' | od -An -tx1", "2063332061392063332030610a", "", 0],
  ["printf 'a\\303\\251\\n' | tr '\\251' '\\250'", "61c3a80a", "", 0],
  ["echo '€' | tr -d '\\202'", "e2ac0a", "", 0],
];

const decoder = new TextDecoder();
const shown = (hex: string): string => decoder.decode(Buffer.from(hex, "hex"));

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

describe("tr on bytes (recorded from GNU tr 9.1)", () => {
  it.each(RECORDED)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout: shown(stdout), stderr: shown(stderr), exitCode, truncated: false });
  });
});
