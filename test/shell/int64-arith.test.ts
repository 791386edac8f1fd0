/**
 * Issue 25 (adversary round 23, F3): the docs shell's integer arithmetic is bash's, signed 64-bit
 * with wrap-around, where just-bash used JS doubles (exact to 2**53 only, shifts and bit operators
 * cut to 32 bits): `$(( ))`, `let`, `(( ))`, `for (( ))`, `[[ -eq ]]`, `test`/`[` integer
 * comparisons (one outside 64 bits is refused), and `expr` and `seq` with integers exact at any
 * size as GNU's. An arithmetic error in `$(( ))` ends the shell with status 1 as `bash -c` does.
 * Each row was recorded from GNU bash 5.2.15 and coreutils 9.1 (`bash --norc -c COMMAND` in
 * `C.UTF-8`): the command, its stdout, its stderr, its status. Before: 16 of the first 70 rows held
 * (`[ 9223372036854775807 -eq 9223372036854775806 ]` was true, `$((1<<63))` -2147483648); before
 * round 24's 21 rows 2 held (the here-document and `exit 9007199254740993`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

/** [command, stdout, stderr, exit status], as bash 5.2 gave them. */
const RECORDED: ReadonlyArray<readonly [string, string, string, number]> = [
  ["echo $((2**53+1))", "9007199254740993\n", "", 0],
  ["echo $((9223372036854775807))", "9223372036854775807\n", "", 0],
  ["echo $((9223372036854775807+1))", "-9223372036854775808\n", "", 0],
  ["echo $((0xffffffffffffffff))", "-1\n", "", 0],
  ["echo $((1<<63)) $((1<<64)) $((-1>>1))", "-9223372036854775808 1 -1\n", "", 0],
  ["echo $(( 123456789 * 987654321 ))", "121932631112635269\n", "", 0],
  ["echo $(( 3037000500 * 3037000500 ))", "-9223372036709301616\n", "", 0],
  ["x=9007199254740993; echo $((x)) $((x+0))", "9007199254740993 9007199254740993\n", "", 0],
  ["let y=2**62*2; echo $y", "-9223372036854775808\n", "", 0],
  ["i=9007199254740993; ((i++)); echo $i", "9007199254740994\n", "", 0],
  ["echo $((10**18 + 1))", "1000000000000000001\n", "", 0],
  ["echo $((-9223372036854775807-1)) $(( (-9223372036854775807-1) / -1 )) $(( (-9223372036854775807-1) % -1 ))", "-9223372036854775808 -9223372036854775808 0\n", "", 0],
  ["printf '%d\\n' $((2**62))", "4611686018427387904\n", "", 0],
  ["echo $((99999999999999999999))", "7766279631452241919\n", "", 0],
  ["echo $((9223372036854775808))", "-9223372036854775808\n", "", 0],
  ["echo $((0x1ffffffffffffffff))", "-1\n", "", 0],
  ["echo $((1<<-1)) $((8>>-1)) $((1<<65))", "-9223372036854775808 0 2\n", "", 0],
  ["x=99999999999999999999; echo $((x))", "7766279631452241919\n", "", 0],
  ["echo $((-9223372036854775808))", "-9223372036854775808\n", "", 0],
  ["echo $((64#_@)) $((36#zZ)) $((2#111)) $((64#Zz))", "4094 1295 7 3939\n", "", 0],
  ["echo $((2**64)) $((3**40)) $((-2**63)) $((2**0)) $((0**0)) $((-3**3))", "0 -6289078614652622815 -9223372036854775808 1 1 -27\n", "", 0],
  ["echo $((~9007199254740992)) $((~0)) $((~-1))", "-9007199254740993 -1 0\n", "", 0],
  ["[[ 9223372036854775807 -eq 9223372036854775806 ]]; echo $?", "1\n", "", 0],
  ["[ 9223372036854775807 -eq 9223372036854775806 ]; echo $?", "1\n", "", 0],
  ["[ 9223372036854775807 -gt 9223372036854775806 ]; echo $?", "0\n", "", 0],
  ["[ -9223372036854775808 -lt 9223372036854775807 ]; echo $?", "0\n", "", 0],
  ["test 9007199254740993 -gt 9007199254740992; echo $?", "0\n", "", 0],
  ["echo $((7/-2)) $((-7%2)) $((-7/2)) $((7%-2))", "-3 -1 -3 1\n", "", 0],
  ["x=9223372036854775807; ((x++)); echo $x", "-9223372036854775808\n", "", 0],
  ["x=-9223372036854775808; ((x--)); echo $x", "9223372036854775807\n", "", 0],
  ["echo $((0x7fffffffffffffff & 0xff00ff00ff00ff00)) $((0x100000000 | 1)) $((0xffffffffff ^ 0xf))", "9151594822560186112 4294967297 1099511627760\n", "", 0],
  ["echo $((4294967296 >> 1)) $((-4294967296 >> 3)) $((2147483648 << 1))", "2147483648 -536870912 4294967296\n", "", 0],
  ["echo $((9007199254740993 > 9007199254740992)) $((9007199254740993 == 9007199254740992))", "1 0\n", "", 0],
  ["echo $((2**63 - 1)) $((2**62 + 2**62))", "9223372036854775807 -9223372036854775808\n", "", 0],
  ["echo $(( 9007199254740993 ? 1 : 0 )) $(( 9007199254740993 && 1 ))", "1 1\n", "", 0],
  ["a=(1 2 3); echo $(( a[1] * 9007199254740993 ))", "18014398509481986\n", "", 0],
  ["for ((i=9223372036854775805; i>0; i++)); do echo $i; done", "9223372036854775805\n9223372036854775806\n9223372036854775807\n", "", 0],
  ["echo $(( 1 , 9223372036854775807 ))", "9223372036854775807\n", "", 0],
  ["x=$((2**63)); echo $x", "-9223372036854775808\n", "", 0],
  ["echo $(( -(-9223372036854775807-1) ))", "-9223372036854775808\n", "", 0],
  ["echo $((1000000007 * 1000000009 % 998244353))", "744161313\n", "", 0],
  ["echo $((010)) $((0x1F)) $((2#1010))", "8 31 10\n", "", 0],
  ["f() { echo $((9223372036854775807 + 1)); }; f", "-9223372036854775808\n", "", 0],
  ["echo $(( $(echo 9007199254740993) + 1 )) $(( ${x:-9007199254740993} + 1 ))", "9007199254740994 9007199254740994\n", "", 0],
  ["expr 9223372036854775807 + 1", "9223372036854775808\n", "", 0],
  ["expr 99999999999999999999 \\* 3", "299999999999999999997\n", "", 0],
  ["expr 9007199254740993 + 0", "9007199254740993\n", "", 0],
  ["expr -7 / 2; expr -7 % 2; expr 7 - 9", "-3\n-1\n-2\n", "", 0],
  ["expr 9007199254740993 = 9007199254740992", "0\n", "", 1],
  ["expr 9007199254740993 \\> 9007199254740992", "1\n", "", 0],
  ["expr 5 / 0", "", "expr: division by zero\n", 2],
  ["expr abc + 1", "", "expr: non-integer argument\n", 2],
  ["expr abc = abc", "1\n", "", 0],
  ["seq 9007199254740993 9007199254740994", "9007199254740993\n9007199254740994\n", "", 0],
  ["seq 18446744073709551614 18446744073709551617", "18446744073709551614\n18446744073709551615\n18446744073709551616\n18446744073709551617\n", "", 0],
  ["seq -s, 9007199254740993 2 9007199254740997", "9007199254740993,9007199254740995,9007199254740997\n", "", 0],
  ["seq 3 -1 1", "3\n2\n1\n", "", 0],
  ["seq -w 8 11", "08\n09\n10\n11\n", "", 0],
  ["seq 1.5 3", "1.5\n2.5\n", "", 0],
  ["seq 5", "1\n2\n3\n4\n5\n", "", 0],
  ["echo $((1+)); echo after", "", "bash: line 1: 1+: syntax error: operand expected (error token is \"+\")\n", 1],
  ["[ abc -eq 1 ]; echo $?", "2\n", "bash: line 1: [: abc: integer expression expected\n", 0],
  ["test 1 -eq abc; echo $?", "2\n", "bash: line 1: test: abc: integer expression expected\n", 0],
  ["test 1 -eq \"\"; echo $?", "2\n", "bash: line 1: test: : integer expression expected\n", 0],
  ["[ \" 12 \" -eq 12 ]; echo $?", "0\n", "", 0],
  ["[ ! abc -eq 1 ]; echo $?", "2\n", "bash: line 1: [: abc: integer expression expected\n", 0],
  ["[ 99999999999999999999 -eq 1 ] || echo $?", "2\n", "bash: line 1: [: 99999999999999999999: integer expression expected\n", 0],
  ["[ abc -eq xyz ]; echo $?", "2\n", "bash: line 1: [: abc: integer expression expected\n", 0],
  ["[[ \"\" -eq 0 ]]; echo $?", "0\n", "", 0],
  ["[ 1 -eq 1 ] && echo yes", "yes\n", "", 0],
  // Issue 25, adversary round 24: `<<` inside (( )), for (( )) and let is a shift (just-bash read a here-document: the
  // script failed to parse, status 2), a word after < > << >> beginning with = closes the operator, slice positions past
  // 2**53 are clamped (just-bash threw a BigInt error), a NUL from \u ends $'...', return N takes N's low 8 bits.
  ["echo start; if (( 5 & (1<<0) )); then echo odd; fi; echo end", "start\nodd\nend\n", "", 0],
  ["for ((i=0; i < (1<<2); i++)); do echo $i; done", "0\n1\n2\n3\n", "", 0],
  ["((x=1<<2)); echo $x", "4\n", "", 0],
  ["let \"x = 1 << 2\"; echo $x", "4\n", "", 0],
  ["let 'x=1<<2'; echo $x", "4\n", "", 0],
  ["x=1; ((x<<=40)); echo $x", "1099511627776\n", "", 0],
  ["x=1; let \"x<<=3\" 'y=-8>>1'; echo $x $y", "8 -4\n", "", 0],
  ["x=8; ((x>>=1)); echo $x; ((3<=5)) && echo le; ((x>=2)) && echo ge", "4\nle\nge\n", "", 0],
  ["((y=1<<-1)); echo $y", "-9223372036854775808\n", "", 0],
  ["cat <<EOF\nhere\nEOF", "here\n", "", 0],
  ["s=abc; echo ${s:1:$((2**62))}", "bc\n", "", 0],
  ["x=abcdef; echo \"${x:$((2**62))}\" done", " done\n", "", 0],
  ["s=abc; echo ${s:$((-2**62))} x", "x\n", "", 0],
  ["s=abcdef; echo ${s: -9007199254740993:2} x; echo ${s: -10:2} y; echo ${s: -6:2} ${s: -2}", "x\ny\nab ef\n", "", 0],
  ["a=(a b c); echo \"${a[@]:1:9007199254740993}\"; echo ${a[@]:1:9007199254740993}", "b c\nb c\n", "", 0],
  ["a=(a b c); echo \"${a[@]: -9007199254740993}\" x \"${a[@]:9007199254740993}\" y", "x y\n", "", 0],
  ["set -- a b c; echo \"${@:9007199254740993}\" x; echo \"${@:1:9007199254740993}\" y", "x\na b c y\n", "", 0],
  ["set -- a b c; echo \"${@: -9007199254740993}\" x ${*:2:$((2**62))}", "x b c\n", "", 0],
  ["echo $'a\\u0000b'c $'a\\U00000000b'c $'a\\0b'c $'a\\x00b'c $'x\\u41y'", "ac ac ac ac xAy\n", "", 0],
  ["f() { return 9007199254740993; }; f; echo $?; f() { return -9007199254740993; }; f; echo $?", "1\n255\n", "", 0],
  ["exit 9007199254740993", "", "", 1],
  // Issue 25, the open findings after round 24: a substring length that ends before its offset is bash's error, which
  // ends the shell with status 1 (a subshell, $(...) and eval only themselves); ours printed an empty line and went on.
  ["s=abc; echo ${s:0:-9007199254740993}; echo after", "", "bash: line 1: -9007199254740993: substring expression < 0\n", 1],
  ["s=abc; echo ${s:0:-5}; echo after", "", "bash: line 1: -5: substring expression < 0\n", 1],
  ["s=abc; echo ${s:0:-3}; echo after", "\nafter\n", "", 0],
  ["s=abc; echo ${s:1:-3}; echo after $?", "", "bash: line 1: -3: substring expression < 0\n", 1],
  ["s=abc; echo ${s:0:-4}; echo after $?", "", "bash: line 1: -4: substring expression < 0\n", 1],
  ["set -e; s=abc; echo ${s:0:-5}; echo after", "", "bash: line 1: -5: substring expression < 0\n", 1],
  ["s=abc; x=${s:0:-5}; echo after $?", "", "bash: line 1: -5: substring expression < 0\n", 1],
  ["s=abc; echo \"${s:0:-5}\" || echo failed; echo after $?", "", "bash: line 1: -5: substring expression < 0\n", 1],
  ["a=(a b c); echo \"${a[@]:1:-9007199254740993}\"; echo after", "", "bash: line 1: -9007199254740993: substring expression < 0\n", 1],
  ["a=(a b c); echo \"${a[@]:1:-1}\"; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["s=abc; echo ${s:2:-2}; echo after $?", "", "bash: line 1: -2: substring expression < 0\n", 1],
  ["s=abcdef; echo ${s:(-2):-1} ${s: -3:-1}; echo ${s: -3:-4}; echo after", "e de\n", "bash: line 1: -4: substring expression < 0\n", 1],
  ["eval 's=abc; echo ${s:0:-5}; echo in'; echo after $?", "after 1\n", "bash: line 1: -5: substring expression < 0\n", 0],
  ["s=abc; (echo ${s:0:-5}; echo sub); echo after $?", "after 1\n", "bash: line 1: -5: substring expression < 0\n", 0],
  ["s=abc; echo $(echo ${s:0:-5}; echo sub) after $?", "after 1\n", "bash: line 1: -5: substring expression < 0\n", 0],
  ["s=abc; echo ${s:0:1-5}; echo after", "", "bash: line 1: 1-5: substring expression < 0\n", 1],
  ["s=abc; n=-5; echo ${s:0:n}; echo after", "", "bash: line 1: n: substring expression < 0\n", 1],
  ["s=abc; n=-5; echo ${s:0:$n}; echo after", "", "bash: line 1: $n: substring expression < 0\n", 1],
  ["s=abc; echo ${s:0: -5 }; echo after", "", "bash: line 1:  -5 : substring expression < 0\n", 1],
  ["a=(a b c); echo ${a[@]:0:1-3}; echo after", "", "bash: line 1: 1-3: substring expression < 0\n", 1],
  ["set -- a b c; echo ${@:1:-1}; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["set -- a b c; echo \"${*:1:-1}\"; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["s=abc; echo ${s:0:-5}", "", "bash: line 1: -5: substring expression < 0\n", 1],
  ["s=abc; echo ${s:0:-5} x; echo y", "", "bash: line 1: -5: substring expression < 0\n", 1],
  ["s=abc; echo ${s:5:-1} x; echo after", "x\nafter\n", "", 0],
  ["s=abc; echo ${s:3:-1} x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["s=abc; echo ${s:-1:-1} x; echo after", "abc x\nafter\n", "", 0],
  ["s=abc; echo ${s: -1:-1} x; echo after", "x\nafter\n", "", 0],
  ["s=abc; echo ${s: -5:-1} x; echo after", "x\nafter\n", "", 0],
  ["a=(a b c); echo ${a[@]:5:-1} x; echo after", "x\nafter\n", "", 0],
  ["a=(a b c); echo \"${a[@]:1:-1}\" x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["set -- a b c; echo \"${@:1:-1}\" x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["set -- a b c; echo \"${@:7:-1}\" x; echo after", "x\nafter\n", "", 0],
  ["set -- a b c; echo x \"${@:1:-1}\" x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["a=(a b c); echo x \"${a[@]:1:-1}\" x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["u=; echo ${u:0:-1} x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["echo ${unset:0:-1} x; echo after", "x\nafter\n", "", 0],
  ["echo a; s=abc; echo ${s:0:-5}; echo after", "a\n", "bash: line 1: -5: substring expression < 0\n", 1],
  ["echo ${nosuch[@]:0:-1} x; echo after", "x\nafter\n", "", 0],
  ["a=(); echo ${a[@]:0:-1} x; echo after", "x\nafter\n", "", 0],
  ["a=(a b c); echo ${a[@]:3:-1} x; echo after", "x\nafter\n", "", 0],
  ["a=(a b c); echo ${a[@]: -1:-1} x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["a=(a b c); echo ${a[@]: -4:-1} x; echo after", "x\nafter\n", "", 0],
  ["a=([5]=a); echo ${a[@]:2:-1} x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["set --; echo ${@:0:-1} x; echo after", "", "bash: line 1: -1: substring expression < 0\n", 1],
  ["echo ${1:0:-1} x; echo after", "x\nafter\n", "", 0],
  // Issue 25, the open findings after round 24: an arithmetic error says where bash stopped, `(error token is "...")`;
  // (( )) and let name themselves and the line; an error in a substring's offset or an array subscript ends the shell.
  ["echo a; echo $((1/0)); echo after", "a\n", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["echo $((5%0)); echo after", "", "bash: line 1: 5%0: division by 0 (error token is \"0\")\n", 1],
  ["echo $((2**-1)); echo after", "", "bash: line 1: 2**-1: exponent less than 0 (error token is \"1\")\n", 1],
  ["echo $(( 1 + 2/0 + 3 )); echo after", "", "bash: line 1: 1 + 2/0 + 3 : division by 0 (error token is \"0 + 3 \")\n", 1],
  ["x=0; echo $((10/x)); echo after", "", "bash: line 1: 10/x: division by 0 (error token is \"x\")\n", 1],
  ["eval 'echo a; echo $((1/0)); echo b'; echo after $?", "a\nafter 1\n", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 0],
  ["x=abc; echo ${x:1/0}; echo after $?", "", "bash: line 1: x: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["a[1/0]=1; echo after $?", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["((1/0)); echo after $?", "after 1\n", "bash: line 1: ((: 1/0: division by 0 (error token is \"0\")\n", 0],
  ["let 'x=1/0'; echo after $?", "after 1\n", "bash: line 1: let: x=1/0: division by 0 (error token is \"0\")\n", 0],
  ["((1+)); echo after $?", "after 1\n", "bash: line 1: ((: 1+: syntax error: operand expected (error token is \"+\")\n", 0],
  ["let 1+; echo after $?", "after 1\n", "bash: line 1: let: 1+: syntax error: operand expected (error token is \"+\")\n", 0],
  ["x=5; echo $((x/=0)); echo after", "", "bash: line 1: x/=0: division by 0 (error token is \"0\")\n", 1],
  ["echo $((x%=0)); echo after", "", "bash: line 1: x%=0: division by 0 (error token is \"0\")\n", 1],
  ["echo $((2**63**0 / 0)); echo after", "", "bash: line 1: 2**63**0 / 0: division by 0 (error token is \"0\")\n", 1],
  ["echo $((3, 4/0)); echo after", "", "bash: line 1: 3, 4/0: division by 0 (error token is \"0\")\n", 1],
  ["echo $(( 9223372036854775807 / 0 )); echo after", "", "bash: line 1: 9223372036854775807 / 0 : division by 0 (error token is \"0 \")\n", 1],
  ["echo $((2**-1 + 5))", "", "bash: line 1: 2**-1 + 5: exponent less than 0 (error token is \"+ 5\")\n", 1],
  ["x=1; echo $((2 ** -x ))", "", "bash: line 1: 2 ** -x : exponent less than 0 (error token is \"x \")\n", 1],
  ["echo $((2**(-1)))", "", "bash: line 1: 2**(-1): exponent less than 0 (error token is \")\")\n", 1],
  ["echo $((2**(0-1)*3))", "", "bash: line 1: 2**(0-1)*3: exponent less than 0 (error token is \"*3\")\n", 1],
  ["echo $((2**-1))", "", "bash: line 1: 2**-1: exponent less than 0 (error token is \"1\")\n", 1],
  ["echo $(( 2 ** - 1 ))", "", "bash: line 1: 2 ** - 1 : exponent less than 0 (error token is \"1 \")\n", 1],
  ["echo $((4/(1-1)))", "", "bash: line 1: 4/(1-1): division by 0 (error token is \"(1-1)\")\n", 1],
  ["echo $((4/(1-1) + 2))", "", "bash: line 1: 4/(1-1) + 2: division by 0 (error token is \"(1-1) + 2\")\n", 1],
  ["echo $((4 % 0x0))", "", "bash: line 1: 4 % 0x0: division by 0 (error token is \"0x0\")\n", 1],
  ["echo $((4/ 0))", "", "bash: line 1: 4/ 0: division by 0 (error token is \"0\")\n", 1],
  ["echo $((4/0 ? 1 : 2))", "", "bash: line 1: 4/0 ? 1 : 2: division by 0 (error token is \"0 ? 1 : 2\")\n", 1],
  ["x=3; echo $((x/=0 ))", "", "bash: line 1: x/=0 : division by 0 (error token is \"0 \")\n", 1],
  ["x=3; echo $((x/= 0 , 2))", "", "bash: line 1: x/= 0 , 2: division by 0 (error token is \", 2\")\n", 1],
  ["echo $((1 + (4/0)))", "", "bash: line 1: 1 + (4/0): division by 0 (error token is \"0)\")\n", 1],
  ["echo $((-2**-3))", "", "bash: line 1: -2**-3: exponent less than 0 (error token is \"3\")\n", 1],
  ["let a=1 b=2/0 c=3; echo $a $c $?", "1 1\n", "bash: line 1: let: b=2/0: division by 0 (error token is \"0\")\n", 0],
  ["x=abc; echo ${x:0:1/0}; echo after $?", "", "bash: line 1: x: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["a[1+]=1; echo after $?", "", "bash: line 1: 1+: syntax error: operand expected (error token is \"+\")\n", 1],
  ["a=(1 2); echo ${a[1/0]}; echo after $?", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["a[2**-1]=1; echo after $?", "", "bash: line 1: 2**-1: exponent less than 0 (error token is \"1\")\n", 1],
  ["x=abc; echo ${x:1+}; echo after $?", "", "bash: line 1: x: 1+: syntax error: operand expected (error token is \"+\")\n", 1],
  // Issue 25, the open findings after round 24: an indexed array's subscripts are 64-bit (they were doubles: past 2**53
  // two met), a negative one counts from the last index, and a bad one ends the shell as bash's.
  ["a[9007199254740993]=x; echo ${!a[@]}", "9007199254740993\n", "", 0],
  ["a[9007199254740993]=1; a[9007199254740992]=2; echo ${#a[@]} ${!a[@]}; echo ${a[@]}", "2 9007199254740992 9007199254740993\n2 1\n", "", 0],
  ["a=(1 2 3); a[-1]=x; echo ${a[@]} ${!a[@]}", "1 2 x 0 1 2\n", "", 0],
  ["a=(1 2 3); a[-4]=x; echo after $?", "", "bash: line 1: a[-4]: bad array subscript\n", 1],
  ["a=(1 2 3); echo ${a[-4]}; echo after $?", "\nafter 0\n", "bash: line 1: a: bad array subscript\n", 0],
  ["a[9223372036854775807]=x; echo ${!a[@]}", "9223372036854775807\n", "", 0],
  ["a[9223372036854775808]=x; echo ${!a[@]}", "", "bash: line 1: a[9223372036854775808]: bad array subscript\n", 1],
  ["a=(x y); a[9223372036854775807]=z; echo ${a[-1]} ${a[-3]} ${#a[@]}; unset \"a[-1]\"; echo ${!a[@]}", "z 3\n0 1\n", "", 0],
  ["a[2**62]=x; a+=(y); echo ${!a[@]}", "4611686018427387904 4611686018427387905\n", "", 0],
  ["a[2**62]=x; a[-1]=w; echo ${a[@]} ${!a[@]}", "w 4611686018427387904\n", "", 0],
  ["a[9007199254740993]=p; echo $(( a[9007199254740993] )) ${a[9007199254740993]} ${a[-1]}; echo $(( a[-1] ))", "0 p p\n0\n", "", 0],
  ["a[9007199254740993]=5; (( a[9007199254740993]++ )); echo ${a[9007199254740993]}", "6\n", "", 0],
  ["a=(); a[3]=c; a[9007199254740995]=e; a[9007199254740994]=d; for k in \"${!a[@]}\"; do echo $k=${a[$k]}; done", "3=c\n9007199254740994=d\n9007199254740995=e\n", "", 0],
  ["a[5]=1; a[18446744073709551617]=2; echo ${!a[@]}", "1 5\n", "", 0],
  // Issue 25, adversary round 26: a+=(...) after index 9223372036854775807 wraps to -9223372036854775808, and that element is
  // listed (it was stored but never shown); an arithmetic error in an assignment to an integer variable (declare -i) ends the
  // shell with status 1 and bash's message (just-bash set 0 and went on); `0x` alone is 0; a number bash cannot read names
  // itself and the expression up to it (`08`, `2#`, `1#1`, `0#1`, `0xg`: just-bash wrote the token twice or not at all). Before: 4 of
  // these 50 rows held.
  ["a[9223372036854775807]=x; a+=(q); echo \"${!a[@]}\" \"${a[@]}\"; echo end", "-9223372036854775808 9223372036854775807 q x\nend\n", "", 0],
  ["a[9223372036854775807]=x; a+=(q r); echo $?; declare -p a", "0\ndeclare -a a=([-9223372036854775808]=\"q\" [-9223372036854775807]=\"r\" [9223372036854775807]=\"x\")\n", "", 0],
  ["a[9223372036854775806]=x; a+=(q r); echo $?; declare -p a", "0\ndeclare -a a=([-9223372036854775808]=\"r\" [9223372036854775806]=\"x\" [9223372036854775807]=\"q\")\n", "", 0],
  ["a[9223372036854775807]=x; a[${#a[@]}]=y; declare -p a", "declare -a a=([1]=\"y\" [9223372036854775807]=\"x\")\n", "", 0],
  ["declare -i x; x='1/0'; echo \"x=$x\" $?", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["declare -i x; x='1/0'; echo after", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["declare -i x=5; x='1/0' echo hi; echo after $x", "hi\nafter 5\n", "", 0],
  ["declare -i x; x+='1/0'; echo after $x", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["declare -i x; x=1+; echo after", "", "bash: line 1: 1+: syntax error: operand expected (error token is \"+\")\n", 1],
  ["declare -i x; x='2**-1'; echo after $x", "", "bash: line 1: 2**-1: exponent less than 0 (error token is \"1\")\n", 1],
  ["declare -i x; (x='1/0'); echo sub $?", "sub 1\n", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 0],
  ["declare -i x; x=3; echo $x; x='x*2'; echo $x", "3\n6\n", "", 0],
  ["echo $((0x + 1))", "1\n", "", 0],
  ["echo $((0x)); echo after", "0\nafter\n", "", 0],
  ["echo $((0x1 + 0x))", "1\n", "", 0],
  ["echo $((2#)); echo after", "", "bash: line 1: 2#: invalid integer constant (error token is \"2#\")\n", 1],
  ["echo $((08)); echo after", "", "bash: line 1: 08: value too great for base (error token is \"08\")\n", 1],
  ["echo $((64#)); echo after", "", "bash: line 1: 64#: invalid integer constant (error token is \"64#\")\n", 1],
  ["(( 0x + 1 )); echo st $?", "st 0\n", "", 0],
  ["let 'y=0x'; echo st $?", "st 1\n", "", 0],
  ["echo $((0xg))", "", "bash: line 1: 0xg: value too great for base (error token is \"0xg\")\n", 1],
  ["echo $((1 + 0x + 2))", "3\n", "", 0],
  ["a=(); a[9223372036854775807]=x; a+=(q); echo \"${!a[@]}\"", "-9223372036854775808 9223372036854775807\n", "", 0],
  ["echo $((1 + 08))", "", "bash: line 1: 1 + 08: value too great for base (error token is \"08\")\n", 1],
  ["echo $((1 + 0xg + 2))", "", "bash: line 1: 1 + 0xg: value too great for base (error token is \"0xg\")\n", 1],
  ["echo $((1 + 2#3))", "", "bash: line 1: 1 + 2#3: value too great for base (error token is \"2#3\")\n", 1],
  ["echo $((1 + 2# ))", "", "bash: line 1: 1 + 2#: invalid integer constant (error token is \"2#\")\n", 1],
  ["echo $((0X))", "0\n", "", 0],
  ["echo $((x=0x))", "0\n", "", 0],
  ["echo $((0x1g))", "", "bash: line 1: 0x1g: value too great for base (error token is \"0x1g\")\n", 1],
  ["echo $((10#))", "", "bash: line 1: 10#: invalid integer constant (error token is \"10#\")\n", 1],
  ["echo $((1+10#))", "", "bash: line 1: 1+10#: invalid integer constant (error token is \"10#\")\n", 1],
  ["echo $((65#1))", "", "bash: line 1: 65#1: invalid arithmetic base (error token is \"65#1\")\n", 1],
  ["echo $((1#1))", "", "bash: line 1: 1#1: invalid arithmetic base (error token is \"1#1\")\n", 1],
  ["echo $((0#1))", "", "bash: line 1: 0#1: invalid number (error token is \"0#1\")\n", 1],
  ["echo $((2#12))", "", "bash: line 1: 2#12: value too great for base (error token is \"2#12\")\n", 1],
  ["echo $((-0x))", "0\n", "", 0],
  ["echo $((0xx))", "", "bash: line 1: 0xx: value too great for base (error token is \"0xx\")\n", 1],
  ["echo $((08 + 1))", "", "bash: line 1: 08: value too great for base (error token is \"08\")\n", 1],
  ["(( 08 )); echo $?", "1\n", "bash: line 1: ((: 08: value too great for base (error token is \"08\")\n", 0],
  ["let x=08; echo $?", "1\n", "bash: line 1: let: x=08: value too great for base (error token is \"08\")\n", 0],
  ["(( 0xg + 1 )); echo $?", "1\n", "bash: line 1: ((: 0xg: value too great for base (error token is \"0xg\")\n", 0],
  ["echo $(( 08 ))", "", "bash: line 1: 08: value too great for base (error token is \"08\")\n", 1],
  ["echo $((2#1 + 3#))", "", "bash: line 1: 2#1 + 3#: invalid integer constant (error token is \"3#\")\n", 1],
  ["declare -i x=1/0; echo after $?", "", "bash: line 1: declare: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["declare -i x; declare x=1/0; echo after $?", "", "bash: line 1: declare: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["declare -i x; x=\" 1/0\"; echo after", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["declare -i x; x=5; x+=1/0; echo after", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1],
  ["declare -i x; x=0x; echo $x", "0\n", "", 0],
  ["declare -i x; x=08; echo after", "", "bash: line 1: 08: value too great for base (error token is \"08\")\n", 1],
];

/** Where ours still differs from bash, and what ours gives (docs/shell.md, "not matched yet"). */
const STILL_UNLIKE: ReadonlyArray<readonly [string, string, string, number]> = [
  // bash: `bash: line 1: ((: i<1/0: division by 0 (error token is "0")` (for (( ))'s message lacks the command and the line).
  ["for ((i=0; i<1/0; i++)); do :; done; echo after $?", "after 1\n", "bash: division by 0 (error token is \"0\")\n", 0],
  // bash: `bash: line 1: 1 2: syntax error in expression (error token is "2")`.
  ["echo $((1 2)); echo after", "", "bash: line 1: 1 2: 2: syntax error: invalid arithmetic operator (error token is \"2\")\n", 1],
  // bash keeps the blanks after the expression: `bash: line 1: ((: 1/0 : division by 0 (error token is "0 ")`.
  ["(( 1/0 )); echo after $?", "after 1\n", "bash: line 1: ((: 1/0: division by 0 (error token is \"0\")\n", 0],
  // bash: `bash: line 1: exit: 99999999999999999999: numeric argument required` (the status is bash's).
  ["exit 99999999999999999999", "", "bash: exit: 99999999999999999999: numeric argument required\n", 2],
  // bash: `environment: line 1: return: ...` here (the status is bash's).
  ["f() { return 99999999999999999999; }; f; echo $?", "2\n", "bash: return: 99999999999999999999: numeric argument required\n", 0],
  // declare's ([N]=v) list reads N as a double (bash: `declare -a a=([9007199254740993]="q" [9007199254740994]="r")`).
  ["declare -a a=([9007199254740993]=q); a+=(r); declare -p a", "declare -a a=([9007199254740992]=\"q\" [9007199254740993]=\"r\")\n", "", 0],
  // bash: `bash: line 1: [: abc: integer expression expected`, status 2 (with -a, -o or parentheses ours says nothing and gives 1).
  ["[ 1 -eq 1 -a abc -eq 1 ]; echo $?", "1\n", "", 0],
  // bash: -9223372036854775808 9223372036854775807 (after declare's ([N]=v) list, read as a double past 2**53 as noted above, a+=() fails).
  ["a=([9223372036854775807]=x); a+=(q); echo \"${!a[@]}\"", "", "bash: Cannot mix BigInt and other types, use explicit conversions\n", 1],
  // bash: `bash: line 1: 08: value too great for base (error token is "08")`, status 1 (a variable's value is read as decimal).
  ["x=08; echo $((x + 1))", "9\n", "", 0],
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

describe("integer arithmetic as bash has it (recorded from bash 5.2)", () => {
  it.each(RECORDED)("%s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });

  it.each(STILL_UNLIKE)("still unlike bash: %s", async (command, stdout, stderr, exitCode) => {
    expect(await shell.run(command)).toEqual({ stdout, stderr, exitCode, truncated: false });
  });
});
