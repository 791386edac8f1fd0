import { describe, expect, it } from "vitest";
import { fnmatchRegex, gitignoreGlob } from "./glob.js";

/** A fixed-seed generator (mulberry32): the same globs and paths on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

describe("globs with many stars (the linear matcher)", () => {
  const next = random(20_240_607);
  const GLOB_PARTS = ["a", "B", "b", "/", ".", "é", "*", "*", "?", "[ab]", "[!a]", "[[:upper:]]", "\\*", "**", "{a,b*}", "/**/"];
  const PATH_CHARS = ["a", "A", "b", "B", "/", ".", "é", "É", "*", "x"];
  const globs = Array.from({ length: 400 }, () => Array.from({ length: 1 + Math.floor(next() * 9) }, () => pick(next, GLOB_PARTS)).join(""));
  const paths = Array.from({ length: 60 }, () => Array.from({ length: Math.floor(next() * 12) }, () => pick(next, PATH_CHARS)).join(""));

  it("answer exactly what the regex answers (fnmatch, gitignore, either case)", () => {
    let compared = 0;
    const differences: unknown[] = [];
    for (const glob of globs) {
      for (const ignoreCase of [false, true]) {
        const regex = fnmatchRegex(glob, ignoreCase, "regex");
        const linear = fnmatchRegex(glob, ignoreCase, "linear");
        const ignoreRegex = gitignoreGlob(glob, ignoreCase, "regex").regex;
        const ignoreLinear = gitignoreGlob(glob, ignoreCase, "linear").regex;
        for (const path of paths) {
          if (linear.test(path) !== regex.test(path)) differences.push({ glob, ignoreCase, path, kind: "fnmatch" });
          if (ignoreLinear.test(path) !== ignoreRegex.test(path)) differences.push({ glob, ignoreCase, path, kind: "gitignore" });
          compared++;
        }
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBe(400 * 2 * 60);
  });

  it("are matched linearly: a name no split of `*?*?...` fits is refused at once", () => {
    const glob = `${"*?".repeat(40)}z`;
    const name = "a".repeat(200);
    expect(fnmatchRegex(glob).test(name)).toBe(false);
    expect(gitignoreGlob(glob).regex.test(`x/${name}`)).toBe(false);
    expect(fnmatchRegex(glob).test(`${name}z`)).toBe(true);
  });
});
