import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe } from "vitest";
import { NODE22, node22Problem } from "./node22.js";

/**
 * The official MCP conformance suite, as devDependencies: `@modelcontextprotocol/conformance`
 * 0.1 (the 2025 revisions) and `conformance-2026` (the same package at 0.2, for 2026-07-28 and
 * the `authorization` command). Both need Node >= 22 (`fs.globSync`), which tools/node22 provides.
 */
export type SuitePackage = "@modelcontextprotocol/conformance" | "conformance-2026";

export interface Suite {
  /** The suite's command-line entry. */
  readonly cli: string;
  /** The Node >= 22 to run it with. */
  readonly node: string;
}

const require = createRequire(import.meta.url);

/** The suite's entry and the Node to run it with, or why they cannot be had. */
export function findSuite(pkg: SuitePackage): Suite | string {
  let manifest: string;
  try {
    manifest = require.resolve(`${pkg}/package.json`);
  } catch {
    return `${pkg} is not installed`;
  }
  const problem = node22Problem("the suite");
  if (problem !== undefined) return problem;
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> | string };
  const entry = typeof bin === "string" ? bin : Object.values(bin)[0];
  if (entry === undefined) return `${pkg} names no executable`;
  return { cli: join(dirname(manifest), entry), node: NODE22 };
}

/**
 * `describe` for a suite run (or another Node 22 tool found as a Suite: MCP Inspector): skipped
 * with the reason where it cannot be had, except under CI=true, where it runs (and fails saying
 * why) so CI never passes with it skipped.
 */
export function describeSuite(found: Suite | string, name: string, body: (suite: Suite) => void): void {
  const missing = typeof found === "string" ? found : undefined;
  const skip = missing !== undefined && process.env.CI !== "true";
  describe.skipIf(skip)(`${name}${skip ? ` (skipped: ${missing})` : ""}`, () => {
    if (missing !== undefined) throw new Error(`${name} cannot run: ${missing}`);
    body(found as Suite);
  });
}

/** Every checks.json a run wrote, as `scenario: [check id, status]`; `prefix` is the run folders' (`server-`). */
export function checksIn(dir: string, pattern: RegExp): Record<string, [string, string][]> {
  const out: Record<string, [string, string][]> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith("checks.json")) continue;
    const scenario = pattern.exec(entry)?.[1] ?? entry;
    const checks = JSON.parse(readFileSync(join(dir, entry), "utf8")) as { id: string; status: string }[];
    out[scenario] = checks.map((c) => [c.id, c.status]);
  }
  return out;
}
