/**
 * Fidelity where the docs shell once printed wrong values (issue 25): ripgrep's `-r`
 * references and `--crlf`, sed's `R` and case conversion, grep's `-T` columns, files without a
 * final newline through sed, and awk's numbers. Same comparison as fidelity.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { type FidelityCase, fidelitySuite } from "../helpers/fidelity.js";

const root = mkdtempSync(join(tmpdir(), "svc-values-"));
mkdirSync(join(root, "guides"));
mkdirSync(join(root, "api"));
mkdirSync(join(root, "data"));
mkdirSync(join(root, "text"));
const pages: Record<string, string> = {
  "guides/install.mdx": "---\ntitle: Install\n---\n# Install\n\nRun `npm install foo`.\n\n## Setup\n\nSet FOO=bar and foo=baz.\nfoo foo foo\n\n## Next\n\nDone.\n",
  "guides/crlf.md": "Line one\r\nline two foo\r\n\r\nFOO three\r\n",
  "guides/nonl.md": "no final newline foo",
  "guides/uni.md": "h\u00e9llo w\u00f6rld\nstra\u00dfe STRASSE \ufb01ne\n",
  "guides/many.md": Array.from({ length: 12 }, (_, i) => `line ${i + 1} foo${(i + 1) % 7}\n`).join(""),
  "api/tabs.md": "a\tb\tc\n1\t2\t3\n",
  "api/paras.md": "one a\ntwo b\n\n\nthree c\n\nfour d\n",
  "api/pats.md": "two\r\nc\r",
  "api/badpats.md": "two\n(b\n[c\n(b\n",
  "api/emptyre.md": "p\ns//X/\n",
  "guides/cls.md": "caf\u00e9 \u00c9cole\tx\u2003y Stra\u00dfe 12 K\nna\u00efve \u2014 \u00c9T\u00c9 a_b\n",
  "guides/bom.md": "\ufeff---\ntitle: BOM\n---\nfirst line\n",
  "api/blanks.md": "  alpha beta  \n\tgamma\t delta\t\n   \none\n  two  three   four \n\n x \n",
  "api/fold.md": "stra\u00dfe STRASSE \u1e9e ss\nKelvin \u212a k K\nohm \u2126 \u03c9 \u03a9\nangstrom \u212b \u00e5 \u00c5\nlong \u017f s S\nsigma \u03c3 \u03c2 \u03a3\nmicro \u00b5 \u03bc \u039c\n",
  "api/tr.md": "I\u0130\u0131i\nk\u0131rm\u0131z\u0131\nIstanbul\nSTRASSE stra\u00dfe\n",
  // glibc's classes where JS's Unicode properties differ: Arabic and fullwidth digits (letters to
  // glibc), titlecase ǅ (upper and lower), no-break and figure spaces (no space), «»—§ (punct).
  // awk's typing and IGNORECASE, od and xxd
  "data/nums.md": "10 9\n2 10\n1.0 1\nabc abd\n-3 -10\n0x1f 31\n 5 05\n1e3 1000\n",
  "data/case.md": "Hello World\nhello world\nHELLO there\nfoo Bar\n",
  "data/kv.md": "apple 3\nbanana 12\ncherry 7\napple 20\n",
  "data/bytes.md": `h\u00e9llo\tworld\n\u0001\u007f end\n${"abcdefghijklmnop".repeat(3)}X\n`,
  // sort -m, fold and tac
  "text/m1.md": "a 3\nc 1\ne 2\n",
  "text/m2.md": "b 9\nc 0\nd 8\nf 7\n",
  "text/unsorted.md": "c\na\nb\n",
  "text/prose.md": "The docs shell runs one command line over the reader's view of the docs.\n\tA tab, then  two  spaces and a verylongwordthatdoesnotfitanywhere at all.\nh\u00e9llo w\u00f6rld caf\u00e9 na\u00efve \u2014 \u00e9t\u00e9\nback\bspace and a carriage\rreturn\n\nno final newline here",
  "guides/glibc.md": "n\u00b0 \u0661\u0662 \uff11\uff12 x9\n\u01c4 \u01c5 \u01c6 \u2160\n a\u00a0b\u2007c\u202fd\u2003e\n\u00ab\u00e9\u00bb \u2014 \u00a7 \u00b5 caf\u00e9_1\n",
};
for (const [path, text] of Object.entries(pages)) writeFileSync(join(root, path), text);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CASES: readonly FidelityCase[] = [
  // rg -r: `$0` / `${0}` is the whole match, a group that does not exist is empty, `$1a` is a name
  { cmd: "rg -r '$0!' foo /guides/nonl.md" },
  { cmd: "rg -r '[${0}]' foo /guides/nonl.md" },
  { cmd: "rg -o -r '$0' 'f(o)o' /guides/install.mdx" },
  { cmd: "rg -r '<$9>' 'f(o)(o)' /guides/nonl.md" },
  { cmd: "rg -r '$1a|$$|${x|$-|${}' 'f(o)o' /guides/nonl.md" },
  { cmd: "rg -r '<${w}>' '(?P<w>f)oo' /guides/nonl.md" },
  { cmd: "rg -o -r '[$1]' '^(\\w)' /guides/many.md" },
  // rg --crlf: `$` before `\r\n`; what ripgrep adds ends in `\r\n`
  { cmd: "rg --crlf -n 'two foo$' /guides/crlf.md" },
  { cmd: "rg --crlf -c '^$' /guides/crlf.md" },
  { cmd: "rg --crlf -x 'Line one' /guides/crlf.md" },
  { cmd: "rg --crlf -o 'o$' /guides/crlf.md" },
  { cmd: "rg --crlf -c foo /guides" },
  { cmd: "rg --crlf -l foo /guides" },
  { cmd: "rg --crlf foo /guides/nonl.md" },
  { cmd: "rg 'two foo$' /guides/crlf.md" },
  { cmd: "printf 'a foo\\nb foo' | rg --crlf -n -C1 b" },
  { cmd: "printf 'a foo\\nb foo' | rg --crlf -n a" },
  // rg on one thread (sorted, -j1) words a missing path as an IO error
  { cmd: "rg foo nope", rgUnsorted: true },
  { cmd: "rg --sort path foo nope", rgUnsorted: true },
  { cmd: "rg -j1 foo nope /guides/nonl.md", rgUnsorted: true },
  // sed: R reads one line per run (across input files), \U/\L per character (ß stays ß)
  { cmd: "sed '2R api/tabs.md' /guides/many.md | head -5" },
  { cmd: "sed 'R api/tabs.md' /guides/nonl.md /guides/nonl.md /guides/nonl.md" },
  { cmd: "sed 'R guides/nonl.md' /api/tabs.md" },
  { cmd: "sed '1R /nope' /api/tabs.md" },
  { cmd: "sed 's/.*/\\U&/' /guides/uni.md" },
  { cmd: "sed 's/.*/\\L&/;s/^./\\u&/' /guides/uni.md" },
  // sed on a file without a final newline: p and s///p keep it missing, r copies the file as is, q adds one
  { cmd: "sed -n p /guides/nonl.md /guides/nonl.md" },
  { cmd: "sed -n 1p /guides/nonl.md /api/tabs.md" },
  { cmd: "sed p /guides/nonl.md" },
  { cmd: "sed -n 's/foo/bar/p' /guides/nonl.md" },
  { cmd: "sed '1r guides/nonl.md' /api/tabs.md" },
  { cmd: "sed '$r guides/nonl.md' /api/tabs.md" },
  { cmd: "sed 'r guides/nonl.md' /guides/nonl.md" },
  { cmd: "sed q5 /guides/nonl.md; echo \" $?\"" },
  { cmd: "sed -n '1{p;q}' /guides/nonl.md" },
  { cmd: "sed '$!d' /guides/nonl.md /guides/nonl.md" },
  { cmd: "sed 'N;P;D' /guides/nonl.md" },
  // grep -T: numbers as wide as the file's size (plus one with -n) has digits, no tab before an empty line
  { cmd: "grep -T -n foo /guides/install.mdx" },
  { cmd: "grep -nT -A1 Setup /guides/install.mdx" },
  { cmd: "grep -T -b foo /guides/install.mdx" },
  { cmd: "grep -T -n -b a /api/tabs.md" },
  { cmd: "grep -T -H 1 /api/tabs.md" },
  { cmd: "grep -nT -v one /api/paras.md" },
  { cmd: "cat /api/tabs.md | grep -T -n 1" },
  // awk (just-bash's, corrected by src/engine/shell/just-bash-patches.mjs): values as gawk prints them
  { cmd: "awk 'BEGIN{print int(-3.7), int(-0.5), int(3.7), int(\"-2.5x\")}'" },
  { cmd: "awk 'BEGIN{printf \"%d %i %5d|%-4d|\\n\", -3.7, -0.2, -12.9, 7.9}'" },
  { cmd: "echo '-3.7 -0.2' | awk '{print int($1), int($2)}'" },
  { cmd: "awk 'BEGIN{print 1e20, 1e30, -1e20, 2^53, 1e6, 1234567.5, 0.1+0.2}'" },
  { cmd: "awk 'BEGIN{printf \"%e %E %.1e %g %G %g %g\\n\", 12345.678, 5, 1234.5, 1e20, 1e-10, 100000, 1e100}'" },
  { cmd: "awk 'BEGIN{print 0.000001, 1e-5 \"\", 1/3 \"\", length(1/3), 2^53 \"\"}'" },
  { cmd: "awk 'BEGIN{x[1/4] = 1; for (k in x) print k}'" },
  { cmd: "awk 'BEGIN{printf \"%.0f %.0f %.0f %.0f %.2f %.2f %.1f %5.0f|\\n\", 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 0.25, 4.5}'" },
  { cmd: "awk 'BEGIN{n = split(\"\", a); print n, length(a)}'" },
  { cmd: "awk '{print toupper($0); print tolower($0)}' /guides/uni.md" },
  { cmd: "awk '{print NF}' /guides/crlf.md" },
  { cmd: "awk '{$1=$1}1' /guides/crlf.md" },
  { cmd: "awk '{print length($NF), length($0)}' /guides/crlf.md" },
  { cmd: "awk 'BEGIN{print substr(1e20, 1, 3), index(1/3, 3), toupper(0.1)}'" },
  // awk, second round: CONVFMT, string comparisons, element references, length(array), source
  // constants, signed exponents, printf's conversions and missing arguments, RS, inf and nan
  { cmd: "awk 'BEGIN{CONVFMT=\"%.2g\"; x=3.14159; y=x \"\"; print y, CONVFMT; a[x]=1; for(k in a) print k}'" },
  { cmd: "awk -v CONVFMT=%.3f 'BEGIN{x=0.1; print (x \"\"), x}'" },
  { cmd: "awk 'BEGIN{print (\"10\" < \"9\"), (\"abc\" < \"abd\"), (10 < 9), (\"a\" substr(\"10\", 1) < \"a9\")}'" },
  { cmd: "echo '10 9 1.0 0x1f' | awk '{print ($1 < $2), ($3 == 1), ($3 == \"1\"), (($1 \"\") < $2), ($4 < 1)}'" },
  { cmd: "awk 'BEGIN{x[\"a\"]; print length(x); if (\"b\" in x) print 1; print length(x)}'" },
  { cmd: "awk '{n[$1]++} END{print length(n), length(\"h\u00e9\")}' /api/paras.md" },
  { cmd: "awk 'function f(a){return length(a)} BEGIN{q[1]; q[2]; print f(q), length(ARGV)}' x y" },
  { cmd: "awk 'BEGIN{print 017, 0x11, 018, 0x1F+1, 1.5e3}'" },
  { cmd: "awk 'BEGIN{print 2**-1, 2**3, 2^-2, -2^2, 2^-2^2}'" },
  { cmd: "awk 'BEGIN{printf \"%u %u|%#x %#o %X %x|%#o %#x %#X %o %.3x %08.3d|%-8x|%08x|%+u\\n\", -1, 5, 255, 8, -1, -255, 0, 0, 255, -8, 5, 42, -1, 255, 5}'" },
  { cmd: "awk 'BEGIN{printf \"%d %d %x|%.0d|%5.0d|%05d|%-5d|%+d|% d\\n\", 1e30, -1e19, 2^64, 0, 0, -42, 42, 3, 3}'" },
  { cmd: "awk 'BEGIN{printf \"%d %d %d %5.1f %e\\n\", \"12px\", \"0x1f\", \" 7 \", \"3.14abc\", \"2x\"}'" },
  { cmd: "echo '12px 3' | awk '{printf \"%d|%s\\n\", $1, $1+$2; print $1*2}'" },
  { cmd: "awk 'BEGIN{print \"a\"; printf \"%s %5d\\n\", 1}'" },
  { cmd: "awk 'BEGIN{x = sprintf(\"%s\"); print x}'" },
  { cmd: "awk 'BEGIN{x=1e400; print x, -x, log(0); printf \"%d %f|%5.2f|%-6d|%u\\n\", x, x, -x, x, -x}'" },
  { cmd: "awk 'BEGIN{RS=\"\"}{print NR\": \"$0\" (\"NF\")\"}' /api/paras.md" },
  { cmd: "awk 'BEGIN{RS=\"\"; FS=\"o\"}{print NF}END{print NR}' /api/paras.md /guides/install.mdx" },
  { cmd: "printf 'a;b;c\\n' | awk 'BEGIN{RS=\";\"}{print NR, $0}'" },
  { cmd: "printf 'a12b345c\\n' | awk -v RS='[0-9]+' '{print NR\":\"$0}'" },
  { cmd: "echo '10 9' | awk '{print $1 \" \" $2 ~ /0 9/, $1 \"\" < $2; printf \"%s\\n\", \"a\" $2 == \"a9\"}'" },
  // awk split(): FS's default " " splits on runs of blanks and ignores them at both ends, one other
  // character is itself, "" splits characters, a longer separator is a regex whose empty matches separate nothing
  { cmd: "awk '{n=split($0,a); printf \"%d:\", n; for(i=1;i<=n;i++) printf \"[%s]\", a[i]; print \"\"}' /api/blanks.md" },
  { cmd: "awk 'BEGIN{n=split(\" \\t1 2\\n\",x); m=split(\"  a b  \",y,\" \"); k=split(\"a\\rb c\",z); print n, x[1], x[2], m, y[1] y[2], k, length(z[1]), split(\"   \",w)}'" },
  { cmd: "awk 'BEGIN{s=\"a,b  c:d.e|f ab g\"; print split(s,x,\"[, ]+\"), x[2]; print split(s,x,\".\"), x[2]; print split(s,x,\"|\"), x[2]; print split(s,x,/,*/), x[2]; print split(\"h\u00e9\u00ee\",x,\"\"), x[2]}'" },
  { cmd: "awk 'BEGIN{FS=\"[ ]\"} {print split($0,a), NF}' /api/blanks.md" },
  { cmd: "echo 'a,,b' | awk -F',*' '{print NF, $2}'" },
  { cmd: "printf 'a|b.c\\n' | awk -v FS='|' '{print NF, $2}'; printf 'a|b.c\\n' | awk 'BEGIN{FS=\".\"} {print NF, $2}'" },
  { cmd: "printf ' a b \\na\\rb c\\n' | awk '{gsub(/q/,\"\"); print NF, $1; $0=\"\"; print NF}'" },
  // awk comparisons: an unset variable or element is 0 beside a number and "" beside a string; a
  // variable assigned a string (substr, a concatenation, a constant) compares as text, one assigned a field as a number
  { cmd: "awk 'BEGIN{print (x == 0), (x == \"\"), (y < -1); a[1]; print (a[1] == 0), (a[1] == \"\"), (ENVIRON[\"SVC_NOPE\"] == 0)}'" },
  { cmd: "printf -- '-5\\n-3\\n-9\\n' | awk '$1 > max {max=$1} END{print \"[\" max \"]\"}'" },
  { cmd: "echo '10 9' | awk '{x = substr($1, 1); y = x; print (x < $2), (y < $2); x = $1; print (x < $2); x = \"10\"; print (x < 9)}'" },
  { cmd: "awk 'function f(a, b){return (a < b) \" \" (b == 0)} {print f($1, $2), f($1)}' /api/tabs.md" },
  // rg -f strips each pattern line's \r\n (a last line without \n keeps its \r); grep keeps the \r
  { cmd: "rg -n -f /api/pats.md /api/paras.md" },
  { cmd: "grep -c -f /api/pats.md /api/paras.md" },
  { cmd: "rg -c -f /api/pats.md /guides/crlf.md" },
  // sed's M flag: `.` and `[^...]` stop at the pattern space's newlines (glibc's REG_NEWLINE), ^ and $ match at them
  { cmd: "printf 'ab\\ncd\\n' | sed -E 'N;s/a.*/X/M'; printf 'ab\\ncd\\n' | sed 'N;s/a[^x]*/X/M;s/^c/C/M'; printf 'ab\\ncd\\n' | sed -E 'N;s/a.*/X/'" },
  // sed's pattern space: [[:space:]], [[:cntrl:]] and [\n] hold the newline, \W too under M, a negated list not under M (adversary round 31 F3)
  { cmd: "sed 'N;s/[\\n]/_/' /api/paras.md; sed 'N;s/a[[:cntrl:]]/_/' /api/paras.md; sed -E 'N;N;s/a\\W/X/M' /api/paras.md" },
  { cmd: "sed ':a;N;$!ba;s/[[:space:]]\\+/ /g' /api/paras.md; sed -n 'N;/a[[:space:]]t/Mp' /api/paras.md; sed 'N;s/[^[:space:]]*$/Z/M' /api/paras.md" },
  // sed -f /dev/null: an empty script
  { cmd: "sed -f /dev/null /api/tabs.md; sed -n -f /dev/null /api/tabs.md; echo $?" },
  // grep -f: each pattern regcomp refuses is reported, one from a file as FILE:LINE (a repeated one
  // at its first place); -e patterns and dfa's own diagnostics name no place. rg joins several
  // patterns with | and parses that: `-e '(a' -e 'b)'` is `(a|b)`, carets point into the join
  { cmd: "grep -E -f /api/badpats.md /api/paras.md; echo $?; grep -f /api/badpats.md /api/paras.md; grep -E -e '(a' -e '[c' /api/paras.md; echo $?" },
  { cmd: "cat /api/badpats.md | grep -E -f - /api/paras.md; grep -E -e two -f /api/badpats.md /api/paras.md; grep -E -f /api/pats.md -f /api/badpats.md /api/paras.md; echo $?" },
  { cmd: "printf '[:space:]\\n(b\\n' | grep -E -f - /api/paras.md; printf 'a\\n[:space:]\\n' | grep -f - /api/paras.md; printf 'a\\n\\\\(a\\\\)\\\\2\\n' | grep -f - /api/paras.md; echo $?" },
  { cmd: "rg -f /api/badpats.md /api/paras.md; rg -c -e '(t' -e 'o)' /api/paras.md; rg -e 'a)' -e '(b' /api/paras.md; cat /api/badpats.md | rg -F -c -f - /api/paras.md; echo $?" },
  // rg -f - reads the patterns from stdin: with no path it then searches ./ (not stdin), and `-` as a path is stdin
  { cmd: "cd /api; printf 'two\\nAuth\\n' | rg -c -f -; echo $?; printf 'Auth\\n' | rg -f - -; echo $?; printf 'c\\n' | rg -c -f - -f - - paras.md; echo two | rg two -; echo two | rg -H two -" },
  // sed: an empty regex with none used before it fails at run time, after what was printed, named by where the script ended
  { cmd: "echo a | sed 's//X/'; echo $?; echo a | sed -n '//p'; echo a | sed -e p -e 's//X/' -e p; echo a | sed '/a/d;s//X/'; echo $?; echo a | sed '\\,,p'; echo $?" },
  { cmd: "echo a | sed -f /api/emptyre.md; echo $?; echo a | sed -f /api/emptyre.md -e p; echo a | sed -e '$!d' -f /api/emptyre.md; printf '' | sed 's//X/'; echo $?" },
  { cmd: "printf 'two\\nzz\\n' | grep -c -f - /api/paras.md; printf 'one\\n' | grep -f -; echo $?" },
  // backreferences as glibc reads them: an empty pass of a repeat is kept, one digit, no group of an earlier alternative
  // (glibc's own answers for empty passes are not one rule: `echo ab | grep -oE '(a|)+b\1'` is `b`, and
  // sed reports \1 as `x` for the match `xy` above; both are listed as differences in docs/shell.md)
  { cmd: "echo xyb | grep -oE '(x?)*y\\1'; grep -cE '(a*)*\\1' /api/paras.md" },
  { cmd: "echo aa0 | grep -oE '(a)\\10'; echo aa0 | grep -o '\\(a\\)\\10'; echo aa | grep -oE '((a)|b)\\2'; echo b | grep -E '(a)|b\\1'; echo $?; echo b | sed -E 's/(a)|b\\1/X/'" },
  // grep -i: I, i and the dotless ı match one another (glibc), İ only itself; ripgrep folds by Unicode
  { cmd: "grep -in '\u0131' /api/tr.md" },
  { cmd: "grep -io 'i' /api/tr.md" },
  { cmd: "grep -ic '[h-j]z' /api/tr.md" },
  { cmd: "grep -ioE 'k[^i]rm' /api/tr.md" },
  { cmd: "grep -iF -o 'I' /api/tr.md" },
  { cmd: "grep -io '\u0130' /api/tr.md" },
  { cmd: "rg -io 'i' /api/tr.md" },
  // grep -i and sed I fold by glibc's towupper/towlower: k never matches the Kelvin sign K, nor ω the
  // Ohm sign Ω, nor å the Angstrom sign Å (each sign matches only itself), ß and ẞ stay apart
  { cmd: "grep -io 'k' /api/fold.md" },
  { cmd: "grep -io '[\u212a\u2126\u212b]' /api/fold.md" },
  { cmd: "grep -ioE '\u03c9|\u00e5|\u00df|\u1e9e|\u03c2|\u00b5' /api/fold.md" },
  { cmd: "grep -io '[j-l]' /api/fold.md; grep -ioF 'K' /api/fold.md; grep -iow 'k' /api/fold.md" },
  { cmd: "grep -io '[^a-z ]' /api/fold.md" },
  { cmd: "grep -ic 'STRA\u1e9eE' /api/fold.md; grep -il 'kelvin' /api/fold.md" },
  { cmd: "sed 's/k/<&>/Ig;s/\u03c9/<&>/Ig;s/\u00df/[&]/Ig;s/\u212b/{&}/Ig' /api/fold.md" },
  { cmd: "sed -n 's/\u212a/<&>/Igp;s/[\u2126]/{&}/Igp' /api/fold.md" },
  // ignoring case GNU reads [:upper:] and [:lower:] as [:alpha:] (ß matches); a range with an end past
  // ASCII is an error in glibc's C.UTF-8 (sed counts the error's position in bytes)
  { cmd: "printf '\u0138 \u00aa A\\n' | grep -io '[[:upper:]]'; printf '\u0138 \u00aa A\\n' | grep -ic '[^[:lower:] ]'; printf '\u0138 \u00aa A\\n' | sed 's/[[:upper:]]/U/Ig'" },
  { cmd: "grep -c '[\u00e0-\u00e9]' /api/fold.md; sed 's/[\u03b1-\u03c9]/x/' /api/fold.md; grep -c '[z-a]' /api/fold.md; find /api -regex '.*[\u00e0-\u00e9].*'" },
  // rg's POSIX classes are ASCII (Rust's regex crate), `[:^x:]` their complement; `(?-u)` makes \w \d \s \b ASCII
  { cmd: "rg -o '[[:alpha:]]+' /guides/cls.md" },
  { cmd: "rg -o '[[:^alpha:]]+' /guides/cls.md" },
  { cmd: "rg -o '[[:ascii:]]+' /guides/cls.md" },
  { cmd: "rg -o '[^[:ascii:]]+' /guides/cls.md" },
  { cmd: "rg -o '[[:^space:]]+' /guides/cls.md" },
  { cmd: "rg -o '[[:upper:][:digit:]]+' /guides/cls.md" },
  { cmd: "rg -o '[[:word:]]+' /guides/cls.md" },
  { cmd: "rg -c '[[:space:]]y' /guides/cls.md" },
  { cmd: "rg -o '(?i)[[:upper:]]+' /guides/cls.md" },
  { cmd: "rg -o '(?-u:\\w)+' /guides/cls.md" },
  { cmd: "rg -o '(?-u:\\s)(?-u:\\d)+' /guides/cls.md" },
  { cmd: "rg -o '(?-u)\\b[a-z]+\\b' /guides/cls.md" },
  // rg -P: PCRE2's classes are Unicode (its UCP mode), [:ascii:] is ASCII
  { cmd: "rg -oP '[[:alpha:]]+' /guides/cls.md" },
  { cmd: "rg -oP '[[:^alpha:][:upper:]]' /guides/cls.md" },
  { cmd: "rg -oP '[[:^alpha:]]+' /guides/cls.md" },
  { cmd: "rg -o '[^[:^alpha:]]+' /guides/cls.md" },
  { cmd: "rg -oP '[^[:ascii:]]+' /guides/cls.md" },
  // rg drops a leading UTF-8 BOM (it transcodes what it sniffs as UTF-8 with a BOM)
  { cmd: "rg -c '^---$' /guides/bom.md" },
  { cmd: "rg -n -b '^' /guides/bom.md" },
  { cmd: "rg -o '^.' /guides/bom.md" },
  { cmd: "cat /guides/bom.md | rg -x -- '---'" },
  // awk's POSIX classes are gawk's in a UTF-8 locale (glibc's: Unicode letters, no no-break spaces in space)
  { cmd: "awk '{print match($0,/[[:alpha:]]+ [[:punct:]]/), RLENGTH}' /guides/cls.md" },
  { cmd: "awk '{gsub(/[[:upper:]]/,\"U\"); print}' /guides/cls.md" },
  { cmd: "awk '{print gsub(/[[:space:]]/,\"_\"), $0}' /guides/cls.md" },
  { cmd: "awk '{n=split($0,a,/[^[:alpha:]]+/); print n, a[1], a[n]}' /guides/cls.md" },
  { cmd: "awk '/na[[:lower:]]ve/{gsub(/[[:punct:]]/,\"P\"); print}' /guides/cls.md" },
  { cmd: "awk '{gsub(\"[[:alnum:]]\",\"a\"); print}' /guides/cls.md" },
  // nl: a line it does not number is spaces as wide as the number and the separator
  { cmd: "nl /api/paras.md" },
  { cmd: "nl -s '::' -w3 /api/paras.md" },
  // tr -t: SET1 cut to SET2's length
  { cmd: "echo abcd | tr -t abc xy" },
  { cmd: "echo 'hello-world' | tr -t a-z- XY" },
  { cmd: "echo abcd | tr -ts abc x" },
  // jq debug: [\"DEBUG:\",value] on stderr
  { cmd: "jq -c '.[] | debug | . * 2' <<< '[1, 2]'" },
  { cmd: "jq debug <<< '{\"a\": [1, \"x\"]}'" },
  // compgen -G lists the glob's matches (sorted: the real order is the disk's); none: exit 1
  { cmd: "cd /api && compgen -G 'p*' | sort" },
  { cmd: "cd /guides && compgen -G '*.md' | sort" },
  { cmd: "compgen -G '/nope*'; echo $?" },
  // grep and sed classes as glibc's (C.UTF-8), recorded from GNU grep 3.8 and sed 4.9
  { cmd: "grep -o '[[:alpha:]]\\+' /guides/glibc.md" },
  { cmd: "grep -o '[[:upper:]]' /guides/glibc.md" },
  { cmd: "grep -o '[[:lower:]]' /guides/glibc.md" },
  { cmd: "grep -c '[[:space:]]b' /guides/glibc.md" },
  { cmd: "grep -o '[[:punct:]]' /guides/glibc.md" },
  { cmd: "grep -oE '[^[:alnum:][:space:]]+' /guides/glibc.md" },
  { cmd: "grep -o '\\w\\+' /guides/glibc.md" },
  { cmd: "grep -o '\\S\\+' /guides/glibc.md" },
  { cmd: "grep -ow '[0-9]' /guides/glibc.md" },
  { cmd: "sed 's/[[:alpha:]]/L/g;s/[[:punct:]]/P/g' /guides/glibc.md" },
  { cmd: "sed -n 's/\\s/_/gp' /guides/glibc.md" },
  { cmd: "sed 's/\\b/|/g' /guides/glibc.md" },
  // grep -P is PCRE2 without Unicode properties (grep 3.8): ASCII \d \w \s \b and classes; \D \W \S match ASCII only
  { cmd: "grep -P -o '\\d+' /guides/glibc.md" },
  { cmd: "grep -P -o '\\w+' /guides/glibc.md" },
  { cmd: "grep -P -o '\\W+' /guides/glibc.md" },
  { cmd: "grep -P -o '\\D+' /guides/glibc.md" },
  { cmd: "grep -P -o '[[:alpha:]]+' /guides/glibc.md" },
  { cmd: "grep -P -o '\\bcaf\\b' /guides/glibc.md" },
  { cmd: "grep -P -ow 'caf' /guides/glibc.md" },
  { cmd: "grep -P -o '\\p{L}+' /guides/glibc.md" },
  { cmd: "grep -P -io 'I' /api/tr.md" },
  { cmd: "rg -P -o '\\d+' /guides/glibc.md" },
  // awk array elements are typed as gawk types them: one assigned a string constant, a concatenation, substr() or a
  // string element holds a string and compares as text; one assigned a field or made by split() compares as a number
  { cmd: "awk 'BEGIN{a[1]=\"10\"; a[2]=\"9\"; b[1]=10; print (a[1] < a[2]), (a[1] < b[1] \"\"), (b[1] < a[2])}'" },
  { cmd: "awk '{a[NR]=$1 \"\"; b[NR]=substr($2,1); c[NR]=$1} END{print (a[1] < a[2]), (b[1] < b[2]), (c[1] < c[2])}' /data/nums.md" },
  { cmd: "echo '10 9' | awk '{a[1]=$1; x=a[1]; y=a[1] \"\"; z=y; b[1]=y; print (x < $2), (y < $2), (z < $2), (b[1] < $2)}'" },
  { cmd: "echo '10 9' | awk 'function f(v, w){return (v < w)} {a[1]=\"10\"; print f(a[1], $2), f($1, $2)}'" },
  { cmd: "awk 'BEGIN{a[1]=\"10\"; delete a[1]; split(\"10\", a); print (a[1] < 9); b[1]=\"10\"; delete b; b[1]=10; print (b[1] < 9)}'" },
  // sub() and gsub() change the element they are given (not $0), and what they changed is a string
  { cmd: "echo '10 9' | awk '{a[1]=$1; n=sub(/1/,\"X\",a[1]); print n, a[1], $0; a[2]=$1; sub(/1/,\"1\",a[2]); print (a[2] < $2); x=$1; gsub(/0/,\"0\",x); print (x < $2); split(\"10 9\", p); print (p[1] < p[2])}'" },
  // a field's truth is its number's when it looks like one (0.0 and -0 are false); +inf and -inf are infinite
  { cmd: "printf '0.0\\n-0\\n+0\\n 0 \\n0x0\\n00\\n.\\n1e-400\\n' | awk '{print NR, ($1 ? \"t\" : \"f\"), (!$0)}'" },
  { cmd: "echo '+inf -inf +NAN inf +infinity' | awk '{print $1+0, $2+0, $4+0, $5+0, ($1 > 1e308), ($2 < 0)}'" },
  // a string's \ddd and \xHH escapes are bytes: bytes that form UTF-8 are their character
  { cmd: "awk 'BEGIN{s = \"\\303\\251\"; print s, length(s), toupper(s), index(\"caf\u00e9\", s), \"\\xc3\\xa9x\", \"a\\101\\x42\"}'" },
  { cmd: "awk 'BEGIN{print \"\\303\\251\\n\\0\"}' | od -c" },
  // division by zero is fatal (the file and record named once input is read), a missing input file too after the
  // files before it, a folder is skipped with a warning; print > "/dev/stderr" and "/dev/stdout" are the streams
  { cmd: "awk '{print 10/$1}' /data/nums.md" },
  { cmd: "echo 1 | awk 'END{x=0; print 1%x}'; echo 1 | awk '{x=0; x/=0}'; awk 'BEGIN{x=0; print 1/x}'; echo $?" },
  { cmd: "awk 1 /data/kv.md /nope /data/case.md; echo $?" },
  { cmd: "awk 1 /data /data/kv.md; awk 'END{print NR}' /data/kv.md /data" },
  { cmd: "awk '{print > \"/dev/stderr\"; printf \"x%s\\n\", $0 > \"/dev/stdout\"; print \"y\" >> \"/dev/stderr\"}' /data/kv.md" },
  { cmd: "awk 'BEGIN{print \"err\" > \"/dev/stderr\"; print \"out\"}'; awk 'BEGIN{print \"err\" > \"/dev/stderr\"; exit 3}'; echo $?" },
  // printf %c: width and -, a number (or a field that looks like one) is a code point, "" is NUL
  { cmd: "awk 'BEGIN{printf \"%-3c|%3c|%c|%c|%2c|%c|\\n\", \"xyz\", 65, 233, \"\u00e9\", \"\u00e9a\", \"\"}' | od -c" },
  { cmd: "echo 'hello 66' | awk '{printf \"%5c|%-2c|%c\\n\", $1, $2, $2}'" },
  // asort and asorti: values (numbers first, then strings) or indices into elements 1..n
  { cmd: "awk '{sum[$1]+=$2} END{n=asorti(sum, k); for(i=1;i<=n;i++) print k[i], sum[k[i]]}' /data/kv.md" },
  { cmd: "awk '{v[NR]=$1} END{n=asort(v, w); print n, length(v); for(i=1;i<=n;i++) print w[i]}' /data/nums.md" },
  { cmd: "awk 'BEGIN{a[\"x\"]=\"10\"; a[\"y\"]=\"9\"; a[\"z\"]=5; n=asort(a); for(i=1;i<=n;i++) print a[i]; b[10];b[9];b[\"b\"];b[\"a\"]; n=asorti(b); for(i=1;i<=n;i++) print b[i]}'" },
  // IGNORECASE: regexes, string comparisons and index() ignore case while it is true; a one-character split stays exact
  { cmd: "awk 'BEGIN{IGNORECASE=1} /hello/' /data/case.md" },
  { cmd: "awk -v IGNORECASE=1 '$1 == \"hello\" {print NR} $0 ~ \"BAR\" {print \"bar\", NR}' /data/case.md" },
  { cmd: "awk 'BEGIN{IGNORECASE=1} {n=gsub(/o/, \"0\"); print n, $0, index($0, \"w\"), match($0, /L+/), RLENGTH}' /data/case.md" },
  { cmd: "awk 'BEGIN{IGNORECASE=1; print (\"abc\" < \"ABD\"), (\"a\" == \"A\"), split(\"aXbxc\", p, \"x\"), split(\"aXbxc\", q, /x/)}'" },
  { cmd: "awk '{IGNORECASE = (NR > 2)} /hello/' /data/case.md" },
  { cmd: "printf 'aXbxc\\n' | awk -F'x+' 'BEGIN{IGNORECASE=1} {print NF}'" },
  { cmd: "printf 'aXbxc\\n' | awk 'BEGIN{IGNORECASE=1; FS=\"x+\"} {print NF; IGNORECASE=0; $0=$0; print NF}'" },
  { cmd: "awk -v IGNORECASE=0 '/hello/' /data/case.md" },
  // sort -V is gnulib's filevercmp: letters before other characters, ~ before the end, suffixes set aside first
  { cmd: "sort -V /data/nums.md; sort -k2V /data/nums.md" },
  { cmd: "printf 'a10\\na2\\na1.10\\na1.9\\nv1.0.0-rc1\\nv1.0.0\\nv1.0.0~rc1\\nfoo.tar.gz\\nfoo-1.2.tar.gz\\nfoo-1.10.tar.gz\\n.hidden\\n..\\n.\\n\\nx~\\nx\\n' | sort -V" },
  { cmd: "printf 'b 1.2\\na 1.10\\nc 1.9\\n' | sort -k2,2V -r; printf 'abc\\nabc~\\nab\\nabcd\\nab1\\nab-1\\n' | sort -V" },
  // od (GNU coreutils 9.1): types, sizes, aligned fields, `*` for repeated lines, -A -j -N -w -v, the z trailer
  { cmd: "od -c /data/bytes.md" },
  { cmd: "od -tx1 /data/bytes.md" },
  { cmd: "od -An -tx1 /data/kv.md" },
  { cmd: "od /data/kv.md" },
  { cmd: "od -tx1 -c /data/case.md" },
  { cmd: "od -Ax -tx1z -v /data/bytes.md" },
  { cmd: "od -td1 -tu1 -to1 /data/kv.md" },
  { cmd: "od -ta -td2 -tx8 /data/bytes.md" },
  { cmd: "od -bcdosx /data/kv.md" },
  { cmd: "od -l -h /data/kv.md" },
  { cmd: "od -Ad -j 3 -N 10 -c /data/kv.md" },
  { cmd: "od -w4 -tx1 /data/kv.md; od -w3 -tx2 /data/case.md; od -w -tx1 /data/kv.md" },
  { cmd: "printf 'abc' | od -tx4 -c" },
  { cmd: "od -j 1000 /data/kv.md; od -j x /data/kv.md; od -A q /data/kv.md; od -t x3 /data/kv.md; od -t q /data/kv.md; echo $?" },
  { cmd: "od /nope /data/kv.md; od /data; echo $?" },
  { cmd: "od -c /data/nums.md /data/kv.md" },
  // xxd (vim's, 2022-01-14): the default dump with -c -g -s -l -u, and the plain one
  { cmd: "xxd /data/bytes.md" },
  { cmd: "xxd -p /data/bytes.md" },
  { cmd: "xxd -g1 -c8 /data/kv.md" },
  { cmd: "xxd -g 3 /data/kv.md; xxd -g 0 /data/kv.md" },
  { cmd: "xxd -u -s 3 -l 5 /data/kv.md; xxd -c8 -g4 -u /data/kv.md" },
  { cmd: "xxd -c 40 -p /data/kv.md; xxd -p -c 4 /data/case.md; xxd -ps /data/case.md" },
  { cmd: "xxd -cols 8 /data/kv.md; xxd -s 0x10 /data/kv.md; xxd -s -5 /data/kv.md" },
  { cmd: "xxd /nope; xxd /data; echo $?" },
  { cmd: "printf '' | xxd; printf 'abc' | xxd -p; cat /data/kv.md | xxd -l 0; xxd - < /data/case.md" },
  // printf: a run of \NNN escapes is bytes (UTF-8 bytes are their character), also %b's \0NNN and \e
  { cmd: "printf 'h\\303\\251llo\\n' | od -c; printf '\\101\\0101\\n' | od -c; printf '\\303\\251\\x41\\n' | cat" },
  { cmd: "printf '%b\\n' 'a\\101\\0101\\303\\251\\xe\\e\\0z' | od -c; printf '%b|%s\\n' '\\342\\200\\224' '\\342'" },
  // sort -m merges inputs already sorted (an unsorted one keeps its order); ties: the earlier file first
  { cmd: "sort -m /text/m1.md /text/m2.md; sort -m /text/unsorted.md /text/m1.md" },
  { cmd: "sort -m -k2,2n /text/m1.md /text/m2.md; sort -m -u -k1,1 /text/m1.md /text/m2.md; sort -mr /text/m2.md /text/m1.md" },
  { cmd: "sort -m -s -k1,1 /text/m2.md /text/m1.md; cat /text/m2.md | sort -m - /text/m1.md" },
  // fold counts bytes (a UTF-8 character may be cut), -s breaks after the last blank, tabs, \b and \r move the column
  { cmd: "fold -w 20 /text/prose.md | od -c" },
  { cmd: "fold -s -w 20 /text/prose.md | od -c" },
  { cmd: "fold -sw 9 /text/prose.md; fold -b -w 7 /text/prose.md | od -c | head -5" },
  { cmd: "fold -w 3 /text/m1.md; fold -12 /text/prose.md | head -3; fold -s5 /text/m2.md; fold --w=4 /text/unsorted.md" },
  { cmd: "printf 'abc def  ghi   jkl\\n' | fold -s -w 4; printf 'abcdefgh' | fold -w 3; echo; printf 'ab\\tcdefghij\\n' | fold -w 10 -s" },
  { cmd: "fold -w 0 /text/m1.md; fold -w x /text/m1.md; fold -w -1 /text/m1.md; fold -w ' +5' /text/m1.md; fold -w 99999999999999999999 /text/m1.md; echo $?" },
  { cmd: "fold /nope /text/m1.md; fold /text; fold -x; fold -w; echo $?" },
  // tac: a last record without its separator stays without; -s STRING and -b (separator before)
  { cmd: "tac /text/m1.md /text/prose.md | od -c" },
  { cmd: "printf 'a,b,c' | tac -s ,; echo; printf 'a,b,c,' | tac -s ,; echo; printf 'a,b,c' | tac -b -s ,; echo; printf ',a,,b' | tac -b -s ,; echo" },
  { cmd: "printf 'oneXYtwoXYthreeXY' | tac -s XY; echo; printf 'a\\nb\\n' | tac -s ''; printf 'x\\u00e9y\\u00e9z' | tac -s \u00e9; echo; tac --separator=' ' /text/m1.md" },
  { cmd: "tac /nope /text/m1.md; tac /text; tac -s; tac -x; echo $?" },
  // just-bash's rev, nl, expand, unexpand, column, join and checksums word an unreadable operand as the real tools do (on stderr)
  { cmd: "rev /nope; nl /nope; expand /nope; unexpand /nope; column /nope; join /nope /text/m1.md; echo $?" },
  { cmd: "md5sum /nope; sha1sum /nope; sha256sum /nope; nl /text; expand /text; echo $?" },
  // sed's I: `I`, `i` and `ı` match one another (glibc's regex)
  { cmd: "sed 's/\u0131/X/Ig;s/[h-j]/Y/Ig' /api/tr.md" },
  // printf as bash 5.2 (issue 25): a byte escape that is no UTF-8 is that byte (\377, \xff, %b, %c
  // of é), \xH with one digit; 64-bit integers (clamped with a warning, wrapped for %u/%x/%o);
  // %a as an x86-64 long double; a lone or unknown conversion stops with status 1 (bash's stderr
  // names its own line: compared by test/shell/printf.test.ts); tac -s '' splits on NUL
  { cmd: "printf '\\377\\xff\\x4g\\xZ' 2>/dev/null | od -An -tx1; printf '%b|%c' '\\377\\x4g' '\u00e9' | od -An -tx1; printf '\u00e9\\303\\251\\303' | od -An -tx1" },
  { cmd: "printf '%d %d %d %d %d\\n' 9223372036854775807 9223372036854775808 -9223372036854775808 -9223372036854775809 12345678901234567890 2>/dev/null; echo $?; printf '%u %x %o %X %i %u\\n' -1 18446744073709551615 -1 -9223372036854775809 0xFFFFFFFFFFFFFFFF 18446744073709551616 2>/dev/null" },
  { cmd: "printf '%d|%5.3d|%-6d|%+d|% d|%05d|%.0d|%.d|%#o|%#x|%#X|%.0x|%#.0o|%d|%d|%d\\n' 0x10 7 -3 4 5 -42 0 0 8 255 255 0 0 017 -0x1F ' 7'" },
  { cmd: "printf '%a %a %a %a %A %.3a %.0a %.1a\\n' 1 0.1 -2.5 0 255.5 3.14159 1.5 15.97; printf '%20a|%-20a|%020a|%+a|% a|%#a|%a|%a|%a|%a\\n' 1 1 1 1 1 1 1e300 1e-300 inf 123456789" },
  { cmd: "printf 'ab%5' 2>/dev/null; echo \" $?\"; printf '%s %' a 2>/dev/null; echo \" $?\"; printf 'x%5%|' 2>/dev/null; echo \" $?\"; printf '%' 2>/dev/null; echo \" $?\"" },
  { cmd: "printf 'a\\0b\\0' | tac -s '' | od -c; printf 'a\\0b' | tac -b -s '' | od -c; printf 'a\\0\\0b\\0' | tac -s '' | od -c" },
  // seq and loops past 10,000 (issue 25, adversary F3): just-bash's fixed caps stopped them with exit 126
  { cmd: "seq 100000 | wc -l; seq 1 50000 | tail -1; seq 20000 | sort -rn | head -1" },
  // (loops past 10,000 passes: test/shell/limits.test.ts, with the clocks out of the way)
  // a file's path with anything after it (`/`, `.`, `..`) is ENOTDIR in every command (F6)
  { cmd: "cat /guides/nonl.md/.; cat /guides/nonl.md/; cat /guides/nonl.md/..; head /guides/nonl.md/; tail /guides/nonl.md/.; wc /guides/nonl.md/.; echo $?" },
  { cmd: "test -e /guides/nonl.md/; echo $?; test -e /guides/nonl.md/.; echo $?; test -f /guides/nonl.md/; echo $?; [ -r /guides/nonl.md/.. ]; echo $?; test -e /guides/nonl.md; echo $?; test -d /guides/./; echo $?" },
  { cmd: "ls /guides/nonl.md/; ls /guides/nonl.md/.; ls /guides/nonl.md/../; stat /guides/nonl.md/; find /guides/nonl.md/.; echo $?" },
  { cmd: "grep foo /guides/nonl.md/.; rg foo /guides/nonl.md/; rg foo /guides/nonl.md/.; jq . /guides/nonl.md/.; echo $?", rgUnsorted: true },
  { cmd: "nl /guides/nonl.md/.; sort /guides/nonl.md/; uniq /guides/nonl.md/.; sed p /guides/nonl.md/.; echo $?" },
  { cmd: "cat /nope/../guides/nonl.md; cat /guides/../guides/nonl.md; echo; ls /guides/./nonl.md /guides//nonl.md" },
  // uniq -i folds ASCII only, as GNU's in C.UTF-8; sed's `a\` at the script's end adds nothing
  { cmd: "printf '\u00c9\\n\u00e9\\nA\\na\\n\u212a\\nk\\nK\\n' | uniq -i; printf '\u00c9\\n\u00e9\\n' | uniq -ci" },
  { cmd: "printf 'x\\ny\\n' | sed 'a\\'; printf 'x\\ny\\n' | sed 'i\\'; printf 'x\\ny\\n' | sed '1c\\'; printf 'x\\n' | sed 'a\\\n'; printf 'x\\n' | sed 'a foo\\'; printf 'x\\n' | sed -e 'a\\' -e 'foo'" },
  { cmd: "echo x | sed a; echo x | sed '1i   '; echo $?" },
  // grep -P: `\` and digits is a back reference or, past the groups before it, octal (PCRE2)
  { cmd: "printf 'a\\bx\\naa0\\n' | grep -cP '(a)\\10'; printf 'abcdefghi\\bj\\n' | grep -cP '(a)(b)(c)(d)(e)(f)(g)(h)(i)\\10(j)'; printf 'abcdefghijj\\n' | grep -cP '(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10'" },
  { cmd: "printf 'a\\0018\\n' | grep -cP '(a)\\18'; printf 'x\\t3\\n' | grep -cP '\\0113'; echo K | grep -cP '\\113'; printf 'a\\001\\n' | grep -cP '[\\1]'; echo aa0 | grep -oP '(a)\\1[0]'; echo a | grep -P '(a)\\81'; echo $?" },
  // rg: patterns given by -e or -f cannot be used with --files or --type-list (clap)
  { cmd: "rg --files -e x /guides; rg --files -f /api/tabs.md -e x /guides; rg -l --files --regexp=x /guides; rg --type-list -e x; echo $?" },
];

fidelitySuite("docs shell output equals the real tools where values once differed", "values", () => root, CASES);
