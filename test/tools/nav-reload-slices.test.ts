import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ALL_ACCESS } from "../../src/vfs/access.js";
import { tempRepo } from "../config/temp-repo.js";
import { connect } from "../helpers/mcp.js";

// A docs.json whose `$ref`s expand to a large navigation (up to `maxNavigationEntries`, 100,000)
// held every caller for its whole reload while serving: the `$ref`s' expansion, the schema and
// the rules each walk the whole navigation, several seconds at 90,000 entries. The reload now
// gives the thread back between the stages of docs.json's reading, and inside the long walks.
// Held at the first turn taken while the `$ref`s are being expanded (its own slice hook, every
// step a slice: an event, never a time), a caller is answered from the last good configuration;
// released, the new navigation is served whole. No limit of its own: at load average 30 it took
// 74 s of the 120 s it had; a hang is the suite's hang detector's (vitest.config.ts).
const LEVELS = 6;

/** n/n0.json .. n/n6.json: each level a group of four `$ref`s to the next, the last one page:
 *  5,460 groups listed and 4,096 listings of `p` (the first is `p`'s own group). */
function fanOut(): Record<string, object> {
  const files: Record<string, object> = {};
  for (let i = 0; i <= LEVELS; i++) {
    const next = { $ref: `n${i + 1}.json` };
    files[`n/n${i}.json`] = i < LEVELS ? { group: `G${i}`, pages: [next, next, next, next] } : { group: "L", pages: ["p"] };
  }
  return files;
}

const PAGE = "---\ntitle: P\n---\n\nRotate the vault keys every quarter.\n";
const GOOD = { name: "Vault", navigation: { groups: [{ group: "G", pages: ["p"] }] } };
const LARGE = { name: "Vault Two", navigation: { groups: [{ group: "G", pages: ["p"] }, { $ref: "n/n0.json" }] } };

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of running.splice(0)) await close();
});

/** A reload hook that holds the first turn taken inside docs.json's reading until `release`, and
 *  keeps the stages it was given, each once, in order. */
function heldInDocsJson() {
  let began!: () => void;
  let release!: () => void;
  const begun = new Promise<void>((resolve) => (began = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const stages: string[] = [];
  let held = false;
  const turn = async (stage?: string): Promise<void> => {
    if (stage !== undefined && !stages.includes(stage)) stages.push(stage);
    if (!held && stage?.startsWith("docs.json ") === true) {
      held = true;
      began();
      await released;
    }
  };
  return { begun, release, turn, stages };
}

describe("a large docs.json saved while serving", () => {
  it("is read in slices: held inside the $refs' expansion, callers are answered from the last good configuration; released, the new navigation serves", async () => {
    const root = tempRepo({ "docs.json": GOOD, "p.mdx": PAGE });
    const hold = heldInDocsJson();
    const runtime = await DocsRuntime.load({ root, load: { reloadSlices: { ms: 0, turn: hold.turn } } });
    const client = await connect(runtime, ALL_ACCESS);
    running.push(async () => {
      await client.close();
      await runtime.close();
    });
    const seen = async () => {
      const tools = (await client.client.listTools()).tools.map((t) => t.name).filter((t) => t.startsWith("search_") || t.startsWith("query_docs_filesystem_"));
      const names = runtime.names;
      return {
        tools,
        cat: client.text(await client.call(names.filesystem, { command: "cat /p.mdx" })),
        search: client.text(await client.call(names.search, { query: "rotate the vault keys" })),
        groups: runtime.site.config.sections.length,
        diagnostics: runtime.site.diagnostics.length,
      };
    };
    const before = await seen();
    expect(before).toMatchObject({ tools: ["search_vault", "query_docs_filesystem_vault"], groups: 1, diagnostics: 0 });

    const files = fanOut();
    for (const [rel, value] of Object.entries(files)) {
      mkdirSync(join(root, "n"), { recursive: true });
      writeFileSync(join(root, rel), JSON.stringify(value));
    }
    writeFileSync(join(root, "docs.json"), JSON.stringify(LARGE));
    const applied = runtime.applyChanges(["docs.json", ...Object.keys(files)]);
    // Which comes first: a turn inside docs.json's reading, or the reload's end (none taken there).
    const first = await Promise.race([hold.begun.then(() => "held inside docs.json"), applied.then(() => "applied")]);
    expect(first).toBe("held inside docs.json");
    expect(hold.stages).toEqual(["docs.json $refs (part)"]);
    // Meanwhile: a ping, and every answer the one of before (the last good configuration).
    await client.client.ping();
    expect(await seen()).toEqual(before);

    hold.release();
    await applied;
    // Every stage of the reading gave the thread back (ms: 0), the long walks more than once.
    expect(hold.stages).toEqual([
      "docs.json $refs (part)",
      "docs.json $refs resolved",
      "docs.json schema",
      "docs.json rule root-element",
      "docs.json rule child-types,menu-children,group-children,menu-placement",
      "docs.json rule group-pages,is-default-open",
      "docs.json rule expanded",
      "docs.json rule reserved-path",
      "docs.json rule default-version,duplicate-version,duplicate-language",
      "docs.json rule language-code",
      "docs.json rule duplicate-page (part)",
      "docs.json rule duplicate-page",
      "docs.json rule playground-display",
      "docs.json rule canonical-url",
      "docs.json readable document",
      "docs.json findings sorted",
      "docs.json configuration read",
      "API references in the navigation (part)",
      "API references in the navigation",
      "API specs loaded",
      "API pages planned",
    ]);
    const after = await seen();
    // The new navigation: its name, the page's group and the fan-out's top group; `p` listed
    // again in each of the 4,096 last-level groups (a warning each).
    expect(after).toEqual({ ...before, tools: ["search_vault_two", "query_docs_filesystem_vault_two"], search: after.search, groups: 2, diagnostics: 4_096 });
    expect(after.search).toBe(before.search.replaceAll("search_vault", "search_vault_two"));
  });
});
