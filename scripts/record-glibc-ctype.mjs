#!/usr/bin/env node
/**
 * Records glibc's character classes in the C.UTF-8 locale, as GNU grep 3.8 and sed 4.9 match
 * them, into src/engine/shell/regex/glibc-ctype-tables.ts. Asks the real grep: every code point
 * (but `\n` and surrogates) on a line of its own, `grep -n -a '^[[:alpha:]]$'`; checks that sed
 * agrees and that the classes the module derives (alnum, punct, print) equal grep's own.
 * Also records glibc's towupper and towlower (sed's `\U` and `\L` on every code point) and checks
 * that the case folding gnu-case.ts derives from them (gnulib's case_folded_counterparts) is what
 * `grep -i` and sed's `I` match, for every character that has a case (one grep and one sed each).
 * Run on a machine with GNU grep 3.8 and glibc 2.36 (Debian 12): `node scripts/record-glibc-ctype.mjs`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";

const env = { ...process.env, LC_ALL: "C.UTF-8" };
const dir = mkdtempSync(join(tmpdir(), "glibc-ctype-"));
const file = join(dir, "all.txt");
const cps = [];
for (let cp = 0; cp <= 0x10ffff; cp++) if (cp !== 0x0a && (cp < 0xd800 || cp > 0xdfff)) cps.push(cp);
writeFileSync(file, cps.map((cp) => String.fromCodePoint(cp)).join("\n") + "\n");

function members(tool, name) {
  const out =
    tool === "grep"
      ? execFileSync("grep", ["-n", "-a", `^[[:${name}:]]$`, file], { env, maxBuffer: 1 << 28 }).toString("latin1")
      : execFileSync("sed", ["-n", `/^[[:${name}:]]$/=`, file], { env, maxBuffer: 1 << 28 }).toString("latin1");
  return new Set(out.split("\n").filter((l) => l !== "").map((l) => cps[Number.parseInt(l, 10) - 1]));
}

function ranges(set) {
  const out = [];
  for (const cp of [...set].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === cp - 1) last[1] = cp;
    else out.push([cp, cp]);
  }
  return out.map(([lo, hi]) => (lo === hi ? lo.toString(16) : `${lo.toString(16)}-${hi.toString(16)}`)).join(" ");
}

const names = ["alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit"];
const sets = {};
for (const name of names) {
  sets[name] = members("grep", name);
  if (ranges(members("sed", name)) !== ranges(sets[name])) throw new Error(`sed and grep differ on [:${name}:]`);
}
const union = (...ss) => new Set(ss.flatMap((s) => [...s]));
const minus = (a, b) => new Set([...a].filter((x) => !b.has(x)));
const same = (a, b) => ranges(a) === ranges(b);
if (!same(sets.alnum, union(sets.alpha, sets.digit))) throw new Error("alnum is not alpha and digit");
if (!same(sets.punct, minus(sets.graph, sets.alnum))) throw new Error("punct is not graph less alnum");
if (!same(sets.print, union(sets.graph, minus(sets.blank, new Set([9]))))) throw new Error("print is not graph and blank less tab");

// towupper and towlower: sed's \U and \L map one character at a time.
const mapped = (script) => execFileSync("sed", [script, file], { env, maxBuffer: 1 << 28 }).toString("utf8").split("\n");
const [uppers, lowers] = [mapped("s/.*/\\U&/"), mapped("s/.*/\\L&/")];
const toUpper = new Map();
const toLower = new Map();
cps.forEach((cp, i) => {
  const u = (uppers[i] ?? "").codePointAt(0);
  const l = (lowers[i] ?? "").codePointAt(0);
  if ([...(uppers[i] ?? "")].length !== 1 || [...(lowers[i] ?? "")].length !== 1) throw new Error(`sed maps U+${cp.toString(16)} to several characters`);
  if (u !== cp) toUpper.set(cp, u);
  if (l !== cp) toLower.set(cp, l);
});
const pairs = (map) => [...map].map(([a, b]) => `${a.toString(16)}:${b.toString(16)}`).join(" ");
// The fold gnu-case.ts derives, checked against the real grep -i and sed I for every cased character.
const cased = [...new Set([...toUpper.keys(), ...toUpper.values(), ...toLower.keys(), ...toLower.values()])].sort((a, b) => a - b);
const casedFile = join(dir, "cased.txt");
writeFileSync(casedFile, cased.map((cp) => String.fromCodePoint(cp)).join("\n") + "\n");
const { caseFoldedCounterparts } = await tsImport("../src/engine/shell/regex/case-counterparts.ts", import.meta.url);
const up = (c) => toUpper.get(c) ?? c;
const low = (c) => toLower.get(c) ?? c;
for (const cp of cased) {
  const ch = String.fromCodePoint(cp);
  const want = [cp, ...caseFoldedCounterparts(cp, up, low)].filter((x) => cased.includes(x)).sort((a, b) => a - b).join();
  for (const [tool, args] of [["grep", ["-n", "-a", "-i", "-x", "-e", ch, casedFile]], ["sed", ["-n", `/^${ch}$/I=`, casedFile]]]) {
    const got = execFileSync(tool, args, { env }).toString("utf8").split("\n").filter((x) => x !== "").map((x) => cased[Number.parseInt(x, 10) - 1]).sort((a, b) => a - b).join();
    if (got !== want) throw new Error(`${tool} -i: U+${cp.toString(16)} matches ${got}, the derived fold says ${want}`);
  }
}
rmSync(dir, { recursive: true, force: true });

const stored = ["alpha", "upper", "lower", "punct", "graph", "space", "blank", "cntrl"];
let text = `/**
 * glibc 2.36's character classes in the C.UTF-8 locale, as GNU grep 3.8 and sed 4.9 match them:
 * code point ranges in hex ("41-5a 61-7a aa ..."). Generated by scripts/record-glibc-ctype.mjs
 * from the real grep; do not edit. \`digit\` and \`xdigit\` are ASCII; alnum, punct and print
 * derive from these (glibc-ctype.ts). \`\\n\` is a member of none here (searches never cross a line).
 */
export const GLIBC_CTYPE_RANGES = {
`;
for (const name of stored) text += `  ${name}: "${ranges(minus(sets[name], new Set([10])))}",\n`;
text += "} as const;\n";
text += `
/** glibc's towupper and towlower in the C.UTF-8 locale (hex "from:to", where they change a character), recorded from sed's \\U and \\L. */
export const GLIBC_TOUPPER = "${pairs(toUpper)}";
export const GLIBC_TOLOWER = "${pairs(toLower)}";
`;
writeFileSync(new URL("../src/engine/shell/regex/glibc-ctype-tables.ts", import.meta.url), text);
console.log(Object.fromEntries(names.map((n) => [n, sets[n].size])));
