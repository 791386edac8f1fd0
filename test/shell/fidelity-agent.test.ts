/**
 * Fidelity of the command lines an agent sends while reading docs (issue 25): searches with
 * the common rg/grep flags, find predicates, head/tail/sed/awk/sort/uniq/cut/wc/xargs pipelines,
 * globs, here-strings and loops, and their error cases (a missing file, a folder given as a
 * file, a bad option or pattern), over a small site built here. Same comparison as
 * fidelity.test.ts. Each of these once differed or is a neighbour of one that did: a folder
 * operand of `grep -c`/`-L`, `cut -c` with `-d`, file names quoted in coreutils' messages,
 * `grep '['`, `grep -P`'s PCRE2 messages, `-m 0`, awk's missing file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { type FidelityCase, fidelitySuite } from "../helpers/fidelity.js";

const root = mkdtempSync(join(tmpdir(), "svc-agent-"));
for (const dir of ["scores", "providers", "guides"]) mkdirSync(join(root, dir));
const page = (title: string, body: string) => `---\ntitle: "${title}"\ndescription: "${title} in the docs"\n---\n\n${body}`;
const pages: Record<string, string> = {
  "index.mdx": page("Open Wearables", "# Welcome\n\nConnect Garmin, Oura and Whoop through one API.\n\n## Quickstart\n\nSee [the quickstart](/quickstart).\n\n## API\n\nThe REST API lives at `https://api.example.com/v1`.\n"),
  "quickstart.mdx": page(
    "Quickstart",
    "## Install\n\n```bash\ndocker compose up -d\ndocker compose logs -f app\n```\n\n## Configure\n\nSet `API_KEY=abc` in `.env`.\nVisit http://localhost:8000/docs and https://example.com/a.\n\n## Next steps\n\nRead the API reference.\n",
  ),
  "scores/sleep-score.mdx": page("Sleep score", "## How it works\n\nThe sleep score uses HRV, duration and timing.\n\n| part | weight |\n|---|---|\n| duration | 40 |\n| HRV | 35 |\n| timing | 25 |\n"),
  "scores/health-scores.mdx": page("Health scores", "Scores: sleep, resilience, strain.\n\nEach score is 0-100.\nEach score is 0-100.\n"),
  "scores/resilience-score.mdx": page("Resilience score", "Resilience uses HRV and resting heart rate.\n"),
  "providers/garmin.mdx": page("Garmin", "## OAuth\n\nGarmin uses OAuth 1.0a.\nGET /api/v1/garmin/activities\n"),
  "providers/oura.mdx": page("Oura", "## OAuth\n\nOura uses OAuth 2.0.\nGET /api/v1/oura/sleep\nOura HRV is rmssd.\n"),
  "guides/with space.mdx": page("Spaced", "A page with a space in its name.\n"),
  "guides/empty.md": "",
};
for (const [path, text] of Object.entries(pages)) writeFileSync(join(root, path), text);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CASES: readonly FidelityCase[] = [
  // rg
  { cmd: "rg -n 'OAuth' /providers" },
  { cmd: "rg -l -i hrv /" },
  { cmd: "rg -c -i oura /" },
  { cmd: "rg --files /scores" },
  { cmd: "rg -w -n 'API' /index.mdx" },
  { cmd: "rg -n -A1 '^## ' /quickstart.mdx" },
  { cmd: "rg -o 'https?://[^ )`]+' /quickstart.mdx /index.mdx" },
  { cmd: "rg -g '*.mdx' -l 'docker' /" },
  { cmd: "rg --max-count 1 -n title /scores" },
  { cmd: "rg -q garmin /providers; echo $?" },
  { cmd: "rg -e oura -e garmin -c -i /providers" },
  { cmd: "rg --no-filename -c title /scores" },
  { cmd: "rg -l nosuchword /; echo $?" },
  { cmd: "rg -o -N '\\bGET /[^ `]+' / | sort -u" },
  { cmd: "rg -n -i 'sleep score' /scores | head -3" },
  // grep
  { cmd: "grep -rn 'docker compose' /", anyOrder: true },
  { cmd: "grep -rl --include='*.mdx' -i oura /", anyOrder: true },
  { cmd: "grep -n -i 'OURA' /providers/oura.mdx" },
  { cmd: "grep -E -o '\\b[A-Z]{3,}\\b' /index.mdx /quickstart.mdx | sort | uniq -c | sort -rn" },
  { cmd: "grep -v '^$' /scores/sleep-score.mdx | wc -l" },
  { cmd: "grep -A2 -B1 'Next' /quickstart.mdx" },
  { cmd: "grep -e title -e description /scores/health-scores.mdx" },
  { cmd: "grep -r title /scores --exclude='sleep*'", anyOrder: true },
  { cmd: "grep -x -- '---' /index.mdx | wc -l" },
  { cmd: "grep -Z -l title /scores/*.mdx | tr '\\0' '\\n'" },
  { cmd: "grep -H title /index.mdx" },
  { cmd: "grep -ohr 'https*://[a-z.]*' / | sort | uniq -c | sort -rn" },
  { cmd: "grep title /nope /index.mdx; echo $?" },
  { cmd: "grep -q title /index.mdx /nope; echo $?" },
  { cmd: "grep -r title /nope; echo $?" },
  { cmd: "grep --foo x /index.mdx" },
  { cmd: "grep -E '(' /index.mdx" },
  { cmd: "grep -m 1 -c title /index.mdx" },
  { cmd: "grep -c title <<< 'title: x'" },
  // a folder operand: GNU grep says so, then counts it as a file without lines
  { cmd: "grep -c title /scores" },
  { cmd: "grep -c title /index.mdx /scores /index.mdx" },
  { cmd: "grep -L title /scores" },
  { cmd: "grep -L title /scores/*.mdx /scores" },
  { cmd: "grep -s -c title /scores; echo $?" },
  { cmd: "grep -l title /scores; grep -q title /scores; echo $?" },
  { cmd: "grep -c -v title /scores; grep -H -c title /scores; grep -h -c title /index.mdx /scores" },
  { cmd: "grep -c title /index.mdx /scores 2>&1; grep -q title /index.mdx /scores; echo $?" },
  { cmd: "grep -c -d skip x /scores; echo $?" },
  // -m 0 stops before anything (but -L still lists)
  { cmd: "grep -c -m0 title /index.mdx; echo $?; grep -m0 title /nope; echo $?; grep -m0 '[' /index.mdx; echo $?" },
  { cmd: "grep -L -m0 title /index.mdx /scores; echo $?" },
  // unmatched brackets: glibc's two messages
  { cmd: "grep '[' /index.mdx; grep 'a[^' /index.mdx; grep -E 'x[' /index.mdx; grep '[a' /index.mdx; grep -e x -e '[' /index.mdx; echo $?" },
  // grep -P: PCRE2's messages
  { cmd: "grep -P '(' /index.mdx; grep -P ')' /index.mdx; grep -P '[' /index.mdx; grep -P 'a{2,1}' /index.mdx; grep -P '*a' /index.mdx; echo $?" },
  { cmd: "grep -P '\\' /index.mdx; grep -P '[z-a]' /index.mdx; grep -P '\\p{Foo}' /index.mdx; grep -P '(?q)' /index.mdx; echo $?" },
  { cmd: "rg -P '(' /index.mdx; rg -P 'a)' /index.mdx; rg -P '[' /index.mdx; rg -P 'x{2,1}' /index.mdx; echo $?" },
  { cmd: "rg -P '\\' /index.mdx; rg -P '[z-a]' /index.mdx; rg -P 'é\\p{Foo}' /index.mdx; rg -P '(?q)' /index.mdx; rg -P '+' /index.mdx; echo $?" },
  // find
  { cmd: "find /scores -type f -name '*score*' | sort" },
  { cmd: "find / -maxdepth 1 -type d | sort" },
  { cmd: "find / -iname '*GARMIN*'" },
  { cmd: "find / -path '*providers*' -name 'g*'" },
  { cmd: "find / -empty" },
  { cmd: "find /scores -name '*.mdx' -exec wc -l {} + | sort" },
  { cmd: "find /scores -mindepth 1 -printf '%f\\n' | sort" },
  { cmd: "find / -name '*.mdx' | wc -l" },
  { cmd: "find / -not -name '*.mdx' -type f", anyOrder: true },
  { cmd: "find /scores /nope -name x" },
  { cmd: "find / -name" },
  { cmd: "find / -type q" },
  { cmd: "find /scores -print0 | xargs -0 ls -d | sort" },
  { cmd: "find /scores -newer /nope" },
  // head, tail, sed, awk
  { cmd: "head -n 5 /scores/sleep-score.mdx" },
  { cmd: "head -3 /scores/*.mdx" },
  { cmd: "tail -n 2 /quickstart.mdx" },
  { cmd: "tail -n +3 /index.mdx | head -2" },
  { cmd: "head -c 20 /index.mdx; echo" },
  { cmd: "head /scores" },
  { cmd: "head -n x /index.mdx" },
  { cmd: "sed -n '/^## /p' /quickstart.mdx" },
  { cmd: "sed -n '1,/^---$/p' /scores/sleep-score.mdx" },
  { cmd: "sed -n '/^## Install/,/^## /p' /quickstart.mdx" },
  { cmd: "sed 's/^/> /' /scores/resilience-score.mdx" },
  { cmd: "sed -n '/^---$/,/^---$/{/^title:/p}' /scores/sleep-score.mdx" },
  { cmd: "sed '/^$/d' /quickstart.mdx | wc -l" },
  { cmd: "sed -n '$=' /quickstart.mdx" },
  { cmd: "awk '/^title:/{print FILENAME\": \"$0}' /scores/*.mdx" },
  { cmd: "awk -F': ' '/^title/{print $2}' /index.mdx" },
  { cmd: "awk 'FNR==1{print FILENAME}' /scores/*.mdx" },
  { cmd: "awk -F'|' 'NF>3{print $2}' /scores/sleep-score.mdx" },
  { cmd: "awk '{ w += NF } END { print w }' /index.mdx" },
  // a missing file: gawk names the program's place only once a rule has run
  { cmd: "awk '{print $1}' /nope; echo $?" },
  { cmd: "awk '{print $1}' /index.mdx /nope | tail -1; awk 'BEGIN{x=1}{print}' /nope; awk 'END{print NR}' /nope; awk '{print}' /dev/null /nope" },
  // sort, uniq, cut, wc
  { cmd: "sort -u /scores/health-scores.mdx" },
  { cmd: "sort -t: -k2 /index.mdx | head -3" },
  { cmd: "sort /nope" },
  { cmd: "uniq -c /scores/health-scores.mdx | sort -rn | head -3" },
  { cmd: "cut -d: -f1 /index.mdx | sort -u" },
  { cmd: "cut -c1-5 /index.mdx | head -3" },
  { cmd: "cut -b1-3 /index.mdx | head -2" },
  { cmd: "cut -f2 -s -d: /index.mdx" },
  { cmd: "cut -f1 -d' ' /nope" },
  { cmd: "echo 'a,b,c' | cut -d, -f2,3 --output-delimiter=' '" },
  // cut refuses -d and -s without -f, before it reads the list
  { cmd: "cut -c1 -d, /index.mdx; echo $?" },
  { cmd: "cut -c1 -s /index.mdx; cut -c0 -d, /index.mdx; cut -d, /index.mdx; cut -b1 -d, -s /index.mdx; echo $?" },
  { cmd: "wc -l /scores/*.mdx" },
  { cmd: "wc -w /index.mdx" },
  { cmd: "wc -c /scores" },
  { cmd: "wc -L /quickstart.mdx" },
  { cmd: "wc -l < /scores/sleep-score.mdx" },
  { cmd: "wc -w <<< 'one two three'" },
  // coreutils quote a file name the shell would need quoted
  { cmd: "cat '/a b'; cat /a\\'b; wc '/a b'; sort '/a b'; cut -c1 '/a b'; uniq '/a b'; echo $?" },
  { cmd: "cat '/scores/*.xyz' /scores/a: /scores/#a '/scores/a=b' /scores/a~ '/scores/a]' /scores/{ '/scores/a&b'" },
  { cmd: "cat /scores/*.xyz; cat /scores/$'\\t'x; cd /guides && cat 'with space.mdx/' 'with space.mdx'x" },
  // ls, cat, misc
  { cmd: "ls /scores | wc -l" },
  { cmd: "ls /scores/*.mdx" },
  { cmd: "ls /nope/*.mdx" },
  { cmd: "cat -n /scores/resilience-score.mdx" },
  { cmd: "cat /scores" },
  { cmd: "tac /index.mdx | head -2" },
  { cmd: "nl /scores/resilience-score.mdx" },
  { cmd: "ls /scores | xargs -n1 echo" },
  { cmd: "find /scores -name '*.mdx' | xargs grep -l HRV | sort" },
  { cmd: "echo /scores/sleep-score.mdx | xargs head -2" },
  { cmd: "printf '%s\\n' /scores/*.mdx | xargs -I{} basename {}" },
  { cmd: "xargs -a /nope echo" },
  { cmd: "for f in /scores/*.mdx; do echo \"$f: $(wc -l < \"$f\")\"; done" },
  { cmd: "for i in 1 2 3; do echo $i; done | paste -sd," },
  { cmd: "while read -r l; do echo \"[$l]\"; done < /scores/resilience-score.mdx | head -2" },
  { cmd: "echo {a,b,c}.mdx {01..05} {1..10..3} {a..z..5} {1..3}{x,y}" },
  { cmd: "echo {1..20000} | wc -c; echo {1..200} | md5sum" },
  { cmd: "x=$(< /scores/resilience-score.mdx); echo \"${#x}\"; x=$(< /scores); echo \"[$x] $?\"" },
  { cmd: "ls /scores > /dev/null && echo ok" },
  { cmd: "cat /index.mdx | head -1 | tr a-z A-Z" },
  { cmd: "echo $((3 + 4 * 2))" },
  { cmd: "test -f /index.mdx && echo file; [ -d /scores ] && echo dir" },
  { cmd: "diff /scores/sleep-score.mdx /scores/health-scores.mdx | head -3" },
  { cmd: "basename /scores/sleep-score.mdx .mdx; dirname /scores/sleep-score.mdx" },
  { cmd: "wc -l $(find /scores -name '*.mdx') | tail -1" },
  { cmd: "seq 5 | tail -2; seq 1 2 9 | paste -sd' '" },
  { cmd: "printf '%05.1f|%-5s|\\n' 3.14159 ab" },
  { cmd: "stat -c %s /index.mdx" },
  { cmd: "tree -L 1 /scores" },
  { cmd: "ls /scores | head -n -1" },
  { cmd: "grep -o 'title: .*' /scores/*.mdx | cut -d: -f3- | sort" },
];

fidelitySuite("docs shell output equals the real tools on the command lines agents send", "agent", () => root, CASES);
