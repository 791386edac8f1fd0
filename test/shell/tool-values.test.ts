/**
 * Issue 25, the open findings after adversary round 24 (F4): values and errors of tr, jq, seq
 * and read as the real tools give them. Each row was recorded from GNU bash 5.2.15, coreutils 9.1
 * and jq 1.6 (the versions installed beside each other here: `bash --norc -c COMMAND` in C.UTF-8):
 * the command, its stdout, its stderr, its status.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

type Row = readonly [string, string, string, number];

/** tr: a range whose end comes before its start is GNU's error, also when an escape past \377 made the end (before: 7 of the 17 rows held; just-bash ignored the range, exit 0). */
const TR: readonly Row[] = [
  ["echo abc | tr z-a x", "", "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n", 1],
  ["echo abc | tr '\\377-a' x", "", "tr: range-endpoints of '\\377-a' are in reverse collating sequence order\n", 1],
  ["echo abc | tr 'a-\\001' x", "", "tr: range-endpoints of 'a-\\001' are in reverse collating sequence order\n", 1],
  ["echo abc | tr -d 'c-a'", "", "tr: range-endpoints of 'c-a' are in reverse collating sequence order\n", 1],
  ["echo abc | tr 'x' 'c-a'", "", "tr: range-endpoints of 'c-a' are in reverse collating sequence order\n", 1],
  ["echo abc | tr '\\\\-!' x", "", "tr: range-endpoints of '\\-!' are in reverse collating sequence order\n", 1],
  ["echo abc | tr 'é-a' x", "", "tr: range-endpoints of '\\251-a' are in reverse collating sequence order\n", 1],
  ["echo abc | tr \"'-!\" x", "", "tr: range-endpoints of ''-!' are in reverse collating sequence order\n", 1],
  ["echo abc | tr 'a-\\777' x", "", "tr: warning: the ambiguous octal escape \\777 is being\n\tinterpreted as the 2-byte sequence \\077, 7\ntr: range-endpoints of 'a-?' are in reverse collating sequence order\n", 1],
  ["echo abc | tr 'a-\\400' x", "", "tr: warning: the ambiguous octal escape \\400 is being\n\tinterpreted as the 2-byte sequence \\040, 0\ntr: range-endpoints of 'a- ' are in reverse collating sequence order\n", 1],
  ["echo abc | tr '\\400-a' x", "xbc\n", "tr: warning: the ambiguous octal escape \\400 is being\n\tinterpreted as the 2-byte sequence \\040, 0\n", 0],
  ["echo abc | tr 'a-c' 'x-z'", "xyz\n", "", 0],
  ["echo abc | tr 'a\\-c' x", "xbx\n", "", 0],
  ["echo abc | tr -- '-ca' x", "xbx\n", "", 0],
  ["echo abc | tr 'ca-' x", "xbx\n", "", 0],
  ["echo abc | tr -d 'a-a'", "bc\n", "", 0],
  ["echo abc | tr '\\141-\\143' X", "XXX\n", "", 0],
];

/** jq: a number's text as jq 1.6 writes it (1e+20, 1e-07, -0, an infinity as the largest double), and a filter starting with `-` that is no option (before: none of the 15 rows held). */
const JQ: readonly Row[] = [
  ["jq -n '1e1000'", "1E+1000\n", "", 0],
  ["jq -n '-1e1000'", "-1E+1000\n", "", 0],
  ["jq -n '1e20'", "1E+20\n", "", 0],
  ["jq -n '1e-7'", "1E-7\n", "", 0],
  ["jq -n '100000000000000000000'", "100000000000000000000\n", "", 0],
  ["jq -n '-0'", "0\n", "", 0],
  ["jq -nc '[1e1000, 1e17, 1e16, 123456789012345678, 1.5e300, 0.00001, 1e-5, 3.0, -0.0]'", "[1E+1000,1E+17,1E+16,123456789012345678,1.5E+300,0.00001,0.00001,3.0,0.0]\n", "", 0],
  ["echo '1e1000 100000000000000000000 1e-7 -0 0.1 1E2' | jq -c .", "1E+1000\n100000000000000000000\n1E-7\n-0\n0.1\n1E+2\n", "", 0],
  ["jq -n '1e19, 1e17, 12345678901234567890, 1.0e2, 5e-324'", "1E+19\n1E+17\n12345678901234567890\n1.0E+2\n5E-324\n", "", 0],
  ["jq -nc '[0.1, 100, 1.5, 123.456, 1e15, 1e16, 0.0001, 0.00001, 1e-100, 12345e-2, 3.14159e5, 1e300, 2.5e-5, 123456789012, 1e15+0.5, -1.5e-7]'", "[0.1,100,1.5,123.456,1E+15,1E+16,0.0001,0.00001,1E-100,123.45,314159,1E+300,0.000025,123456789012,1000000000000000.5,-1.5E-7]\n", "", 0],
  ["jq -n '1e20|tostring, tojson, \"\\(1e-7)\", (-0|tostring), ([1e17]|tojson), (nan|tostring), (infinite|tostring)'", "\"1E+20\"\n\"1E+20\"\n\"1E-7\"\n\"0\"\n\"[1E+17]\"\n\"null\"\n\"1.7976931348623157e+308\"\n", "", 0],
  ["jq -n '-1 + 3'", "2\n", "", 0],
  ["jq -n '-1' -c", "-1\n", "", 0],
  ["jq -nr '1e20, -0'", "1E+20\n0\n", "", 0],
  ["echo '{\"a\":1e20}' | jq '.a'", "1E+20\n", "", 0],
];

/** seq -f FORMAT (just-bash had no -f: `invalid floating point argument: '-f'`): GNU's formats, its checks of FORMAT and its messages (before: none of the 63 rows held). */
const SEQ: readonly Row[] = [
  ["seq -f %g 1 3", "1\n2\n3\n", "", 0],
  ["seq -f %e 1 2", "1.000000e+00\n2.000000e+00\n", "", 0],
  ["seq -f %f 0.5 1", "0.500000\n", "", 0],
  ["seq -f %.3f 1 0.5 2", "1.000\n1.500\n2.000\n", "", 0],
  ["seq -f 'x%03gy' 1 3", "x001y\nx002y\nx003y\n", "", 0],
  ["seq -f %x 1 2", "", "seq: format ‘%x’ has unknown %x directive\n", 1],
  ["seq -f '%g %g' 1 2", "", "seq: format ‘%g %g’ has too many % directives\n", 1],
  ["seq -f abc 1 2", "", "seq: format ‘abc’ has no % directive\n", 1],
  ["seq -f '%%' 1 2", "", "seq: format ‘%%’ has no % directive\n", 1],
  ["seq -f '%5.2e' 10 10", "1.00e+01\n", "", 0],
  ["seq -f %E 1 1", "1.000000E+00\n", "", 0],
  ["seq -f %G 100000000 100000000", "1E+08\n", "", 0],
  ["seq -f %a 1 1", "0x8p-3\n", "", 0],
  ["seq -f '%-5gx' 1 1", "1    x\n", "", 0],
  ["seq -f '%+g' 1 1", "+1\n", "", 0],
  ["seq -f '%#g' 1 1", "1.00000\n", "", 0],
  ["seq -f '%d' 1 1", "", "seq: format ‘%d’ has unknown %d directive\n", 1],
  ["seq -f '%s' 1 1", "", "seq: format ‘%s’ has unknown %s directive\n", 1],
  ["seq -f '%' 1 1", "", "seq: format ‘%’ ends in %\n", 1],
  ["seq -f '%.g' 1.5 1.5", "2\n", "", 0],
  ["seq -w -f %g 1 2", "", "seq: format string may not be specified when printing equal width strings\nTry 'seq --help' for more information.\n", 1],
  ["seq -f %g abc", "", "seq: invalid floating point argument: ‘abc’\nTry 'seq --help' for more information.\n", 1],
  ["seq -f %g 1 x 3", "", "seq: invalid floating point argument: ‘x’\nTry 'seq --help' for more information.\n", 1],
  ["seq -f", "", "seq: option requires an argument -- 'f'\nTry 'seq --help' for more information.\n", 1],
  ["seq -f %g", "", "seq: missing operand\nTry 'seq --help' for more information.\n", 1],
  ["seq --format=%.2f 1 2", "1.00\n2.00\n", "", 0],
  ["seq -f%g 2 3", "2\n3\n", "", 0],
  ["seq -s, -f %g 1 3", "1,2,3\n", "", 0],
  ["seq -f %g 0 0.1 1", "0\n0.1\n0.2\n0.3\n0.4\n0.5\n0.6\n0.7\n0.8\n0.9\n1\n", "", 0],
  ["seq -f %.1f 1 -0.5 0", "1.0\n0.5\n0.0\n", "", 0],
  ["seq -f '%Lg' 1 2", "1\n2\n", "", 0],
  ["seq -f '%10.3e|' 1 1", " 1.000e+00|\n", "", 0],
  ["seq -f '%-10.3E|' 1 1", "1.000E+00 |\n", "", 0],
  ["seq -f '%.0f' 0.5 1 3.5", "0\n2\n2\n4\n", "", 0],
  ["seq -f '%05.1f' -1 1 1", "-01.0\n000.0\n001.0\n", "", 0],
  ["seq -f %g 1e6 1e6", "1e+06\n", "", 0],
  ["seq -f %g 0", "", "", 0],
  ["seq -f %F 1 1", "1.000000\n", "", 0],
  ["seq -f '%i' 1 1", "", "seq: format ‘%i’ has unknown %i directive\n", 1],
  ["seq -f '%g%%' 1 1", "1%\n", "", 0],
  ["seq -f '%%%g' 1 1", "%1\n", "", 0],
  ["seq -f '% g' 1 1", " 1\n", "", 0],
  ["seq -f %A 1 1", "0X8P-3\n", "", 0],
  ["seq -f %.2a 1 1", "0x8.00p-3\n", "", 0],
  ["seq -f %g 1 0", "", "", 0],
  ["seq -f %g 1 0 3", "", "seq: invalid Zero increment value: ‘0’\nTry 'seq --help' for more information.\n", 1],
  ["seq -f %e 123456.789 123456.789", "1.234568e+05\n", "", 0],
  ["seq -f %g 0.0001 0.0001", "0.0001\n", "", 0],
  ["seq -f %g 0.00001 0.00001", "1e-05\n", "", 0],
  ["seq -f %.10g 1e15 1e15", "1e+15\n", "", 0],
  ["seq -f %#g 1 1", "1.00000\n", "", 0],
  ["seq -f %#.0f 1 1", "1.\n", "", 0],
  ["seq -f %g -0 -0", "-0\n", "", 0],
  ["seq -f %.3g 1 0.25 2", "1\n1.25\n1.5\n1.75\n2\n", "", 0],
  ["seq -f %08.3e -2 -2", "-2.000e+00\n", "", 0],
  ["seq -f %G 1e-10 1e-10", "1E-10\n", "", 0],
  ["seq -f %g 3 1", "", "", 0],
  ["seq -s: -f %.1f 1 3", "1.0:2.0:3.0\n", "", 0],
  ["seq -f 'n=%g' -s ' ' 1 4", "n=1 n=2 n=3 n=4\n", "", 0],
  ["seq -f %.2f 2.675 2.675", "2.67\n", "", 0],
  ["seq -f %.1f 0.25 0.25", "0.2\n", "", 0],
  ["seq -f %g 1 2 3 4", "", "seq: extra operand ‘4’\nTry 'seq --help' for more information.\n", 1],
  ["seq -w -f %g 1 2", "", "seq: format string may not be specified when printing equal width strings\nTry 'seq --help' for more information.\n", 1],
];

/** read -n/-N over bytes that are not UTF-8: a begun sequence is read while incomplete and the byte that breaks it is part of it, as bash's mbrtowc loop (before: 7 of the 14 rows held). */
const READ: readonly Row[] = [
  ["printf '\\303x' | { read -n 1 v; printf '%s' \"$v\" | od -An -tx1; }", " c3 78\n", "", 0],
  ["printf '\\303xy' | { read -n 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " c3 78 7c\n", "", 0],
  ["printf '\\303\\303\\251' | { read -n 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " c3 c3 7c\n", "", 0],
  ["printf '\\342\\202x' | { read -n 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " e2 82 78 7c\n", "", 0],
  ["printf '\\377x' | { read -n 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " ff 7c\n", "", 0],
  ["printf '\\200x' | { read -n 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " 80 7c\n", "", 0],
  ["printf 'a\\303xyz' | { read -n 2 v; printf '%s|' \"$v\" | od -An -tx1; }", " 61 c3 78 7c\n", "", 0],
  ["printf '\\303' | { read -n 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " c3 7c\n", "", 0],
  ["printf '\\360\\237\\230x' | { read -n 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " f0 9f 98 78 7c\n", "", 0],
  ["printf '\\303x' | { read -N 1 v; printf '%s|' \"$v\" | od -An -tx1; }", " c3 78 7c\n", "", 0],
  ["read -n 2 v <<< héllo; echo $v", "hé\n", "", 0],
  ["read -N 2 v <<< héllo; echo $v", "hé\n", "", 0],
  ["printf 'a\\\\bc' | { read -n 2 v; echo $v; }", "ab\n", "", 0],
  ["printf 'ab\\\\\\nc' | { read -n 3 v; echo $v; }", "abc\n", "", 0],
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

describe("tr's ranges (recorded from coreutils 9.1)", () => {
  it.each(TR)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });
});

describe("jq's numbers (recorded from jq 1.6)", () => {
  it.each(JQ)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });
});

describe("seq -f (recorded from coreutils 9.1)", () => {
  it.each(SEQ)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });
});

describe("read -n over bytes that are not UTF-8 (recorded from bash 5.2)", () => {
  it.each(READ)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });
});
