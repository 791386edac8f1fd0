/**
 * Shell fidelity: every command runs through the docs shell and through the real GNU tools,
 * ripgrep 13 and tree 2.1 over a copy on disk of exactly the files the view shows (same bytes,
 * mtimes and modes), and the outputs must be identical: stdout, stderr and exit code.
 *
 * Where the real tool's order depends on the directory order on disk (`find`, `grep -r`), lines
 * are compared as sorted lists. ripgrep on the real side runs with `--sort path`, the order our
 * rg always prints in. Everything else is compared byte for byte.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/tools/runtime.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import type { DocsShell } from "../../src/tools/shell/docs-shell.js";
import { CORPORA } from "../helpers/paths.js";
import { DiskCopy, type RealResult } from "../helpers/real-tools.js";

interface Case {
  readonly cmd: string;
  /** Compare stdout as sorted lines (the real tool prints in directory order). */
  readonly anyOrder?: boolean;
  /** Run the real rg without `--sort path` (its errors differ in sorted mode). */
  readonly rgUnsorted?: boolean;
  /** Mask what a disk copy cannot share with a virtual filesystem (device, inode, ctime...). */
  readonly statDefault?: boolean;
}

const CASES: readonly Case[] = [
  // ripgrep
  { cmd: "rg -il webhook /" },
  { cmd: "rg -l checkout /developer" },
  { cmd: 'rg -n "guest_checkout" /user /developer' },
  { cmd: "rg -c checkout /developer/core-concepts" },
  { cmd: "rg -i -w order /developer/getting-started/quickstart.mdx" },
  { cmd: 'rg -n -C 2 "^## Next Steps" /developer/getting-started/quickstart.mdx' },
  { cmd: 'rg -n -A 3 "Accessing Admin" /developer' },
  { cmd: 'rg -B 1 -n "spree_cli" /developer/cli' },
  { cmd: 'rg -F "[" -m 2 /developer/cli/quickstart.mdx' },
  { cmd: 'rg -o -n "spree [a-z]+" /developer/cli/quickstart.mdx' },
  { cmd: "rg --files /developer/sdk" },
  { cmd: "rg --files -g '*.md' /" },
  { cmd: "rg -l -g '!*.yaml' order_id /api-reference" },
  { cmd: 'rg -t yaml -l "webhook" /' },
  { cmd: "rg -e foo -e checkout -l /user/settings" },
  { cmd: "rg --heading -n stripe /integrations/payments" },
  { cmd: 'rg --no-heading -n "^title:" /developer/cli' },
  { cmd: "rg -N stripe /integrations/payments/stripe.mdx" },
  { cmd: 'rg -c "" /developer/cli' },
  { cmd: "rg nosuchthingxyz /" },
  { cmd: 'rg -l "(" /developer' },
  { cmd: 'rg "(?=x)" /index.mdx' },
  { cmd: "rg foo /nope", rgUnsorted: true },
  { cmd: "rg -S Spree -c /developer/cli" },
  { cmd: "rg -x -- '---' /developer/cli/admin-api.mdx" },
  { cmd: "rg -v -c spree /developer/cli" },
  { cmd: "rg --column -m1 init /developer/cli/quickstart.mdx" },
  { cmd: "rg --vimgrep 'spree init' /developer/cli" },
  { cmd: "rg -C1 -m2 'spree (dev|api)' /developer/cli" },
  { cmd: "rg --heading -C1 -m3 'spree (dev|api)' /developer/cli" },
  { cmd: "rg 'spree (\\w+)' -r '$1!' -m2 /developer/cli/quickstart.mdx" },
  { cmd: "rg --count-matches spree /developer/cli" },
  { cmd: "rg -l 'spree\\s+(init|dev)\\b' /developer" },
  { cmd: "rg -i '\\bwebhooks?\\b' -c /integrations" },
  { cmd: "rg -l -g 'developer/cli/*' spree /" },
  { cmd: "rg --files-without-match spree /developer/cli /developer/getting-started" },
  { cmd: "rg -P 'spree(?= dev)' -c /developer/cli/quickstart.mdx" },
  { cmd: "rg -l stripe | head -3" },
  { cmd: "echo hello | rg -n ell" },
  { cmd: "rg --type-list | grep -E '^(yaml|json|txt):'" },
  // grep
  { cmd: "grep -n checkout /developer/core-concepts/orders.mdx" },
  { cmd: 'grep -rn "guest_checkout" /developer', anyOrder: true },
  { cmd: "grep -ril stripe /integrations", anyOrder: true },
  { cmd: "grep -rc checkout /developer/core-concepts", anyOrder: true },
  { cmd: 'grep -c "" /developer/cli/quickstart.mdx /developer/cli/admin-api.mdx' },
  { cmd: 'grep -n -C 1 "^## " /developer/getting-started/quickstart.mdx' },
  { cmd: 'grep -w -o "spree" /developer/cli/quickstart.mdx | head -3' },
  { cmd: 'grep -v "^$" /developer/cli/quickstart.mdx | head -5' },
  { cmd: 'grep -E "^#{2,3} " /developer/cli/quickstart.mdx' },
  { cmd: 'grep "^##\\+ " /developer/cli/quickstart.mdx' },
  { cmd: 'grep -F "](/" /developer/cli/quickstart.mdx | head -3' },
  { cmd: "grep -l checkout /developer/core-concepts/*.mdx" },
  { cmd: "grep -L checkout /developer/core-concepts/*.mdx" },
  { cmd: 'grep -r --include="*.md" -l spree /', anyOrder: true },
  { cmd: "grep checkout /developer" },
  { cmd: "grep foo /nope" },
  { cmd: "grep -h -n stripe /integrations/payments/stripe.mdx /developer/cli/quickstart.mdx | head -3" },
  { cmd: "grep -i -e stripe -e adyen -c /integrations/payments/stripe.mdx" },
  { cmd: 'grep -x -- "---" /index.mdx' },
  { cmd: "grep -A2 -m1 title /index.mdx" },
  { cmd: "grep -n -m1 -A3 spree /developer/cli/quickstart.mdx" },
  { cmd: "grep -n -B2 -m2 Spree /developer/cli/quickstart.mdx /developer/cli/admin-api.mdx" },
  { cmd: "grep -o '[a-z_]*checkout[a-z_]*' /developer/core-concepts/orders.mdx | sort | uniq -c" },
  { cmd: "grep -E 'a{2,1}' /index.mdx" },
  { cmd: "grep '\\(' /index.mdx" },
  { cmd: "grep -c '[[:upper:]][[:lower:]]\\+' /index.mdx" },
  { cmd: "grep -E -c '\\<(order|orders)\\>' /developer/core-concepts/orders.mdx" },
  { cmd: "grep -rl spree . | sort | head -3" },
  { cmd: "grep -q spree /index.mdx && echo found" },
  // find
  { cmd: "find /developer/sdk", anyOrder: true },
  { cmd: 'find /developer -name "*.mdx" -path "*cli*"', anyOrder: true },
  { cmd: 'find / -type d -name "store*"', anyOrder: true },
  { cmd: "find / -maxdepth 1", anyOrder: true },
  { cmd: "find /nope" },
  { cmd: 'find /developer -iname "QUICK*"', anyOrder: true },
  { cmd: "find /developer/cli -type f | sort" },
  { cmd: "find /developer/cli -printf '%p %f %h %s %d %y %m %M %k %n %P|\\n' | sort" },
  { cmd: "find /developer/sdk -name '*.mdx' -size -5k | sort" },
  { cmd: "find /developer/sdk -mindepth 2 -type f | sort" },
  { cmd: "find /developer/cli -foo" },
  { cmd: "find / -name '*.yaml' -exec grep -c openapi {} \\; | sort" },
  // tree
  { cmd: "tree -L 1 /" },
  { cmd: "tree -L 2 /developer" },
  { cmd: "tree /developer/sdk" },
  { cmd: "tree -d -L 1 /developer" },
  { cmd: "tree /nope" },
  { cmd: "tree -f -L 1 /developer/cli" },
  { cmd: "tree -F -L 1 /developer/sdk" },
  { cmd: "tree -h -p /developer/cli" },
  { cmd: "tree -s -D /developer/cli" },
  { cmd: "tree -J -L 1 /developer/sdk" },
  { cmd: "tree --noreport -i /developer/cli" },
  { cmd: "tree /developer/cli /developer/getting-started" },
  // ls
  { cmd: "ls /" },
  { cmd: "ls /developer/cli" },
  { cmd: "ls -l /developer/cli" },
  { cmd: "ls -la /developer/cli" },
  { cmd: "ls -lh /api-reference" },
  { cmd: "ls -1 /developer | head -5" },
  { cmd: "ls /nope" },
  { cmd: "ls -d /developer" },
  { cmd: "ls /developer/cli/quickstart.mdx /index.mdx" },
  { cmd: "ls -R /developer/sdk" },
  { cmd: "ls -F /developer/sdk" },
  { cmd: "ls -S /developer/cli" },
  { cmd: "ls -ld /developer/cli /developer/sdk" },
  { cmd: "ls /developer/cli/*.mdx" },
  // cat, head, tail
  { cmd: "cat /developer/cli/quickstart.mdx" },
  { cmd: "cat /developer" },
  { cmd: "cat /nope.mdx" },
  { cmd: "cat -n /developer/cli/admin-api.mdx | head -3" },
  { cmd: "cat -A /developer/cli/admin-api.mdx | head -3" },
  { cmd: "cat /developer/cli/admin-api.mdx /developer/cli/quickstart.mdx | wc -l" },
  { cmd: "head -5 /developer/cli/admin-api.mdx /developer/cli/quickstart.mdx" },
  { cmd: "head -n 3 /index.mdx" },
  { cmd: "head -c 100 /index.mdx" },
  { cmd: "head -n -100 /index.mdx | tail -2" },
  { cmd: "head -2 /nope /developer /index.mdx" },
  { cmd: "tail -5 /developer/cli/quickstart.mdx" },
  { cmd: "tail -n +80 /developer/getting-started/quickstart.mdx" },
  { cmd: "tail -3 /developer/cli/admin-api.mdx /developer/cli/quickstart.mdx" },
  { cmd: "tail -n 3 /developer/cli/admin-api.mdx /developer/cli/quickstart.mdx" },
  { cmd: "tail -c 50 /index.mdx" },
  // stat, wc
  { cmd: "stat -c '%n %s %A %h %U %G' /index.mdx" },
  { cmd: "stat -c '%n %F %a' /developer" },
  { cmd: "stat /nope" },
  { cmd: "stat /developer/cli/quickstart.mdx", statDefault: true },
  { cmd: "stat /developer/cli", statDefault: true },
  { cmd: "wc -l /developer/cli/quickstart.mdx" },
  { cmd: "wc /developer/cli/quickstart.mdx /developer/cli/admin-api.mdx" },
  { cmd: "wc -c /index.mdx" },
  { cmd: "wc -w < /index.mdx" },
  { cmd: "wc -l /developer/cli/*.mdx" },
  { cmd: "cat /index.mdx | wc" },
  { cmd: "wc /nope /developer /index.mdx" },
  // sort, uniq, cut
  { cmd: "sort /developer/cli/quickstart.mdx | uniq -c | sort -rn | head -5" },
  { cmd: "sort -u /developer/cli/quickstart.mdx | head -5" },
  { cmd: "sort -t: -k2 /developer/cli/quickstart.mdx | head -5" },
  { cmd: "sort -f /developer/cli/quickstart.mdx | tail -3" },
  { cmd: "sort -r /developer/cli/quickstart.mdx | head -3" },
  { cmd: "uniq -d /developer/cli/quickstart.mdx" },
  { cmd: "printf 'b\\na\\nb\\n' | sort | uniq -c" },
  { cmd: "cut -d' ' -f2- /developer/cli/quickstart.mdx | head -4" },
  { cmd: "cut -f1 -d'|' /developer/cli/admin-api.mdx | head -5" },
  { cmd: "cut -c1-10 /index.mdx | head -3" },
  { cmd: "cut -d: -f1 /developer/cli/quickstart.mdx | head -3" },
  // sed: section extraction and friends
  { cmd: "sed -n '/^## Next Steps/,/^## /p' /developer/getting-started/quickstart.mdx" },
  { cmd: "sed -n '/^## Using/,/^## /p' /developer/getting-started/quickstart.mdx" },
  { cmd: "sed -n '/^## Using/,/^## /{/^## Accessing/!p}' /developer/getting-started/quickstart.mdx" },
  { cmd: "sed -n '/^---$/,/^---$/p' /developer/cli/quickstart.mdx" },
  { cmd: "sed '1,/^---$/d' /developer/cli/quickstart.mdx | head -3" },
  { cmd: "sed -n '/^```bash/,/^```/p' /developer/cli/quickstart.mdx | head -12" },
  { cmd: "sed -n '1,5p' /index.mdx" },
  { cmd: "sed -n '2,+2p' /index.mdx" },
  { cmd: "sed -n '$p' /index.mdx" },
  { cmd: "sed -n '0~50p' /index.mdx" },
  { cmd: "sed -E 's/(spree) ([a-z]+)/\\2 \\1/' /developer/cli/quickstart.mdx | head -20" },
  { cmd: "sed 's/spree/SPREE/g' /developer/cli/quickstart.mdx | head -5" },
  { cmd: "sed -n '/Installation/=' /developer/cli/quickstart.mdx" },
  { cmd: "sed -e 1d -e 3d /developer/cli/quickstart.mdx | head -3" },
  { cmd: "sed 'y/abc/ABC/' /developer/cli/quickstart.mdx | head -3" },
  { cmd: "sed -n 'l' /developer/cli/quickstart.mdx | head -4" },
  { cmd: "sed 5q /index.mdx" },
  { cmd: "sed '$!N;s/\\n/ /' /developer/cli/admin-api.mdx | head -4" },
  { cmd: "sed -n '/^## /{s/^## //;p}' /developer/cli/quickstart.mdx" },
  { cmd: "sed 's/a/b' /index.mdx" },
  { cmd: "sed -n p /nope /index.mdx | head -1" },
  // awk (programs whose output does not depend on awk's multibyte handling)
  { cmd: "awk 'NR>=5 && NR<=8' /index.mdx" },
  { cmd: "awk '/^## /{print NR\": \"$0}' /developer/cli/quickstart.mdx" },
  { cmd: "awk '/^## Installation/{f=1;next} /^## /{f=0} f' /developer/cli/quickstart.mdx" },
  { cmd: "awk -F'|' 'NF>3{print $2}' /developer/core-concepts/channels.mdx | head" },
  { cmd: "awk -F: '{print $1}' /developer/cli/quickstart.mdx | head -5" },
  { cmd: "awk 'END{print NR}' /index.mdx" },
  { cmd: "awk '{print $1}' /developer/cli/quickstart.mdx | sort | uniq -c | sort -rn | head -3" },
  { cmd: "awk 'FNR==1{print FILENAME}' /developer/cli/admin-api.mdx /developer/cli/quickstart.mdx" },
  { cmd: "grep '^## ' /developer/cli/quickstart.mdx | awk 'length > 15'" },
  // jq
  { cmd: "jq --version" },
  { cmd: "echo '{\"a\":[1,2,{\"b\":\"c\"}]}' | jq '.a | length'" },
  { cmd: "echo '{\"a\":[1,2,{\"b\":\"c\"}]}' | jq -r '.a[2].b'" },
  { cmd: "echo '[{\"n\":\"x\",\"v\":1},{\"n\":\"y\",\"v\":2}]' | jq -c 'map(select(.v > 1))'" },
  // shell: pipes, lists, globs, cwd
  { cmd: "ls /nope && echo yes || echo no" },
  { cmd: "true; ls /developer/cli" },
  { cmd: "cd /developer && ls cli" },
  { cmd: "cd /developer/cli && grep -c spree quickstart.mdx admin-api.mdx" },
  { cmd: "echo /developer/cli/*" },
  { cmd: "cat /developer/cli/*.mdx | grep -c spree" },
  { cmd: "for f in /developer/cli/*.mdx; do head -2 \"$f\"; done" },
  { cmd: "grep -h '^title:' /developer/cli/*.mdx | sort" },
];

/** Pattern syntax: GNU BRE/ERE/PCRE in grep, Rust regex and PCRE2 in rg, and their error messages. */
const PATTERN_CASES: readonly Case[] = [
  { cmd: "grep -c 'spree' /index.mdx" },
  { cmd: "grep -c '^#' /index.mdx" },
  { cmd: "grep -c 'a.c' /index.mdx" },
  { cmd: "grep -c '[[:digit:]]\\{2,\\}' /index.mdx" },
  { cmd: "grep -c '\\bthe\\b' /index.mdx" },
  { cmd: "grep -c '\\<[A-Z][a-z]*\\>' /index.mdx" },
  { cmd: "grep -c 'x*' /index.mdx" },
  { cmd: "grep -c '^$' /index.mdx" },
  { cmd: "grep -c '[^a-z]$' /index.mdx" },
  { cmd: "grep -c '\\(ab\\|cd\\)' /index.mdx" },
  { cmd: "grep -c '\\(.\\)\\1' /index.mdx" },
  { cmd: "grep -c '[]a]' /index.mdx" },
  { cmd: "grep -c '[a-]' /index.mdx" },
  { cmd: "grep -c '\\w\\+@\\w\\+' /index.mdx" },
  { cmd: "grep -c '\\s\\s' /index.mdx" },
  { cmd: "grep -c '\\S\\+\\.mdx' /index.mdx" },
  { cmd: "grep -c '\u2014' /index.mdx" },
  { cmd: "grep -ci 'SPREE COMMERCE' /index.mdx" },
  { cmd: "grep -c '*a' /index.mdx" },
  { cmd: "grep -c '^*' /index.mdx" },
  { cmd: "grep -c 'a\\{2\\}' /index.mdx" },
  { cmd: "grep -c '[[:space:]]$' /index.mdx" },
  { cmd: "grep -c '[[:punct:]]\\{3\\}' /index.mdx" },
  { cmd: "grep -c 'href=\"[^\"]*\"' /index.mdx" },
  { cmd: "grep -c '.\\{200,\\}' /index.mdx" },
  { cmd: "grep -E -c '(ab|cd)+' /index.mdx" },
  { cmd: "grep -E -c 'colou?r' /index.mdx" },
  { cmd: "grep -E -c '^(title|description):' /index.mdx" },
  { cmd: "grep -E -c '[0-9]+\\.[0-9]+' /index.mdx" },
  { cmd: "grep -E -c 'a{,2}b' /index.mdx" },
  { cmd: "grep -E -c '(a|b){3}' /index.mdx" },
  { cmd: "grep -E -c 'x{1' /index.mdx" },
  { cmd: "grep -E -c '\\.mdx?$' /index.mdx" },
  { cmd: "grep -E -c '\\bAPI\\b' /index.mdx" },
  { cmd: "grep -E -c '(\\w+) \\1' /index.mdx" },
  { cmd: "grep -E -c '[[:alpha:]]+-[[:alpha:]]+' /index.mdx" },
  { cmd: "grep -E -c '<[A-Z][A-Za-z]*' /index.mdx" },
  { cmd: "grep -E -c 'a|' /index.mdx" },
  { cmd: "grep -E -c '()' /index.mdx" },
  { cmd: "grep -P -c '\\d{2,}' /index.mdx" },
  { cmd: "grep -P -c '(?<=href=\")/[a-z]+' /index.mdx" },
  { cmd: "grep -P -c 'spree(?!-)' /index.mdx" },
  { cmd: "grep -F -c '.*' /index.mdx" },
  { cmd: "grep -F -c -e '{' -e '}' /index.mdx" },
  { cmd: "grep -w -c 'Spree' /index.mdx" },
  { cmd: "grep -x -c '' /index.mdx" },
  { cmd: "grep -c -e spree -e Spree /index.mdx" },
  { cmd: "grep -o -i 'spree [a-z]*' /index.mdx | sort | uniq -c | sort -rn | head -5" },
  { cmd: "grep -o '\\b[A-Z]\\{2,\\}\\b' /index.mdx | sort -u | head" },
  { cmd: "rg -c 'spree' /index.mdx" },
  { cmd: "rg -c '^#' /index.mdx" },
  { cmd: "rg -c '\\d+' /index.mdx" },
  { cmd: "rg -c '\\bthe\\b' /index.mdx" },
  { cmd: "rg -c '\\w+@\\w+' /index.mdx" },
  { cmd: "rg -c '\\s\\s' /index.mdx" },
  { cmd: "rg -c '[^a-z]$' /index.mdx" },
  { cmd: "rg -c '(ab|cd)+' /index.mdx" },
  { cmd: "rg -c '(?i)spree commerce' /index.mdx" },
  { cmd: "rg -c 'a(?i)PI' /index.mdx" },
  { cmd: "rg -c '(?i:spree) Commerce' /index.mdx" },
  { cmd: "rg -c '[[:upper:]]{2,}' /index.mdx" },
  { cmd: "rg -c '\\p{Lu}\\p{Ll}+' /index.mdx" },
  { cmd: "rg -c '\u2014' /index.mdx" },
  { cmd: "rg -c 'x{1,2}{3}' /index.mdx" },
  { cmd: "rg -c '.{200,}' /index.mdx" },
  { cmd: "rg -c '[\\w-]+\\.mdx' /index.mdx" },
  { cmd: "rg -c 'href=\"[^\"]*\"' /index.mdx" },
  { cmd: "rg -c '\\x41' /index.mdx" },
  { cmd: "rg -c 'a.*?b' /index.mdx" },
  { cmd: "rg -c '(?x) s p r e e  # comment' /index.mdx" },
  { cmd: "rg -c '\\bAPI\\b' /index.mdx" },
  { cmd: "rg -c '\\Bpi\\B' /index.mdx" },
  { cmd: "rg -c '[a-z&&[^aeiou]]' /index.mdx" },
  { cmd: "rg -c 'a{' /index.mdx" },
  { cmd: "rg -c '\\y' /index.mdx" },
  { cmd: "rg -c '(a)\\1' /index.mdx" },
  { cmd: "rg -c '[z-a]' /index.mdx" },
  { cmd: "rg -c '\\p{Foo}' /index.mdx" },
  { cmd: "rg -c '*a' /index.mdx" },
  { cmd: "rg -c 'a{2,1}' /index.mdx" },
  { cmd: "rg -c '(?q)x' /index.mdx" },
  { cmd: "rg -c '[' /index.mdx" },
  { cmd: "rg -c ')' /index.mdx" },
  { cmd: "rg -ow '[A-Z][a-z]+' /index.mdx | sort | uniq -c | sort -rn | head -5" },
  { cmd: "rg -F -c '.*' /index.mdx" },
  { cmd: "rg -c -w 'Spree' /index.mdx" },
  { cmd: "rg -c -x '---' /index.mdx" },
  { cmd: "rg -P -c '(\\w)\\1' /index.mdx" },
  { cmd: "rg -c $'spree\\ninit' /index.mdx" },
  { cmd: "rg" },
  { cmd: "rg --foo x /index.mdx" },
  { cmd: "rg -m x y /index.mdx" },
  { cmd: "rg --sort foo x /index.mdx", rgUnsorted: true },
  { cmd: "rg -A" },
];

let runtime: DocsRuntime;
let shell: DocsShell;
let disk: DiskCopy;
let user = "root";
let group = "root";
/** Real outputs, computed up front a few at a time. */
const realResults = new Map<Case, Promise<RealResult>>();

beforeAll(async () => {
  for (const tool of ["rg", "tree", "grep", "sed", "awk", "jq", "find"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) {
      throw new Error(`the fidelity suite needs the real ${tool} installed (.ci/run installs ripgrep and tree)`);
    }
  }
  runtime = await DocsRuntime.load({ root: join(CORPORA, "spree") });
  const state = runtime.readerState(ANONYMOUS);
  shell = state.shell;
  disk = DiskCopy.of(state.view);
  user = execFileSync("id", ["-un"], { encoding: "utf8" }).trim();
  group = execFileSync("id", ["-gn"], { encoding: "utf8" }).trim();
  // Four real commands at a time: the suite's wall time is mostly process spawning.
  const queue = [...CASES, ...PATTERN_CASES];
  const slots: Array<Promise<void>> = [];
  const settle = new Map<Case, (r: RealResult) => void>();
  for (const c of queue) realResults.set(c, new Promise((resolve) => settle.set(c, resolve)));
  for (let k = 0; k < 4; k++) {
    slots.push(
      (async () => {
        for (let c = queue.shift(); c !== undefined; c = queue.shift()) (settle.get(c) as (r: RealResult) => void)(await disk.runAsync(realCommand(c)));
      })(),
    );
  }
}, 60_000);

afterAll(() => disk?.cleanup());

/** ripgrep on the real side sorts by path: the order our rg prints in (it never runs threads). */
function realCommand(c: Case): string {
  if (c.rgUnsorted === true) return c.cmd;
  return c.cmd.replace(/(^|[|;&] *)rg /g, "$1rg --sort path ");
}

/** The owner a disk copy has is whoever runs the tests; the docs shell reports root. */
function ownerAsRoot(text: string): string {
  if (user === "root" && group === "root") return text;
  return text.replace(new RegExp(` ${user} +${group} `, "g"), " root root ").replace(new RegExp(`\\b${user}\\b`, "g"), "root");
}

function maskStat(text: string): string {
  return text
    .replace(/^Device: .*$/m, "Device: <masked>")
    .replace(/^(Access|Change|Birth|\s+Birth): \d{4}-.*$/gm, "$1: <masked>");
}

describe("docs shell output equals GNU tools, ripgrep 13 and tree 2.1 on a disk copy of the view", () => {
  it("runs at least 60 commands", () => {
    expect(CASES.length + PATTERN_CASES.length).toBeGreaterThanOrEqual(60);
  });

  for (const c of [...CASES, ...PATTERN_CASES]) {
    it(c.cmd, async () => {
      const ours = await shell.run(c.cmd);
      const real = await (realResults.get(c) as Promise<RealResult>);
      const realOut = ownerAsRoot(real.stdout);
      const sortLines = (s: string) => s.split("\n").sort().join("\n");
      const pick = (s: string) => (c.anyOrder ? sortLines(s) : c.statDefault ? maskStat(s) : s);
      expect({ stdout: pick(ours.stdout), stderr: ours.stderr, exitCode: ours.exitCode }).toEqual({
        stdout: pick(realOut),
        stderr: real.stderr,
        exitCode: real.exitCode,
      });
      expect(ours.truncated).toBe(false);
    });
  }
});
