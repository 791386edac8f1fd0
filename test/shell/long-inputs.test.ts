/**
 * Commands over inputs of hundreds of thousands of lines or patterns answer as GNU's do. Passing
 * an array's items as a call's arguments (`lines.push(...more)`) throws in V8 past ~100,000
 * items: `cat $(find / -name '*.mdx') | sort` on a real site (175,180 lines) answered
 * "sort: Maximum call stack size exceeded". The lint forbids that form in src/.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { appendAll, maxOf, minOf } from "../../src/arrays.js";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";

let shell: Shell;

beforeAll(async () => {
  const runtime = await DocsRuntime.load({ root: fixture("demo") });
  const view = runtime.readerState(localContext()).view;
  // No time limit to speak of: these take seconds on a busy machine, and the answer is the point.
  shell = new DocsShell(view, SHELL_COMMANDS.map((make) => make(view)), { ...LIMITS.shell, maxExecutionMs: 600_000 });
});

const ok = (stdout: string) => ({ stdout, stderr: "", exitCode: 0, truncated: false });

describe("long inputs", () => {
  it("sorts 140,000 lines", async () => {
    // seq stops at 10,000 numbers a call: fourteen calls make 1..140000.
    const lines = (n: number) => `for i in {1..${n / 10_000}}; do seq $((i * 10000 - 9999)) $((i * 10000)); done`;
    expect(await shell.run(`${lines(140_000)} | sort | tail -2`)).toEqual(ok("99998\n99999\n"));
    expect(await shell.run(`${lines(140_000)} | sort -rn | head -1`)).toEqual(ok("140000\n"));
    expect(await shell.run(`${lines(140_000)} | sort -u | wc -l`)).toEqual(ok("140000\n"));
  });
});

describe("array helpers", () => {
  const many = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 300_007);

  it("append, and find the largest and smallest of, 300,000 items", () => {
    expect(appendAll([1], many).length).toBe(300_001);
    expect(maxOf(many)).toBe(Math.max(...many.slice(0, 50_000), ...many.slice(50_000, 100_000), maxOf(many.slice(100_000))));
    expect([maxOf([3, 9, 2]), minOf([3, 9, 2]), maxOf([]), minOf([]), maxOf([], 0), maxOf([1, Number.NaN])]).toEqual([9, 2, -Infinity, Infinity, 0, Number.NaN]);
  });
});
