import { builtinCommandNames } from "../../src/engine/shell/docs-shell.js";

/**
 * The command lines, search queries and resource URIs the generated leak test
 * (`leak.generated.test.ts`) sends as every reader, drawn from a fixed seed over the
 * `fixtures/leak-site` repository: every command family of the docs shell, with operands that
 * name public, restricted, ignored and guessed paths, globs that would match restricted names,
 * and patterns that match restricted text.
 */

/** mulberry32: a tiny seeded generator, so a seed names exactly one run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
const some = <T>(r: Random, items: readonly T[], most: number): T[] => {
  const n = 1 + Math.floor(r() * most);
  return Array.from({ length: n }, () => pick(r, items));
};

/** Files everyone reads. */
const PUBLIC_FILES = [
  "/index.mdx",
  "/status.mdx",
  "/guides/setup.mdx",
  "/guides/runbook-tour.mdx",
  "/guides/search-tips.mdx",
  "/snippets/note.mdx",
  "/api/store.yaml",
  "/api/events.yaml",
  "/api-reference/orders/list-orders.mdx",
  "/api-reference/orderplaced.mdx",
  "/skill.md",
];
/** Files some readers may read, and the ignored draft nobody may. */
const RESTRICTED_FILES = [
  "/leakmarker_folder_staff/leakmarker_file_staff.mdx",
  "/internal/runbook.mdx",
  "/partners/leakmarker_file_partners.mdx",
  "/snippets/secret.mdx",
  "/preview/feature.mdx",
  "/old/setup.mdx",
  "/skills/leakmarker_skilldir_staff/SKILL.md",
  "/skills/partner-tools/SKILL.md",
  "/drafts/notes.mdx",
  "/api-reference/vault/open-the-vault-leakmarker_opsum_staff.mdx",
  "/api-reference/orders/reseller-rates-leakmarker_opsum_partners.mdx",
  "/api-reference/orders/broken-rule-leakmarker_opsum_malformed.mdx",
  "/api-reference/rateschanged.mdx",
];
/** Paths nobody has, some one typo away from a restricted one (did-you-mean must not help). */
const GUESSED_FILES = [
  "/nonexistent-guess",
  "/internal/secret.mdx",
  "/leakmarker_folder_staff/leakmarker_file_staf.mdx",
  "/partners/leakmarker_file_partner.mdx",
  "/Internal/runbook.mdx",
  "/internal/../internal/runbook.mdx",
  "/./partners//leakmarker_file_partners.mdx",
  "/skills/partner-tool/SKILL.md",
  "/preview/featur.mdx",
  "/api-reference/vault",
  "/snippets/secrets.mdx",
];
const DIRS = [
  "/",
  ".",
  "/api",
  "/api-reference",
  "/api-reference/orders",
  "/guides",
  "/snippets",
  "/skills",
  "/leakmarker_folder_staff",
  "/internal",
  "/partners",
  "/preview",
  "/old",
  "/drafts",
  "/api-reference/vault",
  "/skills/leakmarker_skilldir_staff",
];
const GLOBS = ["/*", "/*/*", "/*/*/*", "/*/*.md*", "/[a-z]*/*", "/{internal,partners}/*", "/*staff*", "/*/*partners*", "/?nternal/*", "/*/*/*.mdx", "/skills/*/SKILL.md", "/**"];
const FILES = [...PUBLIC_FILES, ...RESTRICTED_FILES, ...GUESSED_FILES];
/** Patterns for rg/grep/sed/awk: the marker prefix, restricted words, regular expressions. */
const PATTERNS = [
  "LEAKMARKER",
  "leakmarker",
  "LEAKMARKER_[a-z]+_staff",
  "LEAKMARKER_[a-z]+_partners",
  "LEAKMARKER_[a-z]*",
  "vault",
  "rates",
  "drain",
  "discount",
  "Rotation",
  "title",
  "groups",
  "x-svc",
  "x-mint",
  "summary",
  "description",
  "^#",
  ".",
  "staff",
  "partners",
  "import",
];
const JQ_FILTERS = [".", ".paths | keys", "[.. | strings]", "[paths | map(tostring) | join(\".\")]", ".channels", ".operations", ".components", ".tags", ".paths[]", "keys"];
const FLAGS: Readonly<Record<string, readonly string[]>> = {
  ls: ["", "-la", "-R", "-1", "-d", "-lS", "-lt", "-A", "-lh", "-i", "-C"],
  cat: ["", "-n", "-A", "-s"],
  head: ["", "-n 3", "-c 40", "-n -1"],
  tail: ["", "-n 2", "-c 30", "-n +2"],
  rg: ["", "-n", "-l", "-c", "-i", "-o", "-w", "-F", "-C 1", "-uu", "--hidden", "-g '*.md*'", "--files-with-matches -i", "-n --no-heading", "--count-matches"],
  grep: ["-r", "-rl", "-rn", "-ri", "-rc", "-ro", "-rE", "-rh", "-rL", "-rw"],
  find: ["", "-type f", "-type d", "-name '*staff*'", "-iname '*SKILL*'", "-path '*partners*'", "-regex '.*leak.*'", "-size +0", "-empty", "-maxdepth 1", "-newer /index.mdx", "-ls", "-printf '%p %s\\n'"],
  tree: ["", "-a", "-L 2", "-J", "-d", "-f", "--du -h", "-s", "-P '*staff*'"],
  wc: ["", "-l", "-c", "-w", "-m"],
  stat: ["", "-c '%s %n %Y'", "-c '%F %n'", "-t"],
  du: ["", "-a", "-s", "-b", "-h", "-ab"],
  sort: ["", "-r", "-u", "-n", "-f"],
};

/** One command line per family; each draws its operands from the pools above. */
const FAMILIES: readonly ((r: Random) => string)[] = [
  (r) => `ls ${pick(r, FLAGS.ls ?? [])} ${some(r, [...DIRS, ...GLOBS, ...FILES], 2).join(" ")}`,
  (r) => `cat ${pick(r, FLAGS.cat ?? [])} ${some(r, FILES, 3).join(" ")}`,
  (r) => `head ${pick(r, FLAGS.head ?? [])} ${some(r, [...FILES, ...GLOBS], 2).join(" ")}`,
  (r) => `tail ${pick(r, FLAGS.tail ?? [])} ${some(r, [...FILES, ...GLOBS], 2).join(" ")}`,
  (r) => `rg ${pick(r, FLAGS.rg ?? [])} '${pick(r, PATTERNS)}' ${pick(r, [...DIRS, ...FILES])}`,
  (r) => `rg --files ${pick(r, DIRS)}`,
  (r) => `grep ${pick(r, FLAGS.grep ?? [])} '${pick(r, PATTERNS)}' ${pick(r, [...DIRS, ...GLOBS])}`,
  (r) => `${pick(r, ["egrep", "fgrep", "grep -n", "grep -c"])} '${pick(r, PATTERNS)}' ${some(r, [...FILES, ...GLOBS], 2).join(" ")}`,
  (r) => `find ${pick(r, DIRS)} ${pick(r, FLAGS.find ?? [])}`,
  (r) => `find ${pick(r, DIRS)} -type f ${pick(r, ["-exec cat {} +", "-exec head -n 3 {} \\;", "-exec grep -l LEAKMARKER {} +", "-print0 | xargs -0 wc -l", "| xargs grep -il vault", "-execdir ls {} \\;"])}`,
  (r) => `tree ${pick(r, FLAGS.tree ?? [])} ${pick(r, DIRS)}`,
  (r) => `jq -r '${pick(r, JQ_FILTERS)}' ${pick(r, ["/api/store.yaml", "/api/events.yaml", ...FILES])}`,
  (r) => `yq '${pick(r, [".paths", ".channels", ".operations", ".components.schemas", "."])}' ${pick(r, ["/api/store.yaml", "/api/events.yaml"])}`,
  (r) => `wc ${pick(r, FLAGS.wc ?? [])} ${some(r, [...FILES, ...GLOBS], 3).join(" ")}`,
  (r) => `stat ${pick(r, FLAGS.stat ?? [])} ${some(r, [...FILES, ...DIRS, ...GLOBS], 2).join(" ")}`,
  (r) => `du ${pick(r, FLAGS.du ?? [])} ${pick(r, [...DIRS, ...FILES])}`,
  (r) => `diff ${pick(r, ["", "-u", "-q", "-r"])} ${pick(r, [...FILES, ...DIRS])} ${pick(r, [...FILES, ...DIRS])}`,
  (r) => `sort ${pick(r, FLAGS.sort ?? [])} ${some(r, [...FILES, ...GLOBS], 2).join(" ")} | uniq -c | sort -rn | head -20`,
  (r) => `cat ${pick(r, [...FILES, ...GLOBS])} | ${pick(r, ["grep -i vault", "sed -n '1,5p'", "awk '{print $1}'", "cut -c1-30", "tr a-z A-Z", "rev", "nl", "tac", "wc -c", "sort -u", "uniq", "paste -sd,", "fold -w 20", "column -t", "od -c | head -5", "base64", "md5sum", "sha256sum", "strings", "expand", "head -c 100"])}`,
  (r) => `sed -n '/${pick(r, PATTERNS)}/p' ${some(r, [...FILES, ...GLOBS], 2).join(" ")}`,
  (r) => `sed 's/${pick(r, ["vault", "rates", "LEAKMARKER", "a"])}/X/g' ${pick(r, [...FILES, ...GLOBS])}`,
  (r) => `awk '/${pick(r, PATTERNS)}/ {print FILENAME": "$0}' ${some(r, [...FILES, ...GLOBS], 2).join(" ")}`,
  (r) => `awk 'END {print NR, FILENAME}' ${pick(r, [...FILES, ...GLOBS])}`,
  (r) => `echo ${some(r, GLOBS, 3).join(" ")}`,
  (r) => `for f in ${pick(r, GLOBS)}; do echo "$f"; ${pick(r, ["head -n 2 \"$f\"", "wc -c < \"$f\"", "test -d \"$f\" && ls \"$f\""])}; done`,
  (r) => `printf '%s\\n' ${pick(r, GLOBS)} | xargs ${pick(r, ["ls -d", "wc -l", "grep -l LEAKMARKER", "stat -c %s", "head -n 1", "du -b"])}`,
  (r) => `test ${pick(r, ["-e", "-d", "-f", "-s", "-r"])} ${pick(r, [...FILES, ...DIRS])} && echo PRESENT || echo ABSENT`,
  (r) => `[ -e ${pick(r, FILES)} ]; echo $?`,
  (r) => `${pick(r, FILES.concat(DIRS).map((p) => `cd ${p} && ls -a && pwd`))}`,
  (r) => `realpath ${some(r, [...FILES, ...DIRS], 2).join(" ")}`,
  (r) => `readlink -f ${pick(r, FILES)}`,
  (r) => `file ${some(r, [...FILES, ...GLOBS], 2).join(" ")}`,
  (r) => `${pick(r, ["basename", "dirname"])} ${pick(r, FILES)}`,
  (r) => `${pick(r, ["rm -rf", "mkdir -p", "touch", "rmdir", "cp /index.mdx", "mv", "chmod 777", "ln -s /index.mdx"])} ${pick(r, [...FILES, ...DIRS])}`,
  (r) => `echo hi > ${pick(r, [...FILES, ...DIRS])}; echo $?`,
  (r) => `cat ${pick(r, FILES)} 2>&1 | head -3`,
  (r) => `cat ${pick(r, FILES)} 2>/dev/null; echo "exit $?"`,
  (r) => `x=$(cat ${pick(r, FILES)} 2>&1); echo "\${#x}"`,
  (r) => `shopt -s globstar nullglob; echo ${pick(r, ["/**/*staff*", "/**/SKILL.md", "/**/*.mdx", "/**/*partners*"])}`,
  (r) => `compgen -G '${pick(r, GLOBS)}'`,
  (r) => `bash -c 'cat ${pick(r, FILES)}; ls ${pick(r, DIRS)}'`,
  (r) => `${pick(r, ["comm", "join", "paste", "diff -q"])} ${pick(r, FILES)} ${pick(r, FILES)}`,
  (r) => `cut -d: -f1 ${pick(r, [...FILES, ...GLOBS])}`,
  (r) => `which ${pick(r, ["rg", "cat", "jq", "nonexistent"])}; hash; type ls`,
  (r) => `ls ${pick(r, [...FILES, ...DIRS])}; echo "status $?"`,
  (r) => `rg -l . / | ${pick(r, ["sort", "wc -l", "xargs wc -c", "xargs ls -l", "xargs stat -c '%s %n'", "xargs du -b"])}`,
  (r) => `find / -name '${pick(r, ["*leak*", "*LEAK*", "SKILL.md", "*.yaml", "*secret*", "*runbook*", "*partners*", "*rates*"])}' ${pick(r, ["", "-print", "-ls"])}`,
];

/** A command line per command the shell offers (ours and just-bash's), so none goes untried. */
function everyCommand(r: Random): string[] {
  const names = new Set([...builtinCommandNames(), "rg", "grep", "egrep", "fgrep", "ls", "tree", "cat", "head", "tail", "wc", "stat", "find", "sort", "uniq", "cut", "sed", "awk", "jq", "xargs", "which", "paste", "tr", "realpath", "du", "diff"]);
  const out: string[] = [];
  for (const name of [...names].sort()) {
    const target = pick(r, [...RESTRICTED_FILES, ...GLOBS]);
    // Each in the shape it takes a path in; commands that read stdin get the file on stdin.
    if (["tr", "tee", "xargs", "base64", "md5sum", "sha1sum", "sha256sum", "od", "strings", "rev", "nl", "tac", "fold", "expand", "unexpand", "column", "uniq", "cut", "split"].includes(name)) {
      out.push(`cat ${target} | ${name === "tr" ? "tr a-z A-Z" : name === "cut" ? "cut -c1-40" : name === "xargs" ? "xargs echo" : name}`);
    } else if (["bash", "sh"].includes(name)) out.push(`${name} -c 'cat ${target}'`);
    else if (["time", "env"].includes(name)) out.push(`${name} cat ${target}`);
    else if (["grep", "egrep", "fgrep", "rg", "sed", "awk"].includes(name)) out.push(`${name} ${name === "awk" ? "'/LEAKMARKER/'" : name === "sed" ? "-n /LEAKMARKER/p" : "LEAKMARKER"} ${target}`);
    else if (name === "jq" || name === "yq") out.push(`${name} . ${target}`);
    else if (name === "xan") out.push(`xan headers ${target}`);
    else if (["seq", "expr", "date", "hostname", "whoami", "true", "false", "help", "pwd", "printenv", "echo", "printf"].includes(name)) out.push(`${name} ${name === "seq" ? "3" : name === "expr" ? "1 + 1" : target}`);
    else out.push(`${name} ${target}`);
  }
  return out;
}

/** `count` distinct command lines from `seed`: one per shell command first, then drawn families. */
export function generateCommands(seed: number, count: number): string[] {
  const r = seededRandom(seed);
  const out = new Set(everyCommand(r));
  for (let tries = 0; out.size < count && tries < count * 20; tries++) out.add(pick(r, FAMILIES)(r).replace(/ {2,}/g, " "));
  return [...out];
}

/** Search words: restricted and public words, marker names, fragments of paths. */
const SEARCH_WORDS = [
  "vault",
  "rotation",
  "rates",
  "discount",
  "drain",
  "restore",
  "master key",
  "reseller",
  "preview",
  "setup",
  "on-call",
  "LEAKMARKER",
  "leakmarker_body_staff",
  "LEAKMARKER_title_partners",
  "open the vault",
  "audit",
  "orders",
  "old version",
  "status",
  "skill",
];
const VERSIONS = [undefined, "v2", "LEAKMARKER_version_staff", "LEAKMARKER_hiddenversion_staff", "v9", "V2"];
const LANGUAGES = [undefined, undefined, "en", "fr"];

export interface SearchCall {
  readonly query: string;
  readonly version?: string;
  readonly language?: string;
}

/** `count` search calls from `seed` (version and language filters included). */
export function generateSearches(seed: number, count: number): SearchCall[] {
  const r = seededRandom(seed ^ 0x5eed);
  const out: SearchCall[] = [];
  for (let i = 0; i < count; i++) {
    const query = some(r, SEARCH_WORDS, 3).join(" ");
    const version = pick(r, VERSIONS);
    const language = pick(r, LANGUAGES);
    out.push({ query, ...(version !== undefined ? { version } : {}), ...(language !== undefined ? { language } : {}) });
  }
  return out;
}

/** Resource URIs a reader may guess (the site's slug is `leak_lab`). */
export const GUESSED_RESOURCES = [
  "docs://leak_lab/skill.md",
  "docs://leak_lab/skills/leakmarker_skilldir_staff/SKILL.md",
  "docs://leak_lab/skills/partner-tools/SKILL.md",
  "docs://leak_lab/skills/partner-tool/SKILL.md",
  "docs://leak_lab/internal/runbook.mdx",
  "docs://leak_lab/drafts/notes.mdx",
];

/** API pages the relay is asked for: public, restricted, and ones that never existed. */
export const RELAY_PAGES = [
  "/api-reference/orders/list-orders",
  "/api-reference/vault/open-the-vault-leakmarker_opsum_staff",
  "/api-reference/orders/reseller-rates-leakmarker_opsum_partners",
  "/api-reference/orders/broken-rule-leakmarker_opsum_malformed",
  "/api-reference/rateschanged",
  "/api-reference/orderplaced",
  "/api-reference/vault/open-the-vault",
];
