/**
 * Issue 25 (adversary round 28 F2): a regex search is charged by the work its engine does, and
 * one search stops inside the engine when it passes the budget. `(a?){1000}a{1000}z` keeps ~2,000
 * threads alive at each character of a line of a's: before, jq and awk charged the characters
 * read alone, grep, rg, sed and find charged nothing for a search on the linear-time engine, and
 * grep, rg, sed and find ran this very pattern on V8 (exponential: `svc-mcp fs` ran it over ten
 * minutes). Each call ended only by the CPU limit; these shells have a small work budget and an
 * hour of time, so before each either answered after seconds of uncounted work or ran on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import { isRisky } from "../../src/engine/shell/regex/shape.js";
import { cpuLimitMessage } from "../../src/engine/shell/shell.js";
import { workLimitMessage } from "../../src/engine/shell/work-budget.js";
import { localContext } from "../../src/vfs/request-context.js";
import type { SiteView } from "../../src/vfs/view.js";
import { makeRepo } from "../helpers/repo.js";

let repo: { dir: string; cleanup: () => void };
let runtime: DocsRuntime;
let view: SiteView;

beforeAll(async () => {
  repo = makeRepo({
    "docs.json": JSON.stringify({ name: "T", navigation: { groups: [{ group: "S", pages: ["index", "guides/setup", "guides/deploy"] }] } }),
    "index.mdx": "---\ntitle: Home\n---\n\nok\n",
    "guides/setup.mdx": "---\ntitle: Setup\n---\n\nok\n",
    "guides/deploy.mdx": "---\ntitle: Deploy\n---\n\nok\n",
  });
  runtime = await DocsRuntime.load({ root: repo.dir });
  view = runtime.readerState(localContext()).view;
});

afterAll(async () => {
  await runtime.close();
  repo.cleanup();
});

/** A shell whose work budget alone can end these calls (the clock and the CPU limit an hour away). */
const budgeted = (maxSteps: number) =>
  new DocsShell(
    view,
    SHELL_COMMANDS.map((make) => make(view)),
    { ...LIMITS.shell, maxSteps, maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000 },
  );
const overBudget = (command: string, maxSteps: number) => ({ stdout: "", stderr: workLimitMessage(command, maxSteps), exitCode: 124, truncated: false });

/** A line of `n` a's, then `bz`: the pattern's literal `z` is there, so re2js cannot skip the line, and nothing matches. */
const line = (n: number) => `{ printf '%*s' ${n} '' | tr ' ' a; echo bz; }`;

describe("a search whose cost per character grows with the pattern ends at the work limit", () => {
  const P = "(a?){1000}a{1000}z";
  it.each([
    ["grep", `${line(20000)} | grep -cE '${P}'`],
    ["rg", `${line(20000)} | rg -c '${P}'`],
    ["sed", `${line(20000)} | sed -E 's/${P}/x/'`],
    ["awk", `${line(20000)} | awk '/${P}/'`],
  ])("%s: %s", async (command, line) => {
    expect(await budgeted(200_000).run(line)).toEqual(overBudget(command, 200_000));
  });

  it("jq: the real jq's regex engine (Oniguruma, inside WebAssembly) is not counted; the same search ends at the CPU limit", async () => {
    const cpuLimited = new DocsShell(view, SHELL_COMMANDS.map((make) => make(view)), { ...LIMITS.shell, maxSteps: 200_000, maxExecutionMs: 3_600_000 });
    expect(await cpuLimited.run(`jq -n '"a" * 20000 + "bz" | test("${P}")'`)).toEqual({ stdout: "", stderr: cpuLimitMessage(LIMITS.shell.maxCpuMs), exitCode: 124, truncated: false });
  });

  // find -regex matches whole paths; a pattern with no literal to look for runs at every one.
  it("find: find / -regextype posix-extended -regex '(.?){1000}.{1000}'", async () => {
    expect(await budgeted(2_000).run("find / -regextype posix-extended -regex '(.?){1000}.{1000}'")).toEqual(overBudget("find", 2_000));
  });

  it("is left to V8 by none of them: the pattern's shape sends it to the linear-time engine, where it is counted", () => {
    expect(isRisky(P)).toBe(true);
    expect(isRisky("(.?){1000}.{1000}")).toBe(true);
    expect(isRisky("a{600}b{600}")).toBe(true);
    expect(isRisky(`(?:${Array.from({ length: 300 }, (_, i) => `w${i}x`).join("|")})`)).toBe(true);
    // Ordinary patterns keep V8.
    expect(isRisky("[0-9a-f]{40}")).toBe(false);
    expect(isRisky("(\\s*#)?\\w{1,3}")).toBe(false);
  });

  it("answers the same searches with a pattern of ordinary size", async () => {
    const p = "(a?){10}a{10}z";
    expect(await budgeted(200_000).run(`${line(2000)} | grep -cE '${p}'; ${line(2000)} | awk '/${p}/' | wc -l; jq -n '"a" * 2000 + "z" | test("${p}")'`)).toEqual({
      stdout: "0\n0\ntrue\n",
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
  });
});
