/**
 * Issue 25 (adversary round 19, F2 and F3): one rule for bytes in the docs shell. Streams between
 * commands carry bytes as bash's do; byte escapes (`echo -e '\xff'`, `$'\xff'`, printf, awk) are
 * bytes; text read from bytes keeps each byte that is not UTF-8 (`$(...)`, `read`, `sed`, `2>&1`);
 * and the call's stdout and stderr alike are decoded once, at the very end, each ill-formed
 * sequence one U+FFFD (docs/shell.md). Each row was recorded from GNU bash 5.2.15 and coreutils 9.1
 * (`bash --norc -c COMMAND` in `C.UTF-8`): the command, its stdout and stderr bytes in hex, its
 * status. Every command runs twice, as it is and as `{ COMMAND\n} 2>&1 | od -An -tx1`, whose
 * output shows the exact bytes. Ours must show what bash's bytes read as UTF-8 (WHATWG's decoder).
 * Before: 18 of these 58 rows held (`printf 'é\377' >&2` showed `Ã©ÿ`, `echo -e '\xff'` wrote
 * c3 bf).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

/** [command, stdout bytes (hex), stderr bytes (hex), exit status], as bash 5.2 gave them. */
const RECORDED: ReadonlyArray<readonly [string, string, string, number]> = [
  // A byte order mark's three bytes are bytes like any others wherever they are (adversary round 22, F3): a decoder
  // dropped them where it met them first (printf's, awk's and echo's escapes one sequence at a time, a pipe's start,
  // a process substitution's file). Only the call's output, read as WHATWG's decoder reads it, drops one that starts it.
  ["printf '\\357\\273\\277a' | wc -c", "340a", "", 0],
  ["{ printf '\\357\\273\\277a' | wc -c\n} 2>&1 | od -An -tx1", "2033342030610a", "", 0],
  ["printf '\\357\\273\\277a' | od -An -tx1", "2065662062622062662036310a", "", 0],
  ["{ printf '\\357\\273\\277a' | od -An -tx1\n} 2>&1 | od -An -tx1", "2032302036352036362032302036322036322032302036322036362032302033362033312030610a", "", 0],
  ["printf '\\357\\273\\277a'", "efbbbf61", "", 0],
  ["{ printf '\\357\\273\\277a'\n} 2>&1 | od -An -tx1", "2065662062622062662036310a", "", 0],
  ["printf 'x\\357\\273\\277a'", "78efbbbf61", "", 0],
  ["{ printf 'x\\357\\273\\277a'\n} 2>&1 | od -An -tx1", "2037382065662062622062662036310a", "", 0],
  ["echo x; printf '\\357\\273\\277y\\n'", "780aefbbbf790a", "", 0],
  ["{ echo x; printf '\\357\\273\\277y\\n'\n} 2>&1 | od -An -tx1", "2037382030612065662062622062662037392030610a", "", 0],
  ["x=$'\\357\\273\\277'; echo ${#x}", "310a", "", 0],
  ["{ x=$'\\357\\273\\277'; echo ${#x}\n} 2>&1 | od -An -tx1", "2033312030610a", "", 0],
  ["x=$(printf '\\357\\273\\277a'); echo ${#x}; printf %s \"$x\" | wc -c", "320a340a", "", 0],
  ["{ x=$(printf '\\357\\273\\277a'); echo ${#x}; printf %s \"$x\" | wc -c\n} 2>&1 | od -An -tx1", "2033322030612033342030610a", "", 0],
  ["printf '%b' '\\0357\\0273\\0277a' | wc -c", "340a", "", 0],
  ["{ printf '%b' '\\0357\\0273\\0277a' | wc -c\n} 2>&1 | od -An -tx1", "2033342030610a", "", 0],
  ["printf '\\xef\\xbb\\xbfa' | wc -c", "340a", "", 0],
  ["{ printf '\\xef\\xbb\\xbfa' | wc -c\n} 2>&1 | od -An -tx1", "2033342030610a", "", 0],
  ["echo -e '\\xef\\xbb\\xbfz' | wc -c", "350a", "", 0],
  ["{ echo -e '\\xef\\xbb\\xbfz' | wc -c\n} 2>&1 | od -An -tx1", "2033352030610a", "", 0],
  ["awk 'BEGIN{printf \"\\357\\273\\277a\"}' | wc -c", "340a", "", 0],
  ["{ awk 'BEGIN{printf \"\\357\\273\\277a\"}' | wc -c\n} 2>&1 | od -An -tx1", "2033342030610a", "", 0],
  ["printf '\\357\\273\\277a\\n' | awk '{print length($0)}'", "320a", "", 0],
  ["{ printf '\\357\\273\\277a\\n' | awk '{print length($0)}'\n} 2>&1 | od -An -tx1", "2033322030610a", "", 0],
  ["printf '\\357\\273\\277a\\n' | sed 's/a/b/' | od -An -tx1", "2065662062622062662036322030610a", "", 0],
  ["{ printf '\\357\\273\\277a\\n' | sed 's/a/b/' | od -An -tx1\n} 2>&1 | od -An -tx1", "2032302036352036362032302036322036322032302036322036362032302033362033322032302033302036312030610a", "", 0],
  ["printf '\\357\\273\\277a\\n' | cut -c1 | od -An -tx1", "2065662030610a", "", 0],
  ["{ printf '\\357\\273\\277a\\n' | cut -c1 | od -An -tx1\n} 2>&1 | od -An -tx1", "2032302036352036362032302033302036312030610a", "", 0],
  ["printf '\\357\\273\\277a\\n' | { read -r x; echo ${#x}; }", "320a", "", 0],
  ["{ printf '\\357\\273\\277a\\n' | { read -r x; echo ${#x}; }\n} 2>&1 | od -An -tx1", "2033322030610a", "", 0],
  ["v=$'\\357'; w=$'\\273\\277'; printf 'a%s' \"$v$w\"", "61efbbbf", "", 0],
  ["{ v=$'\\357'; w=$'\\273\\277'; printf 'a%s' \"$v$w\"\n} 2>&1 | od -An -tx1", "2036312065662062622062660a", "", 0],
  ["wc -c <(printf '\\357\\273\\277a')", "34202f6465762f66642f36330a", "", 0],
  ["{ wc -c <(printf '\\357\\273\\277a')\n} 2>&1 | od -An -tx1", "2033342032302032662036342036352037362032662036362036342032662033362033332030610a", "", 0],
  ["diff <(printf 'a\\n') <(printf '\\357\\273\\277a\\n')", "3163310a3c20610a2d2d2d0a3e20efbbbf610a", "", 1],
  ["{ diff <(printf 'a\\n') <(printf '\\357\\273\\277a\\n')\n} 2>&1 | od -An -tx1", "2033312036332033312030612033632032302036312030612032642032642032642030612033652032302065662062620a2062662036312030610a", "", 0],
  ["cat <(printf 'a\\377') | od -An -tx1", "2036312066660a", "", 0],
  ["{ cat <(printf 'a\\377') | od -An -tx1\n} 2>&1 | od -An -tx1", "2032302033362033312032302036362036362030610a", "", 0],
  ["printf '\\357\\273\\277a\\n' >&2", "", "efbbbf610a", 0],
  ["printf 'e\\357\\273\\277a\\n' >&2", "", "65efbbbf610a", 0],
  // tr: three octal digits past \377 are two digits and a character, with GNU tr 9.1's warning (adversary round 22, F7; `\400` was NUL).
  ["printf 'a b0\\n' | tr '\\400' x", "617862780a", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a", 0],
  ["printf 'a?7b\\n' | tr 'a\\777' XYZ", "58595a620a", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c373737206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3037372c20370a", 0],
  ["printf ' 00\\n' | tr '\\4000' xyz", "787a7a0a", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a", 0],
  ["printf '\\377' | tr '\\3777' xy | od -An -tx1", "2037380a", "", 0],
  ["{ printf '\\377' | tr '\\3777' xy | od -An -tx1\n} 2>&1 | od -An -tx1", "2032302033372033382030610a", "", 0],
  ["printf ' 0' | tr '\\0400' xy", "7879", "", 0],
  ["{ printf ' 0' | tr '\\0400' xy\n} 2>&1 | od -An -tx1", "2037382037390a", "", 0],
  ["printf 'ab' | tr '\\400\\500' 'x\\600'", "6162", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c353030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3035302c20300a74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c363030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3036302c20300a", 0],
  ["printf 'a 0b' | tr -d '\\400'", "6162", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a", 0],
  ["printf 'a 0b' | tr -s '\\400'", "61203062", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a", 0],
  ["printf 'x' | tr -c '\\400' '\\501'", "31", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c353031206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3035302c20310a", 0],
  ["printf ' 0x' | tr -t '\\400' 'q'", "713078", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a", 0],
  ["printf 'a b0\\n' | tr '\\400' x 2>&1 | od -An -tx1", "2037342037322033612032302037372036312037322036652036392036652036372033612032302037342036382036350a2032302036312036642036322036392036372037352036662037352037332032302036662036332037342036312036630a2032302036352037332036332036312037302036352032302035632033342033302033302032302036392037332032300a2036322036352036392036652036372030612030392036392036652037342036352037322037302037322036352037340a2036352036342032302036312037332032302037342036382036352032302033322032642036322037392037342036350a2032302037332036352037312037352036352036652036332036352032302035632033302033342033302032632032300a2033302030612036312037382036322037382030610a", "", 0],
  ["printf 'a 0b\\n' | tr '\\400-9' 'x'", "617878620a", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c343030206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3034302c20300a", 0],
  ["printf 'a' | tr 'a' '\\777' | od -An -tx1", "2033660a", "74723a207761726e696e673a2074686520616d626967756f7573206f6374616c20657363617065205c373737206973206265696e670a09696e7465727072657465642061732074686520322d627974652073657175656e6365205c3037372c20370a", 0],
  ["printf 'a b0\\n' | tr '\\400' x 2>/dev/null", "617862780a", "", 0],
  // $'\u' takes one to four hex digits and $'\U' one to eight; past U+10FFFF bash writes its longer UTF-8 form (adversary round 22).
  ["printf %s $'\\ue9x'", "c3a978", "", 0],
  ["{ printf %s $'\\ue9x'\n} 2>&1 | od -An -tx1", "2063332061392037380a", "", 0],
  ["printf %s $'\\U1F600z'", "f09f98807a", "", 0],
  ["{ printf %s $'\\U1F600z'\n} 2>&1 | od -An -tx1", "2066302039662039382038302037610a", "", 0],
  ["printf %s $'\\U110000'", "f4908080", "", 0],
  ["{ printf %s $'\\U110000'\n} 2>&1 | od -An -tx1", "2066342039302038302038300a", "", 0],
  ["printf %s $'\\Uq'", "5c5571", "", 0],
  ["{ printf %s $'\\Uq'\n} 2>&1 | od -An -tx1", "2035632035352037310a", "", 0],
  ["printf %s $'\\U1f6001'", "f7b68081", "", 0],
  ["{ printf %s $'\\U1f6001'\n} 2>&1 | od -An -tx1", "2066372062362038302038310a", "", 0],
  ["printf %s $'a\\U0b'", "610b", "", 0],
  ["{ printf %s $'a\\U0b'\n} 2>&1 | od -An -tx1", "2036312030620a", "", 0],
  ["printf %s $'\\U00000041B'", "4142", "", 0],
  ["{ printf %s $'\\U00000041B'\n} 2>&1 | od -An -tx1", "2034312034320a", "", 0],
  // read drops NUL bytes, and read -n does not count them (adversary round 22).
  ["read -r v < <(printf 'a\\0b\\n'); printf %s \"$v\"", "6162", "", 0],
  ["{ read -r v < <(printf 'a\\0b\\n'); printf %s \"$v\"\n} 2>&1 | od -An -tx1", "2036312036320a", "", 0],
  ["read -n 2 v < <(printf 'a\\0bc'); printf %s \"$v\"", "6162", "", 0],
  ["{ read -n 2 v < <(printf 'a\\0bc'); printf %s \"$v\"\n} 2>&1 | od -An -tx1", "2036312036320a", "", 0],
  ["printf 'x\\0y z\\n' | { read a b; printf '[%s][%s]' \"$a\" \"$b\"; }", "5b78795d5b7a5d", "", 0],
  ["{ printf 'x\\0y z\\n' | { read a b; printf '[%s][%s]' \"$a\" \"$b\"; }\n} 2>&1 | od -An -tx1", "2035622037382037392035642035622037612035640a", "", 0],
  ["printf 'a\\0b\\nc\\0d\\n' | while IFS= read -r l; do printf '[%s]' \"$l\"; done", "5b61625d5b63645d", "", 0],
  ["{ printf 'a\\0b\\nc\\0d\\n' | while IFS= read -r l; do printf '[%s]' \"$l\"; done\n} 2>&1 | od -An -tx1", "2035622036312036322035642035622036332036342035640a", "", 0],
  // printf %q backslash-quotes what bash 5.2 does: , ] ^ too, # and ~ only first, = and % never (adversary round 22).
  ["for c in '!' '\"' '#' '$' '%' '&' '(' ')' '*' '+' ',' '=' '?' '[' ']' '^' '{' '}' '~' 'a#' 'a~' 'a=b' '#a#' '~/x~' 'a b,c'; do printf '%q ' \"$c\"; done", "5c21205c22205c23205c242025205c26205c28205c29205c2a202b205c2c203d205c3f205c5b205c5d205c5e205c7b205c7d205c7e20612320617e20613d62205c236123205c7e2f787e20615c20625c2c6320", "", 0],
  ["{ for c in '!' '\"' '#' '$' '%' '&' '(' ')' '*' '+' ',' '=' '?' '[' ']' '^' '{' '}' '~' 'a#' 'a~' 'a=b' '#a#' '~/x~' 'a b,c'; do printf '%q ' \"$c\"; done\n} 2>&1 | od -An -tx1", "2035632032312032302035632032322032302035632032332032302035632032342032302032352032302035632032360a2032302035632032382032302035632032392032302035632032612032302032622032302035632032632032302033640a2032302035632033662032302035632035622032302035632035642032302035632035652032302035632037622032300a2035632037642032302035632037652032302036312032332032302036312037652032302036312033642036322032300a2035632032332036312032332032302035632037652032662037382037652032302036312035632032302036322035630a2032632036332032300a", "", 0],
  ["echo -e '\\xff\\303\\251\\0101'", "ff5c3330335c323531410a", "", 0],
  ["{ echo -e '\\xff\\303\\251\\0101'\n} 2>&1 | od -An -tx1", "2066662035632033332033302033332035632033322033352033312034312030610a", "", 0],
  ["echo -e 'a\\0377b'", "61ff620a", "", 0],
  ["{ echo -e 'a\\0377b'\n} 2>&1 | od -An -tx1", "2036312066662036322030610a", "", 0],
  ["echo $'\\xff' $'\\303\\251' $'\\101\\777'", "ff20c3a92041ff0a", "", 0],
  ["{ echo $'\\xff' $'\\303\\251' $'\\101\\777'\n} 2>&1 | od -An -tx1", "2066662032302063332061392032302034312066662030610a", "", 0],
  ["printf '\\377\\303\\251\\x41\\u00e9'", "ffc3a941c3a9", "", 0],
  ["{ printf '\\377\\303\\251\\x41\\u00e9'\n} 2>&1 | od -An -tx1", "2066662063332061392034312063332061390a", "", 0],
  ["printf '%b' '\\0377\\xff\\303'", "ffffc3", "", 0],
  ["{ printf '%b' '\\0377\\xff\\303'\n} 2>&1 | od -An -tx1", "2066662066662063330a", "", 0],
  ["awk 'BEGIN{printf \"\\377\\303\\251\"; print \"\\xff\"}'", "ffc3a9ff0a", "", 0],
  ["{ awk 'BEGIN{printf \"\\377\\303\\251\"; print \"\\xff\"}'\n} 2>&1 | od -An -tx1", "2066662063332061392066662030610a", "", 0],
  ["printf 'a\\377b\\n' | sed 's/a/x/'", "78ff620a", "", 0],
  ["{ printf 'a\\377b\\n' | sed 's/a/x/'\n} 2>&1 | od -An -tx1", "2037382066662036322030610a", "", 0],
  ["printf 'abc\\377\\n' | tr 'a-c' 'A-C'", "414243ff0a", "", 0],
  ["{ printf 'abc\\377\\n' | tr 'a-c' 'A-C'\n} 2>&1 | od -An -tx1", "2034312034322034332066662030610a", "", 0],
  ["printf 'h\\303\\251llo\\n' | cut -c1-2", "68c30a", "", 0],
  ["{ printf 'h\\303\\251llo\\n' | cut -c1-2\n} 2>&1 | od -An -tx1", "2036382063332030610a", "", 0],
  ["printf 'h\\303\\251llo\\n' | cut -b1-2", "68c30a", "", 0],
  ["{ printf 'h\\303\\251llo\\n' | cut -b1-2\n} 2>&1 | od -An -tx1", "2036382063332030610a", "", 0],
  ["printf '\\303\\251\\377' | wc -c", "330a", "", 0],
  ["{ printf '\\303\\251\\377' | wc -c\n} 2>&1 | od -An -tx1", "2033332030610a", "", 0],
  ["printf '\\303\\251\\377\\n' | wc -m", "320a", "", 0],
  ["{ printf '\\303\\251\\377\\n' | wc -m\n} 2>&1 | od -An -tx1", "2033322030610a", "", 0],
  ["printf '\\303\\251\\377' | head -c 2", "c3a9", "", 0],
  ["{ printf '\\303\\251\\377' | head -c 2\n} 2>&1 | od -An -tx1", "2063332061390a", "", 0],
  ["x=$(printf '\\377\\303\\251'); echo \"$x\"; echo ${#x}", "ffc3a90a320a", "", 0],
  ["{ x=$(printf '\\377\\303\\251'); echo \"$x\"; echo ${#x}\n} 2>&1 | od -An -tx1", "2066662063332061392030612033322030610a", "", 0],
  ["x=$(printf 'a\\377'); y=\"$x$x\"; printf '%s' \"$y\"", "61ff61ff", "", 0],
  ["{ x=$(printf 'a\\377'); y=\"$x$x\"; printf '%s' \"$y\"\n} 2>&1 | od -An -tx1", "2036312066662036312066660a", "", 0],
  ["printf 'e\\303\\251\\377\\n' >&2", "", "65c3a9ff0a", 0],
  ["{ printf 'e\\303\\251\\377\\n' >&2\n} 2>&1 | od -An -tx1", "2036352063332061392066662030610a", "", 0],
  ["printf 'e\\303\\251\\377\\n' 2>&1 | cat", "65c3a9ff0a", "", 0],
  ["{ printf 'e\\303\\251\\377\\n' 2>&1 | cat\n} 2>&1 | od -An -tx1", "2036352063332061392066662030610a", "", 0],
  ["{ printf '\\377'; echo 'é' >&2; } 2>&1", "ffc3a90a", "", 0],
  ["{ { printf '\\377'; echo 'é' >&2; } 2>&1\n} 2>&1 | od -An -tx1", "2066662063332061392030610a", "", 0],
  ["{ printf '\\377'; echo 'é' >&2; } 2>&1 | cat", "ffc3a90a", "", 0],
  ["{ { printf '\\377'; echo 'é' >&2; } 2>&1 | cat\n} 2>&1 | od -An -tx1", "2066662063332061392030610a", "", 0],
  ["printf 'e\\303\\251\\377\\n' |& cat", "65c3a9ff0a", "", 0],
  ["{ printf 'e\\303\\251\\377\\n' |& cat\n} 2>&1 | od -An -tx1", "2036352063332061392066662030610a", "", 0],
  ["echo é | { read v; echo \"$v\"; }", "c3a90a", "", 0],
  ["{ echo é | { read v; echo \"$v\"; }\n} 2>&1 | od -An -tx1", "2063332061392030610a", "", 0],
  ["printf 'a\\377\\nb\\n' | while read -r l; do echo \"[$l]\"; done", "5b61ff5d0a5b625d0a", "", 0],
  ["{ printf 'a\\377\\nb\\n' | while read -r l; do echo \"[$l]\"; done\n} 2>&1 | od -An -tx1", "2035622036312066662035642030612035622036322035642030610a", "", 0],
  ["mapfile -t a < <(printf '\\303\\251\\n\\377\\n'); echo \"${a[0]}${a[1]}\"", "c3a9ff0a", "", 0],
  ["{ mapfile -t a < <(printf '\\303\\251\\n\\377\\n'); echo \"${a[0]}${a[1]}\"\n} 2>&1 | od -An -tx1", "2063332061392066662030610a", "", 0],
  ["echo \"$(printf '\\303')$(printf '\\251')\"", "c3a90a", "", 0],
  ["{ echo \"$(printf '\\303')$(printf '\\251')\"\n} 2>&1 | od -An -tx1", "2063332061392030610a", "", 0],
  ["cat <<EOT\n$(printf '\\377')é\nEOT", "ffc3a90a", "", 0],
  ["{ cat <<EOT\n$(printf '\\377')é\nEOT\n} 2>&1 | od -An -tx1", "2066662063332061392030610a", "", 0],
  ["printf '\\377' | cat", "ff", "", 0],
  ["{ printf '\\377' | cat\n} 2>&1 | od -An -tx1", "2066660a", "", 0],
  ["read -r v <<< \"$(printf 'a\\377')\"; echo \"$v\"", "61ff0a", "", 0],
  ["{ read -r v <<< \"$(printf 'a\\377')\"; echo \"$v\"\n} 2>&1 | od -An -tx1", "2036312066662030610a", "", 0],
  ["echo 'Ã©'", "c383c2a90a", "", 0],
  ["{ echo 'Ã©'\n} 2>&1 | od -An -tx1", "2063332038332063322061392030610a", "", 0],
  ["echo é | od -c", "30303030303030203330332032353120205c6e0a303030303030330a", "", 0],
  ["{ echo é | od -c\n} 2>&1 | od -An -tx1", "2033302033302033302033302033302033302033302032302033332033302033332032302033322033352033312032300a2032302035632036652030612033302033302033302033302033302033302033332030610a", "", 0],
];

/**
 * Adversary round (issue 25): a lone surrogate that a command or an escape made is not a held
 * byte. Only text read from bytes holds placeholders; jq reads `\udcc3` in JSON (input, fromjson,
 * its filter's string literals) as U+FFFD, and bash's `\u` escapes write a surrogate's three bytes
 * (ed b3 bf). Before, the jq rows forged the bytes c3 a9 e2 80 ae (é and U+202E) and printf wrote
 * ff. [command, stdout]: recorded from jq 1.6 and bash 5.2.15 (`bash -c COMMAND`, C.UTF-8).
 */
const SURROGATES: ReadonlyArray<readonly [string, string]> = [
  ["echo '{\"t\":\"\\udcc3\\udca9\\udce2\\udc80\\udcae\"}' | jq -r .t | od -An -tx1", " ef bf bd ef bf bd ef bf bd ef bf bd ef bf bd 0a\n"],
  ["echo '\"\\udcc3\\udca9\"' | jq length", "2\n"],
  ["echo '\"\\udcc3\\udca9\"' | jq -c explode", "[65533,65533]\n"],
  ["echo '\"\\ude00\\ud83d\\ude00\"' | jq -r . | od -An -tx1", " ef bf bd f0 9f 98 80 0a\n"],
  ["echo '\"\\\"\\\\udcff\\\"\"' | jq -r fromjson | od -An -tx1", " ef bf bd 0a\n"],
  ["jq -rn '\"\\u00e9\"'", "é\n"],
  ["echo '\"A\"' | jq '. == \"\\u0041\"'", "true\n"],
  ["jq -rn '\"\\udcff\\ud83d\\ude00\"' | od -An -tx1", " ef bf bd f0 9f 98 80 0a\n"],
  ["printf '\\udcff' | od -An -tx1", " ed b3 bf\n"],
  ["echo -e '\\udcff' | od -An -tx1", " ed b3 bf 0a\n"],
  ["printf %b '\\udcff' | od -An -tx1", " ed b3 bf\n"],
  ["printf '\\U0000dcff' | od -An -tx1", " ed b3 bf\n"],
  ["x=$'\\udcff'; printf %s \"$x\" | wc -c", "3\n"],
  ["printf '\\ud83d' | od -An -tx1", " ed a0 bd\n"],
  // Not surrogates: an escaped backslash, other escapes and interpolation, a pair, as before.
  ["echo '\"\\\\udcff\\u00e9\"' | jq -r .", "\\udcffé\n"],
  ["jq -rn '\"a\\tb\\u0041\\\\u0041\\(1+1)\\u00e9\"'", "a\tbA\\u00412é\n"],
  ["printf '\\u00e9\\U0001F600' | od -An -tx1", " c3 a9 f0 9f 98 80\n"],
  ["echo $'\\u00e9\\ud83d\\ude00' | od -An -tx1", " c3 a9 ed a0 bd ed b8 80 0a\n"],
];

/**
 * Adversary F3 (issue 25): bytes the rule above did not reach yet. A NUL byte in a command
 * substitution's output is dropped with bash's warning (just-bash kept it in the variable); printf
 * %q quotes a byte that is not UTF-8 as \\ooo and a printable character as itself (just-bash
 * took U+0080-U+00FF for bytes: é came out as $'\\351', a byte é is not, and a held byte raw);
 * tr's \\NNN of a byte 0x80-0xff is that byte (it was U+00FF: it met no byte of the input and
 * wrote two). Recorded as RECORDED is (bash 5.2.15, coreutils 9.1, C.UTF-8); the rows whose
 * output has no stderr also run through `2>&1 | od`.
 */
const ROUND_F3: ReadonlyArray<readonly [string, string, string, number]> = [
  // A command that expands to nothing writes what its expansions wrote to stderr (ours wrote nothing; `$(printf '\\x00')` was `bash: \\0: command not found`, 127).
  ["$(printf '\\x00')", "", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["$(echo err >&2)", "", "6572720a", 0],
  ["x=1 $(printf 'a\\0' >&2; printf '\\0')", "", "6100626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  // What substitutions before it in the same command wrote to stderr stays (ours kept only the last's).
  ["echo $(echo e1 >&2) $(echo e2 >&2; printf 'a\\0')", "610a", "65310a65320a626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["x=$(printf 'a\\0b\\0c'); printf %s \"$x\" | od -An -tx1", "2036312036322036330a", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["echo $(printf 'a\\0') $(printf 'b\\0')", "6120620a", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["true\nx=$(printf 'a\\0')\necho \"[$x]\" $LINENO", "5b615d20330a", "626173683a206c696e6520323a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["x=$(printf 'a\\n\\0'); echo \"[$x]\"", "5b615d0a", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["x=`printf 'a\\0b'`; echo \"$x\"", "61620a", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["x=$(printf 'a\\0'; exit 3); echo \"$x $?\"", "6120330a", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["cat <<EOT\n$(printf 'a\\0b')\nEOT", "61620a", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["a=( $(printf 'a\\0b c') ); echo ${#a[@]} \"${a[0]}\"", "322061620a", "626173683a206c696e6520313a207761726e696e673a20636f6d6d616e6420737562737469747574696f6e3a2069676e6f726564206e756c6c206279746520696e20696e7075740a", 0],
  ["printf 'a\\0b\\n' | od -An -tx1", "2036312030302036322030610a", "", 0],
  ["{ printf 'a\\0b\\n' | od -An -tx1\n} 2>&1 | od -An -tx1", "2032302033362033312032302033302033302032302033362033322032302033302036312030610a", "", 0],
  ["printf '%q\\n' $'a\\377b'", "2427615c33373762270a", "", 0],
  ["{ printf '%q\\n' $'a\\377b'\n} 2>&1 | od -An -tx1", "2032342032372036312035632033332033372033372036322032372030610a", "", 0],
  ["printf '%q\\n' \"$(printf '\\377\\303\\251')\"", "24275c333737c3a9270a", "", 0],
  ["{ printf '%q\\n' \"$(printf '\\377\\303\\251')\"\n} 2>&1 | od -An -tx1", "2032342032372035632033332033372033372063332061392032372030610a", "", 0],
  ["printf '%q\\n' $'\\303'", "24275c333033270a", "", 0],
  ["{ printf '%q\\n' $'\\303'\n} 2>&1 | od -An -tx1", "2032342032372035632033332033302033332032372030610a", "", 0],
  ["printf '%q\\n' é 'é x' $'é\\n\"'", "c3a90ac3a95c20780a2427c3a95c6e22270a", "", 0],
  ["{ printf '%q\\n' é 'é x' $'é\\n\"'\n} 2>&1 | od -An -tx1", "2063332061392030612063332061392035632032302037382030612032342032372063332061392035632036652032320a2032372030610a", "", 0],
  ["printf '%q\\n' $'\\302\\205' $'\\x7f\\xe2\\x80\\x8b\\xe2\\x80\\xa8'", "24275c3330325c323035270a24275c313737e2808b5c3334325c3230305c323530270a", "", 0],
  ["{ printf '%q\\n' $'\\302\\205' $'\\x7f\\xe2\\x80\\x8b\\xe2\\x80\\xa8'\n} 2>&1 | od -An -tx1", "2032342032372035632033332033302033322035632033322033302033352032372030612032342032372035632033310a2033372033372065322038302038622035632033332033342033322035632033322033302033302035632033322033350a2033302032372030610a", "", 0],
  ["printf '%q\\n' '\"a' $'\\t\\001'", "5c22610a24275c745c303031270a", "", 0],
  ["{ printf '%q\\n' '\"a' $'\\t\\001'\n} 2>&1 | od -An -tx1", "2035632032322036312030612032342032372035632037342035632033302033302033312032372030610a", "", 0],
  ["printf 'a\\377b' | tr '\\377' x", "617862", "", 0],
  ["{ printf 'a\\377b' | tr '\\377' x\n} 2>&1 | od -An -tx1", "2036312037382036320a", "", 0],
  ["printf 'abc' | tr a '\\377'", "ff6263", "", 0],
  ["{ printf 'abc' | tr a '\\377'\n} 2>&1 | od -An -tx1", "2066662036322036330a", "", 0],
  ["printf 'a\\377b' | tr -d '\\377'", "6162", "", 0],
  ["{ printf 'a\\377b' | tr -d '\\377'\n} 2>&1 | od -An -tx1", "2036312036320a", "", 0],
  ["printf 'a\\377\\377b' | tr -s '\\377'", "61ff62", "", 0],
  ["{ printf 'a\\377\\377b' | tr -s '\\377'\n} 2>&1 | od -An -tx1", "2036312066662036320a", "", 0],
  ["printf 'a\\377b\\n' | tr -c 'a\\377\\n' '?'", "61ff3f0a", "", 0],
  ["{ printf 'a\\377b\\n' | tr -c 'a\\377\\n' '?'\n} 2>&1 | od -An -tx1", "2036312066662033662030610a", "", 0],
  ["printf 'ab\\377' | tr 'a\\377' '\\377a'", "ff6261", "", 0],
  ["{ printf 'ab\\377' | tr 'a\\377' '\\377a'\n} 2>&1 | od -An -tx1", "2066662036322036310a", "", 0],
  ["printf 'a\\376\\377b' | tr '\\376\\377' xy", "61787962", "", 0],
  ["{ printf 'a\\376\\377b' | tr '\\376\\377' xy\n} 2>&1 | od -An -tx1", "2036312037382037392036320a", "", 0],
  ["echo ab | tr ab '\\303\\251'", "c3a90a", "", 0],
  ["{ echo ab | tr ab '\\303\\251'\n} 2>&1 | od -An -tx1", "2063332061392030610a", "", 0],
];

/** Where ours still differs from the real tools, and what ours gives (docs/shell.md, "not matched yet"). */
const STILL_UNLIKE: ReadonlyArray<readonly [string, string, string]> = [
  // GNU sed's `.` does not match a byte that is not UTF-8 (5b c3 a9 5d ff 0a); ours does.
  ["printf '\\303\\251\\377\\n' | sed 's/./[&]/g' | od -An -tx1", " 5b c3 a9 5d 5b ff 5d 0a\n", "bash: 5b c3 a9 5d ff 0a"],
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

describe("bytes as bash has them (recorded from bash 5.2)", () => {
  it.each(RECORDED)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout: shown(stdout), stderr: shown(stderr), exitCode, truncated: false });
  });

  it.each(SURROGATES)("a lone surrogate made from code points: %s", async (command, stdout) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr: "", exitCode: 0, truncated: false });
  });

  it.each(ROUND_F3)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout: shown(stdout), stderr: shown(stderr), exitCode, truncated: false });
  });

  it.each(STILL_UNLIKE)("still unlike the real tools: %s", async (command, stdout) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr: "", exitCode: 0, truncated: false });
  });
});
