/**
 * Issue 25 (adversary F3): sed's numeric escapes (`\xHH`, `\oNNN`, `\dNNN`) and awk's in a regex
 * literal (`\ddd`, `\xHH`) are bytes, as docs/shell.md's "Bytes and text" says: in a regex, a
 * replacement, `y` and a/i/c text alike. A run that spells UTF-8 is its character (`s/^\xef\xbb\xbf//`
 * strips a byte order mark, `s/\xc3\xa9/e/` meets é); any other byte meets that byte of the input
 * and writes it (`s/x/\xff/` writes ff, not U+00FF's c3 bf). GNU sed and gawk replace them before
 * they read the regex, so what they make is raw regex text there (`\x2e` is `.`), and text in a
 * replacement (`\x26` is `&` itself). Each row was recorded from GNU sed 4.9 and gawk 5.2.1 under
 * bash 5.2.15 (`bash --norc -c COMMAND` in C.UTF-8): the command, its stdout and stderr bytes in
 * hex, its status; the rows without stderr also run as `{ COMMAND\n} 2>&1 | od -An -tx1`. Before
 * the fix 10 of these 92 rows held (sed wrote c3 bf for `\xff`, `y/x/\xff/` failed "unknown option
 * to `y'", awk's `/\357\273\277/` matched nothing). The last of STILL_UNLIKE was like GNU's before:
 * `[\xff]` was U+00FF then, which met no byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

/** [command, stdout bytes (hex), stderr bytes (hex), exit status], as bash 5.2 with GNU sed 4.9 gave them. */
const SED: ReadonlyArray<readonly [string, string, string, number]> = [
  ["printf '\\xef\\xbb\\xbfx\\n' | sed 's/^\\xef\\xbb\\xbf//'", "780a", "", 0],
  ["{ printf '\\xef\\xbb\\xbfx\\n' | sed 's/^\\xef\\xbb\\xbf//'\n} 2>&1 | od -An -tx1", "2037382030610a", "", 0],
  ["printf '\\xef\\xbb\\xbf# T\\n' | sed '1s/^\\xef\\xbb\\xbf//' | od -An -tx1", "2032332032302035342030610a", "", 0],
  ["{ printf '\\xef\\xbb\\xbf# T\\n' | sed '1s/^\\xef\\xbb\\xbf//' | od -An -tx1\n} 2>&1 | od -An -tx1", "2032302033322033332032302033322033302032302033352033342032302033302036312030610a", "", 0],
  ["printf '\\xef\\xbb\\xbfx\\n' | sed '/^\\xef\\xbb\\xbf/d'", "", "", 0],
  ["{ printf '\\xef\\xbb\\xbfx\\n' | sed '/^\\xef\\xbb\\xbf/d'\n} 2>&1 | od -An -tx1", "", "", 0],
  ["printf 'caf\\xc3\\xa9\\n' | sed 's/\\xc3\\xa9/e/'", "636166650a", "", 0],
  ["{ printf 'caf\\xc3\\xa9\\n' | sed 's/\\xc3\\xa9/e/'\n} 2>&1 | od -An -tx1", "2036332036312036362036352030610a", "", 0],
  ["printf 'caf\\xc3\\xa9\\n' | sed 's/\\o303\\o251/e/;s/f/\\d233/'", "6361e9650a", "", 0],
  ["{ printf 'caf\\xc3\\xa9\\n' | sed 's/\\o303\\o251/e/;s/f/\\d233/'\n} 2>&1 | od -An -tx1", "2036332036312065392036352030610a", "", 0],
  ["printf 'a\\xffb\\n' | sed 's/\\xff/X/'", "6158620a", "", 0],
  ["{ printf 'a\\xffb\\n' | sed 's/\\xff/X/'\n} 2>&1 | od -An -tx1", "2036312035382036322030610a", "", 0],
  ["printf 'a\\xff\\xfeb\\n' | sed 's/\\xff\\xfe/X/'", "6158620a", "", 0],
  ["{ printf 'a\\xff\\xfeb\\n' | sed 's/\\xff\\xfe/X/'\n} 2>&1 | od -An -tx1", "2036312035382036322030610a", "", 0],
  ["printf 'a\\xff\\xfeb\\n' | sed 's/\\xff*/X/g'", "586158fe5862580a", "", 0],
  ["{ printf 'a\\xff\\xfeb\\n' | sed 's/\\xff*/X/g'\n} 2>&1 | od -An -tx1", "2035382036312035382066652035382036322035382030610a", "", 0],
  ["printf 'a\\xc3\\xa9\\xc3\\xa9b\\n' | sed 's/\\xc3\\xa9*/X/g'", "58615862580a", "", 0],
  ["{ printf 'a\\xc3\\xa9\\xc3\\xa9b\\n' | sed 's/\\xc3\\xa9*/X/g'\n} 2>&1 | od -An -tx1", "2035382036312035382036322035382030610a", "", 0],
  ["printf 'a\\xc3\\xa9\\xc3\\xa9b\\n' | sed 's/\\xc3\\xa9\\{2\\}/X/g'", "6158620a", "", 0],
  ["{ printf 'a\\xc3\\xa9\\xc3\\xa9b\\n' | sed 's/\\xc3\\xa9\\{2\\}/X/g'\n} 2>&1 | od -An -tx1", "2036312035382036322030610a", "", 0],
  ["printf 'caf\\xc3\\xa9\\n' | sed 's/[\\xc3\\xa9]/X/g'", "636166580a", "", 0],
  ["{ printf 'caf\\xc3\\xa9\\n' | sed 's/[\\xc3\\xa9]/X/g'\n} 2>&1 | od -An -tx1", "2036332036312036362035382030610a", "", 0],
  ["printf 'a\\xffb\\n' | sed -n '/\\xff/p;\\,\\xff,p'", "61ff620a61ff620a", "", 0],
  ["{ printf 'a\\xffb\\n' | sed -n '/\\xff/p;\\,\\xff,p'\n} 2>&1 | od -An -tx1", "2036312066662036322030612036312066662036322030610a", "", 0],
  ["printf 'a\\xffb\\n' | sed 's/a\\xff/[&]/'", "5b61ff5d620a", "", 0],
  ["{ printf 'a\\xffb\\n' | sed 's/a\\xff/[&]/'\n} 2>&1 | od -An -tx1", "2035622036312066662035642036322030610a", "", 0],
  ["echo x | sed 's/x/\\xff/'", "ff0a", "", 0],
  ["{ echo x | sed 's/x/\\xff/'\n} 2>&1 | od -An -tx1", "2066662030610a", "", 0],
  ["echo a | sed 's/a/\\d233/'", "e90a", "", 0],
  ["{ echo a | sed 's/a/\\d233/'\n} 2>&1 | od -An -tx1", "2065392030610a", "", 0],
  ["echo a | sed 's/a/\\o351/'", "e90a", "", 0],
  ["{ echo a | sed 's/a/\\o351/'\n} 2>&1 | od -An -tx1", "2065392030610a", "", 0],
  ["echo ab | sed 's/a/\\xc3\\xa9/'", "c3a9620a", "", 0],
  ["{ echo ab | sed 's/a/\\xc3\\xa9/'\n} 2>&1 | od -An -tx1", "2063332061392036322030610a", "", 0],
  ["echo ab | sed 's/a/\\xc3/'", "c3620a", "", 0],
  ["{ echo ab | sed 's/a/\\xc3/'\n} 2>&1 | od -An -tx1", "2063332036322030610a", "", 0],
  ["echo ab | sed 's/a/\\xff\\xc3\\xa9/'", "ffc3a9620a", "", 0],
  ["{ echo ab | sed 's/a/\\xff\\xc3\\xa9/'\n} 2>&1 | od -An -tx1", "2066662063332061392036322030610a", "", 0],
  ["echo ab | sed 's/a/\\d300\\o400/'", "2c00620a", "", 0],
  ["{ echo ab | sed 's/a/\\d300\\o400/'\n} 2>&1 | od -An -tx1", "2032632030302036322030610a", "", 0],
  ["echo ab | sed 's/a/\\U\\xc3\\xa9x/'", "c38958620a", "", 0],
  ["{ echo ab | sed 's/a/\\U\\xc3\\xa9x/'\n} 2>&1 | od -An -tx1", "2063332038392035382036322030610a", "", 0],
  ["echo ab | sed 's/a/\\x26\\x5c/'", "265c620a", "", 0],
  ["{ echo ab | sed 's/a/\\x26\\x5c/'\n} 2>&1 | od -An -tx1", "2032362035632036322030610a", "", 0],
  ["echo x | sed 's/x/\\xc3/;s/$/\\xa9/;s/é/E/'", "450a", "", 0],
  ["{ echo x | sed 's/x/\\xc3/;s/$/\\xa9/;s/é/E/'\n} 2>&1 | od -An -tx1", "2034352030610a", "", 0],
  ["echo 'a.b' | sed 's/\\x2e/X/'", "582e620a", "", 0],
  ["{ echo 'a.b' | sed 's/\\x2e/X/'\n} 2>&1 | od -An -tx1", "2035382032652036322030610a", "", 0],
  ["echo 'a^b' | sed 's/\\x5e/X/'", "58615e620a", "", 0],
  ["{ echo 'a^b' | sed 's/\\x5e/X/'\n} 2>&1 | od -An -tx1", "2035382036312035652036322030610a", "", 0],
  ["echo 'a.b' | sed -E 's/\\x2e/X/'", "582e620a", "", 0],
  ["{ echo 'a.b' | sed -E 's/\\x2e/X/'\n} 2>&1 | od -An -tx1", "2035382032652036322030610a", "", 0],
  ["echo ab | sed 's/\\x5c(a\\x5c)/[\\1]/g'", "5b615d620a", "", 0],
  ["{ echo ab | sed 's/\\x5c(a\\x5c)/[\\1]/g'\n} 2>&1 | od -An -tx1", "2035622036312035642036322030610a", "", 0],
  ["echo 'a[b' | sed 's/a\\x5b/X/'", "", "7365643a202d652065787072657373696f6e2023312c20636861722031303a20496e76616c696420726567756c61722065787072657373696f6e0a", 1],
  ["echo x | sed 'y/x/\\xff/'", "ff0a", "", 0],
  ["{ echo x | sed 'y/x/\\xff/'\n} 2>&1 | od -An -tx1", "2066662030610a", "", 0],
  ["printf 'a\\xffb\\n' | sed 'y/\\xff/X/'", "6158620a", "", 0],
  ["{ printf 'a\\xffb\\n' | sed 'y/\\xff/X/'\n} 2>&1 | od -An -tx1", "2036312035382036322030610a", "", 0],
  ["printf 'a\\xc3\\xa9\\n' | sed 'y/\\xc3\\xa9a/eE/'", "45650a", "", 0],
  ["{ printf 'a\\xc3\\xa9\\n' | sed 'y/\\xc3\\xa9a/eE/'\n} 2>&1 | od -An -tx1", "2034352036352030610a", "", 0],
  ["echo ab | sed 'y/a/\\xc3\\xa9/'", "c3a9620a", "", 0],
  ["{ echo ab | sed 'y/a/\\xc3\\xa9/'\n} 2>&1 | od -An -tx1", "2063332061392036322030610a", "", 0],
  ["echo ab | sed 'y/ab/\\xc3\\xa9/'", "", "7365643a202d652065787072657373696f6e2023312c20636861722031343a20737472696e677320666f722060792720636f6d6d616e642061726520646966666572656e74206c656e677468730a", 1],
  ["echo ab | sed 'y/ab/\\t\\d300/'", "092c0a", "", 0],
  ["{ echo ab | sed 'y/ab/\\t\\d300/'\n} 2>&1 | od -An -tx1", "2030392032632030610a", "", 0],
  ["echo 'a(b' | sed 'y/a\\q(/x\\x5c\\//'", "782f620a", "", 0],
  ["{ echo 'a(b' | sed 'y/a\\q(/x\\x5c\\//'\n} 2>&1 | od -An -tx1", "2037382032662036322030610a", "", 0],
  ["echo z | sed 'a foo\\xc3\\xa9\\tbar\\d65'", "7a0a666f6fc3a909626172410a", "", 0],
  ["{ echo z | sed 'a foo\\xc3\\xa9\\tbar\\d65'\n} 2>&1 | od -An -tx1", "2037612030612036362036662036662063332061392030392036322036312037322034312030610a", "", 0],
  ["echo z | sed 'c foo\\xff\\cA\\q'", "666f6fff01710a", "", 0],
  ["{ echo z | sed 'c foo\\xff\\cA\\q'\n} 2>&1 | od -An -tx1", "2036362036662036662066662030312037312030610a", "", 0],
  ["echo z | sed 'i\\xff'", "7866660a7a0a", "", 0],
  ["{ echo z | sed 'i\\xff'\n} 2>&1 | od -An -tx1", "2037382036362036362030612037612030610a", "", 0],
];

/** The same for gawk 5.2.1's regex literals (its strings' escapes were bytes already). */
const AWK: ReadonlyArray<readonly [string, string, string, number]> = [
  ["printf '\\357\\273\\277abc\\n' | awk '{sub(/^\\357\\273\\277/,\"\")}1'", "6162630a", "", 0],
  ["{ printf '\\357\\273\\277abc\\n' | awk '{sub(/^\\357\\273\\277/,\"\")}1'\n} 2>&1 | od -An -tx1", "2036312036322036332030610a", "", 0],
  ["printf 'caf\\303\\251\\n' | awk '{gsub(/\\xc3\\xa9/,\"e\")}1'", "636166650a", "", 0],
  ["{ printf 'caf\\303\\251\\n' | awk '{gsub(/\\xc3\\xa9/,\"e\")}1'\n} 2>&1 | od -An -tx1", "2036332036312036362036352030610a", "", 0],
  ["printf 'caf\\303\\251\\303\\251\\n' | awk '{gsub(/\\xc3\\xa9+/,\"E\")}1'", "636166450a", "", 0],
  ["{ printf 'caf\\303\\251\\303\\251\\n' | awk '{gsub(/\\xc3\\xa9+/,\"E\")}1'\n} 2>&1 | od -An -tx1", "2036332036312036362034352030610a", "", 0],
  ["printf 'a\\377b\\n' | awk '{gsub(/\\377/,\"X\")}1'", "6158620a", "", 0],
  ["{ printf 'a\\377b\\n' | awk '{gsub(/\\377/,\"X\")}1'\n} 2>&1 | od -An -tx1", "2036312035382036322030610a", "", 0],
  ["printf 'a\\377b\\n' | awk '/a\\xff/{print \"m\"}'", "6d0a", "", 0],
  ["{ printf 'a\\377b\\n' | awk '/a\\xff/{print \"m\"}'\n} 2>&1 | od -An -tx1", "2036642030610a", "", 0],
  ["printf 'caf\\303\\251\\n' | awk '$0 ~ /caf\\303\\251$/{print \"m\"}'", "6d0a", "", 0],
  ["{ printf 'caf\\303\\251\\n' | awk '$0 ~ /caf\\303\\251$/{print \"m\"}'\n} 2>&1 | od -An -tx1", "2036642030610a", "", 0],
  ["echo 'a.b' | awk '{gsub(/\\x2e/,\"X\")}1'", "5858580a", "", 0],
  ["{ echo 'a.b' | awk '{gsub(/\\x2e/,\"X\")}1'\n} 2>&1 | od -An -tx1", "2035382035382035382030610a", "", 0],
  ["printf 'ab\\n' | awk '{gsub(/[\\141]/,\"E\")}1'", "45620a", "", 0],
  ["{ printf 'ab\\n' | awk '{gsub(/[\\141]/,\"E\")}1'\n} 2>&1 | od -An -tx1", "2034352036322030610a", "", 0],
  ["printf 'a\\\\101b\\n' | awk '{gsub(/\\\\101/,\"E\")}1'", "6145620a", "", 0],
  ["{ printf 'a\\\\101b\\n' | awk '{gsub(/\\\\101/,\"E\")}1'\n} 2>&1 | od -An -tx1", "2036312034352036322030610a", "", 0],
];

/**
 * Issue 25, adversary round 26: a backslash that `\x5c` (`\o134`, `\d92`) makes escapes what follows
 * as glibc's regcomp reads it once sed's own escapes are gone (`\x5cn` is a plain `n`, `\x5c\n` a
 * newline; ours read both as sed's `\n`); a byte of the regex that is only part of a character
 * meets that byte of the input's character (`s/\xc3/X/` on `é` writes X and the byte a9), where
 * glibc searches byte by byte: a pattern of literal characters, `.`, plain ASCII lists and anchors.
 * Before: 48 of these 75 rows held.
 */
const ROUND_26: ReadonlyArray<readonly [string, string, string, number]> = [
  ["printf '%s\\n' 'a\\nb' | sed 's/\\x5cn/X/'", "615c58620a", "", 0],
  ["printf '%s\\n' 'anb' | sed 's/\\x5cn/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'a\\\\b' | sed 's/\\x5c\\x5c/X/'", "61585c620a", "", 0],
  ["printf '%s\\n' 'a\\b' | sed 's/\\x5c/X/'", "", "7365643a202d652065787072657373696f6e2023312c206368617220393a20547261696c696e67206261636b736c6173680a", 1],
  ["printf '%s\\n' 'a\\b' | sed 's/a\\x5c/X/'", "", "7365643a202d652065787072657373696f6e2023312c20636861722031303a20547261696c696e67206261636b736c6173680a", 1],
  ["printf '%s\\n' 'a\\tb' | sed 's/\\x5ct/X/'", "615c58620a", "", 0],
  ["printf '%s\\n' 'a\\wb' | sed 's/\\x5cw/X/'", "585c77620a", "", 0],
  ["printf '%s\\n' 'a(b' | sed 's/\\x5c(/X/'", "", "7365643a202d652065787072657373696f6e2023312c20636861722031303a20556e6d6174636865642028206f72205c280a", 1],
  ["printf '%s\\n' 'ab' | sed 's/b/\\x5c/'", "615c0a", "", 0],
  ["printf '%s\\n' 'ab' | sed 's/b/\\x5cn/'", "615c6e0a", "", 0],
  ["printf '%s\\n' 'ab' | sed 's/\\(b\\)/\\x5c1/'", "615c310a", "", 0],
  ["printf '%s\\n' 'a.b' | sed 's/\\x5c./X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'a\\.b' | sed 's/\\x5c./X/'", "615c58620a", "", 0],
  ["printf '%s\\n' 'a*b' | sed 's/\\x5c*/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'ab' | sed 's/b/\\x5c\\x5c/'", "615c5c0a", "", 0],
  ["printf '%s\\n' 'ab' | sed 's/b/\\x5c&/'", "615c620a", "", 0],
  ["printf '%s\\n' 'ab' | sed 'y/a/\\x5c/'", "5c620a", "", 0],
  ["printf '%s\\n' 'a\\nb' | sed 's/\\o134n/X/'", "615c58620a", "", 0],
  ["printf '%s\\n' 'a\\nb' | sed 's/\\d92n/X/'", "615c58620a", "", 0],
  ["printf '%s\\n' 'a{1}b' | sed 's/\\x5c{1\\x5c}/X/'", "", "7365643a202d652065787072657373696f6e2023312c20636861722031363a20496e76616c696420707265636564696e6720726567756c61722065787072657373696f6e0a", 1],
  ["printf '%s\\n' 'aab' | sed 's/a\\x5c{2\\x5c}/X/'", "58620a", "", 0],
  ["printf '%s\\n' 'a$b' | sed 's/\\x5c$/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'a^b' | sed 's/\\x5c^/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'ax41b' | sed 's/\\x5cx41/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'a\\nb' | sed 's/\\x5c\\n/X/'", "615c6e620a", "", 0],
  ["printf '%s\\n' 'ab' | sed 's/a\\x5c|b/X/'", "58620a", "", 0],
  ["printf '%s\\n' 'a\\b' | sed 's/[\\x5c]/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'a b' | sed 's/\\x5cs/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'a+b' | sed 's/\\x5c+/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'aab' | sed 's/a\\x5c+/X/'", "58620a", "", 0],
  ["printf '%s\\n' 'a%b' | sed 's/\\x5c%/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'a/b' | sed 's/\\x5c//X/'", "", "7365643a202d652065787072657373696f6e2023312c206368617220393a20756e6b6e6f776e206f7074696f6e20746f206073270a", 1],
  ["printf '%s\\n' 'a|b' | sed 's|\\x5c||X|'", "", "7365643a202d652065787072657373696f6e2023312c206368617220393a20756e6b6e6f776e206f7074696f6e20746f206073270a", 1],
  ["printf '%s\\n' 'adb' | sed 's/\\x5cd/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'aob' | sed 's/\\x5co/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'acb' | sed 's/\\x5cc/X/'", "6158620a", "", 0],
  ["printf 'a\\tb\\n' | sed 's/\\x5c\\t/X/'", "6158620a", "", 0],
  ["printf 'atb\\n' | sed 's/\\x5c\\t/X/'", "6174620a", "", 0],
  ["printf '%s\\n' 'arb' | sed 's/\\x5cr/X/'", "6158620a", "", 0],
  ["printf '%s\\n' 'ab' | sed 's/b/\\x5c\\n/' | od -c", "30303030303030202020612020205c20205c6e20205c6e0a303030303030340a", "", 0],
  ["printf '%s\\n' 'ab' | sed 's/b/\\x5ct/'", "615c740a", "", 0],
  ["echo 'a\\b' | sed 's/\\x5c/X/'", "", "7365643a202d652065787072657373696f6e2023312c206368617220393a20547261696c696e67206261636b736c6173680a", 1],
  ["echo 'ab' | sed 's/a/\\x5c/'", "5c620a", "", 0],
  ["echo 'ab' | sed 's/a/\\x5cn/'", "5c6e620a", "", 0],
  ["echo 'ab' | sed 's/\\(a\\)/\\x5c1/'", "5c31620a", "", 0],
  ["echo 'a\\nb' | sed 's/\\x5cn/X/'", "615c58620a", "", 0],
  ["echo 'a(b' | sed 's/\\x5c(/X/'", "", "7365643a202d652065787072657373696f6e2023312c20636861722031303a20556e6d6174636865642028206f72205c280a", 1],
  ["echo 'a.b' | sed 's/\\x5c./X/'", "6158620a", "", 0],
  ["echo 'a*b' | sed 's/a\\x5c*/X/'", "58620a", "", 0],
  ["echo 'ab' | sed 'y/a/\\x5c/'", "5c620a", "", 0],
  ["echo 'é' | sed 's/\\xc3/X/' | od -An -tx1", "2035382061392030610a", "", 0],
  ["echo 'é' | sed 's/\\xa9/X/' | od -An -tx1", "2063332035382030610a", "", 0],
  ["echo 'éa' | sed 's/\\xc3.*/X/' | od -An -tx1", "2035382061392036312030610a", "", 0],
  ["echo '😀' | sed 's/\\xf0\\x9f/X/' | od -An -tx1", "2035382039382038302030610a", "", 0],
  ["echo 'é' | sed 's/\\xc3\\xa9/X/' | od -An -tx1", "2035382030610a", "", 0],
  ["echo 'é' | sed -n '/\\xc3/p' | od -An -tx1", "2063332061392030610a", "", 0],
  ["echo 'é' | sed 's/\\o303/X/' | od -An -tx1", "2035382061392030610a", "", 0],
  ["echo 'é' | sed 's/\\d195/X/' | od -An -tx1", "2035382061392030610a", "", 0],
  ["echo 'é' | sed 's/[\\xc3]/X/' | od -An -tx1", "2063332061392030610a", "", 0],
  ["echo 'éé' | sed 's/\\xc3/X/g' | od -An -tx1", "2035382061392035382061392030610a", "", 0],
  ["echo 'a&b' | sed 's/\\x26/X/'", "6158620a", "", 0],
  ["echo 'ab' | sed 's/a/\\x26\\x26/'", "2626620a", "", 0],
  ["echo 'éa' | sed 's/\\xc3./X/' | od -An -tx1", "2063332061392036312030610a", "", 0],
  ["echo 'aé' | sed 's/.\\xc3/X/' | od -An -tx1", "2035382061392030610a", "", 0],
  ["echo 'é😀é' | sed 's/\\xc3/[&]/g' | od -An -tx1", "2035622063332035642061392066302039662039382038302035622063332035642061392030610a", "", 0],
  ["echo 'éé' | sed 's/\\xa9\\xc3/-/' | od -An -tx1", "2063332032642061392030610a", "", 0],
  ["echo 'xé' | sed 's/[x]\\xc3/-/' | od -An -tx1", "2032642061392030610a", "", 0],
  ["echo 'aé' | sed 's/a*\\xc3/-/' | od -An -tx1", "2032642061392030610a", "", 0],
  ["echo 'é' | sed -n '/\\xa9$/p' | od -An -tx1", "2063332061392030610a", "", 0],
  ["echo 'é' | sed 's/\\xc3/X/;s/X\\xa9/Y/' | od -An -tx1", "2035392030610a", "", 0],
  ["echo 'éé' | sed 's/é\\xc3/Z/' | od -An -tx1", "2035612061392030610a", "", 0],
  ["echo 'é' | sed 's/\\(\\xc3\\)\\(.*\\)/\\2\\1/' | od -An -tx1", "2063332061392030610a", "", 0],
  ["echo 'ab' | sed 's/\\xc3*/-/g'", "2d612d622d0a", "", 0],
  ["echo 'é' | sed 's/\\xc3*/-/g' | od -An -tx1", "2032642061392032642030610a", "", 0],
  ["printf 'caf\\xc3\\xa9\\n' | sed 's/\\xc3/X/' | od -An -tx1", "2036332036312036362035382061392030610a", "", 0],
];

/** Where ours still differs from GNU's, and what ours gives (docs/shell.md, "not matched yet"). */
const STILL_UNLIKE: ReadonlyArray<readonly [string, string, string]> = [
  // GNU matches the byte inside é after a negated list, a class or with I too (2d a9 0a): its regex then starts only at a character but still reads bytes; ours runs such a pattern on characters.
  ["echo 'aé' | sed 's/[^x]\\xc3/-/' | od -An -tx1", " 61 c3 a9 0a\n", "GNU sed: 2d a9 0a"],
  // A backslash from \x5c before `[` starts a bracket for GNU's s command parser (unterminated `s' command); ours reads a literal [.
  ["printf 'a[b\\n' | sed 's/\\x5c[/X/'", "aXb\n", "GNU sed: sed: -e expression #1, char 10: unterminated `s' command"],
  ["printf '\\357\\273\\277x\\n' | awk '{sub(/^\\357/,\"\")}1' | od -An -tx1", " ef bb bf 78 0a\n", "gawk: bb bf 78 0a"],
  // In a bracket expression GNU's lone byte that is not UTF-8 matches nothing (61 ff 62 0a); ours matches the byte.
  ["printf 'a\\xffb\\n' | sed 's/[\\xff]/X/g' | od -An -tx1", " 61 58 62 0a\n", "GNU sed: 61 ff 62 0a"],
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

describe("sed's and awk's byte escapes are bytes (recorded from GNU sed 4.9, gawk 5.2.1)", () => {
  it.each(SED)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout: shown(stdout), stderr: shown(stderr), exitCode, truncated: false });
  });

  it.each(AWK)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout: shown(stdout), stderr: shown(stderr), exitCode, truncated: false });
  });

  it.each(ROUND_26)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout: shown(stdout), stderr: shown(stderr), exitCode, truncated: false });
  });

  it.each(STILL_UNLIKE)("still unlike GNU: %s", async (command, stdout) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr: "", exitCode: 0, truncated: false });
  });
});
