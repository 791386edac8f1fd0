/**
 * src/engine/shell/just-bash-patches.mjs corrects just-bash's awk by exact text (issue 25). Each
 * correction must find its text exactly once in just-bash's bundle: after an upgrade that moves
 * the code, this fails instead of awk silently printing the old values again.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module without types, shared with the bundle's build.
import { JUST_BASH_PATCHES, RE2JS_PATCHES, patchJustBash } from "../../src/engine/shell/just-bash-patches.mjs";

interface Patch {
  readonly why: string;
  readonly find: string;
  readonly replace: string;
}

const bundle = dirname(createRequire(import.meta.url).resolve("just-bash"));
const files = [join(bundle, "index.js"), ...readdirSync(join(bundle, "chunks")).filter((f) => f.endsWith(".js")).map((f) => join(bundle, "chunks", f))];
const texts = files.map((f) => readFileSync(f, "utf8"));

describe("just-bash patches", () => {
  for (const p of JUST_BASH_PATCHES as readonly Patch[]) {
    it(`finds its text exactly once: ${p.why}`, () => {
      expect(texts.reduce((n, t) => n + t.split(p.find).length - 1, 0)).toBe(1);
    });
  }

  // The patched code itself runs in test/shell/fidelity-values.test.ts (the test runner loads
  // just-bash through the same patches, see vitest.config.ts).
  it("applies every patch across the bundle", () => {
    const applied = new Set<Patch>();
    for (const t of texts) patchJustBash(t, applied);
    expect(applied.size).toBe(JUST_BASH_PATCHES.length);
  });
});

// The npm re2js that LinearRegExp searches with counts its engines' work (re2js-work-patches.mjs, issue 25).
const re2jsText = readFileSync(join(dirname(createRequire(import.meta.url).resolve("re2js")), "index.js"), "utf8");

describe("re2js patches", () => {
  for (const p of RE2JS_PATCHES as readonly Patch[]) {
    it(`finds its text exactly once: ${p.why}`, () => {
      expect(re2jsText.split(p.find).length - 1).toBe(1);
    });
  }

  it("applies every patch to re2js's ES module build, and the patched module exports the count", async () => {
    const applied = new Set<Patch>();
    patchJustBash(re2jsText, applied);
    expect(applied.size).toBe(RE2JS_PATCHES.length);
    // The test runner loads re2js through the same patches (vitest.config.ts).
    expect(typeof ((await import("re2js")) as unknown as { RE2JS_WORK?: { n: number } }).RE2JS_WORK?.n).toBe("number");
  });
});
