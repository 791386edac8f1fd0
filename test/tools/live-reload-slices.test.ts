import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { tempRepo } from "../config/temp-repo.js";
import { connect } from "../helpers/mcp.js";

// A whole reload (docs.json saved, a folder of pages removed) builds the new snapshot aside and
// gives the thread back between slices; callers are answered from the last good snapshot
// meanwhile, and after it the site is what a fresh start on the new files serves (adversary F5:
// at 25,000 pages such a reload held every caller 2-24 s). The reload is held half way by its
// own slice hook (`LoadSiteOptions.reloadSlices`, every step a slice): the event that it began
// and has not ended, never a time. No limit of its own: at load average 30 a test took 63 s of the
// 120 s it had; a hang is the suite's hang detector's (vitest.config.ts).
const GUIDES = ["alpha", "beta", "gamma", "delta", "epsilon"];
const DOCS = (name: string, group: string, guides: readonly string[]) => ({ name, navigation: { groups: [{ group: "Home", pages: ["index"] }, { group, pages: guides.map((g) => `guides/${g}`) }] } });
const SITE = {
  "docs.json": DOCS("Vault", "Guides", GUIDES),
  "index.mdx": "---\ntitle: Home\n---\n\nWelcome to the vault.\n",
  ...Object.fromEntries(GUIDES.map((g) => [`guides/${g}.mdx`, `---\ntitle: ${g}\n---\n\nHow to rotate the ${g} keys of a vault.\n`])),
};

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of running.splice(0)) await close();
});

/** A reload hook that holds the first slice's turn until `release`, and says when it began. */
function heldTurn() {
  let began!: () => void;
  let release!: () => void;
  const begun = new Promise<void>((resolve) => (began = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  const turn = async (): Promise<void> => {
    if (first) {
      first = false;
      began();
      await released;
    }
  };
  return { begun, release, turn };
}

/** A server over `root` and what a caller sees of it: the tools, the whole tree, a search. */
async function served(root: string, turn?: () => Promise<void>) {
  const runtime = await DocsRuntime.load({ root, ...(turn !== undefined ? { load: { reloadSlices: { ms: 0, turn } } } : {}) });
  const client = await connect(runtime, ANONYMOUS);
  running.push(async () => {
    await client.close();
    await runtime.close();
  });
  const seen = async () => {
    const tools = (await client.client.listTools()).tools.map((t) => t.name);
    const names = runtime.names;
    return {
      tools,
      tree: client.text(await client.call(names.filesystem, { command: "ls -R /" })),
      search: client.text(await client.call(names.search, { query: "rotate the vault keys" })),
    };
  };
  return { runtime, seen };
}

/** Start `edit`'s reload held at its first slice: what callers see then, and once it is applied. */
async function heldReload(root: string, edit: () => void, paths: readonly string[]) {
  const hold = heldTurn();
  const s = await served(root, hold.turn);
  const before = await s.seen();
  edit();
  const applied = s.runtime.applyChanges(paths);
  // Which comes first: the reload's first slice given back, or its end (no slice at all).
  const first = await Promise.race([hold.begun.then(() => "began"), applied.then(() => "applied")]);
  const during = await s.seen();
  hold.release();
  await applied;
  const after = await s.seen();
  const fresh = await (await served(root)).seen();
  return { first, before, during, after, fresh };
}

describe("a whole reload keeps answering from the last good state while it builds the new one", () => {
  it("docs.json saved: held half way, callers get the old tools, tree and search; after, what a fresh start serves", async () => {
    const root = tempRepo(SITE);
    const r = await heldReload(root, () => writeFileSync(join(root, "docs.json"), JSON.stringify(DOCS("Vault Two", "Keys", GUIDES.slice(0, 3)))), ["docs.json"]);
    expect(r.first).toBe("began");
    expect(r.during).toEqual(r.before);
    expect(r.after.tools.filter((t) => t.startsWith("search_"))).toEqual(["search_vault_two"]);
    expect(r.after).toEqual(r.fresh);
    expect(r.after).not.toEqual(r.before);
  });

  it("a folder removed, its pages reported one by one and the folder too: held half way, the old tree; after, what a fresh start serves", async () => {
    const root = tempRepo(SITE);
    const paths = [...GUIDES.map((g) => `guides/${g}.mdx`), "guides"];
    const r = await heldReload(root, () => rmSync(join(root, "guides"), { recursive: true }), paths);
    expect(r.first).toBe("began");
    expect(r.during).toEqual(r.before);
    expect(r.after.tree).toBe("/:\nindex.mdx\nskill.md\n");
    expect(r.after).toEqual(r.fresh);
  });
});
