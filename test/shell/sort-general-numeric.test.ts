/**
 * `sort -g` reads keys as C's `strtold` does and orders them as GNU sort 9.1 does: conversion
 * errors, then NaNs, then numbers; hexadecimal floats, `inf` and `nan` in any case (adversary
 * round 12, F6: `0x1A` was read as 0 and `nan` put after `-inf`). Expected outputs recorded from
 * GNU coreutils 9.1 `sort` on the same lines.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { compareGeneralNumeric, strtold } from "../../src/engine/shell/lib/strtold.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";

const LINES = ["a 0x1A", "b 10", "c 27", "d 0x10", "e 1e1", "f -inf", "g nan", "h 0x1p4", "i abc", "j 1e400", "k INFINITY", "l -0x.8", "m nan(2)", "n -nan(1)"];

let shell: Shell;
beforeAll(async () => {
  const runtime = await DocsRuntime.load({ root: fixture("demo") });
  shell = runtime.readerState(localContext()).shell;
});

const sorted = async (options: string): Promise<string[]> => {
  const r = await shell.run(`printf '%s\\n' ${LINES.map((l) => `'${l}'`).join(" ")} | sort ${options}`);
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").slice(0, -1);
};

describe("sort -g", () => {
  it("orders conversion errors, NaNs (by payload), then numbers, as GNU sort", async () => {
    expect(await sorted("-g -k2")).toEqual(["i abc", "g nan", "n -nan(1)", "m nan(2)", "f -inf", "l -0x.8", "b 10", "e 1e1", "d 0x10", "h 0x1p4", "a 0x1A", "c 27", "j 1e400", "k INFINITY"]);
  });

  it("reverses that order with -r", async () => {
    expect(await sorted("-gr -k2")).toEqual(["k INFINITY", "j 1e400", "c 27", "a 0x1A", "h 0x1p4", "d 0x10", "e 1e1", "b 10", "l -0x.8", "f -inf", "m nan(2)", "n -nan(1)", "g nan", "i abc"]);
  });
});

describe("strtold", () => {
  it("reads what C's strtold reads at the start of a text", () => {
    expect(["0x1A", "0X1P-2", "0x.8", "0x", "0x1g", " \t+3", "5.", ".5", "1e", "1e+", "1.5e3x", "infinit", "-Infinity", ".", "e5", "-", "1,5"].map((t) => strtold(t))).toEqual([
      26, 0.25, 0.5, 0, 1, 3, 5, 0.5, 1, 1, 1500, Infinity, -Infinity, undefined, undefined, undefined, 1,
    ]);
  });

  it("counts -0 and +0 equal, and a long double's range past a double's as larger than any double", () => {
    expect(compareGeneralNumeric("-0", "0")).toBe(0);
    expect(compareGeneralNumeric("1e400", "1.7e308")).toBe(1);
    expect(compareGeneralNumeric("1e400", "inf")).toBe(-1);
    expect(compareGeneralNumeric("-inf", "-1e400")).toBe(-1);
  });
});
