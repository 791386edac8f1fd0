import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";

/**
 * A chain of page links (`pub/p.mdx -> q.mdx -> ../guides/real.mdx`) whose middle link is
 * retargeted while serving (adversary F3): the page at the chain's head serves what the chain
 * leads to now, as the middle link does, and is refused with it when it leads into what the
 * ignore rules exclude. Asserted whole through the shell and search after the reload the
 * retarget caused (the runtime's change event).
 */

let tmp: { dir: string; cleanup: () => void } | undefined;
let runtime: DocsRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  tmp?.cleanup();
  runtime = undefined;
  tmp = undefined;
});

const FS = "query_docs_filesystem_nimbus_storage";
const SEARCH = "search_nimbus_storage";
const REAL = '---\ntitle: "Real chain page"\n---\n\nMarker: CHAINREAL lives here.\n';
const OLD = '---\ntitle: "Old chain page"\n---\n\nMarker: CHAINOLD lives here.\n';

/** The demo site with the chain (its middle link at `middle`) and a second target, watched as `serve` watches. */
async function serve(middle = "pub/q.mdx"): Promise<string> {
  tmp = copyToTemp(fixture("demo"));
  const root = tmp.dir;
  // Every page searched, in the navigation or not: the links are not in it.
  const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(root, "docs.json"), JSON.stringify({ ...docs, seo: { indexing: "all" } }));
  writeFileSync(join(root, "guides/real.mdx"), REAL);
  writeFileSync(join(root, "guides/old.mdx"), OLD);
  mkdirSync(join(root, "pub"));
  mkdirSync(join(root, ".links"));
  symlinkSync(middle === "pub/q.mdx" ? "q.mdx" : `../${middle}`, join(root, "pub/p.mdx"));
  symlinkSync("../guides/real.mdx", join(root, middle));
  runtime = await DocsRuntime.load({ root, watch: true });
  await runtime.watch();
  return root;
}

/** Point the middle link at `target` in one step: a link made in a folder not watched, renamed over it (`ln -sfn` then `mv -T`). */
async function retarget(root: string, target: string, middle = "pub/q.mdx"): Promise<void> {
  const r = runtime as DocsRuntime;
  const reloaded = new Promise<void>((resolve) => {
    const stop = r.onChange(() => {
      stop();
      resolve();
    });
  });
  mkdirSync(join(root, ".tmp"), { recursive: true });
  symlinkSync(target, join(root, ".tmp/q.new"));
  renameSync(join(root, ".tmp/q.new"), join(root, middle));
  await reloaded;
}

/** What an anonymous reader sees of the chain's two links. */
async function view(): Promise<unknown> {
  const c = await connect(runtime as DocsRuntime);
  try {
    const hits = async (query: string): Promise<string[]> => ((await c.call(SEARCH, { query })).structuredContent as { results: { path: string }[] }).results.map((h) => h.path).sort();
    return {
      ls: c.text(await c.call(FS, { command: "ls /pub" })),
      p: c.text(await c.call(FS, { command: "cat /pub/p.mdx" })),
      q: c.text(await c.call(FS, { command: "cat /pub/q.mdx" })),
      rg: c.text(await c.call(FS, { command: "rg -l 'CHAIN|DRAFT-IGNORED' /pub" })),
      real: await hits("CHAINREAL"),
      old: await hits("CHAINOLD"),
      draft: await hits("DRAFT-IGNORED-5B0D"),
    };
  } finally {
    await c.close();
  }
}

describe("a chain of page links, its middle link retargeted while serving (adversary F3)", () => {
  it("the chain's head serves the new target, in the shell and in search", async () => {
    const root = await serve();
    expect(await view()).toEqual({ ls: "p.mdx\nq.mdx\n", p: REAL, q: REAL, rg: "/pub/p.mdx\n/pub/q.mdx\n", real: ["/guides/real", "/pub/p", "/pub/q"], old: ["/guides/old"], draft: [] });
    await retarget(root, "../guides/old.mdx");
    expect(await view()).toEqual({ ls: "p.mdx\nq.mdx\n", p: OLD, q: OLD, rg: "/pub/p.mdx\n/pub/q.mdx\n", real: ["/guides/real"], old: ["/guides/old", "/pub/p", "/pub/q"], draft: [] });
  });

  it("pointed at an ignored draft, the chain's head is refused with it; pointed back, both serve again", async () => {
    const root = await serve();
    await retarget(root, "../drafts/notes.mdx");
    const gone = (name: string): string => `cat: /pub/${name}: No such file or directory\n[exit code 1]`;
    expect(await view()).toEqual({ ls: "ls: cannot access '/pub': No such file or directory\n[exit code 2]", p: gone("p.mdx"), q: gone("q.mdx"), rg: "/pub: No such file or directory (os error 2)\n[exit code 2]", real: ["/guides/real"], old: ["/guides/old"], draft: [] });
    await retarget(root, "../guides/old.mdx");
    expect(await view()).toEqual({ ls: "p.mdx\nq.mdx\n", p: OLD, q: OLD, rg: "/pub/p.mdx\n/pub/q.mdx\n", real: ["/guides/real"], old: ["/guides/old", "/pub/p", "/pub/q"], draft: [] });
  });

  it("a middle link in a dot-folder, never served itself, is watched for the pages read through it", async () => {
    const root = await serve(".links/q.mdx");
    const c = await connect(runtime as DocsRuntime);
    try {
      expect({ ls: c.text(await c.call(FS, { command: "ls /pub" })), p: c.text(await c.call(FS, { command: "cat /pub/p.mdx" })) }).toEqual({ ls: "p.mdx\n", p: REAL });
      await retarget(root, "../guides/old.mdx", ".links/q.mdx");
      expect({ ls: c.text(await c.call(FS, { command: "ls /pub" })), p: c.text(await c.call(FS, { command: "cat /pub/p.mdx" })) }).toEqual({ ls: "p.mdx\n", p: OLD });
      await retarget(root, "../drafts/notes.mdx", ".links/q.mdx");
      expect({ ls: c.text(await c.call(FS, { command: "ls /pub" })), rg: c.text(await c.call(FS, { command: "rg -l DRAFT-IGNORED /" })) }).toEqual({ ls: "ls: cannot access '/pub': No such file or directory\n[exit code 2]", rg: "[exit code 1]" });
    } finally {
      await c.close();
    }
  });

  it("a folder link among the target's parents, retargeted, re-reads the page link through it", async () => {
    tmp = copyToTemp(fixture("demo"));
    const root = tmp.dir;
    mkdirSync(join(root, "v1"));
    mkdirSync(join(root, "v2"));
    writeFileSync(join(root, "v1/page.mdx"), REAL);
    writeFileSync(join(root, "v2/page.mdx"), OLD);
    symlinkSync("v1", join(root, "current"));
    mkdirSync(join(root, "pub"));
    symlinkSync("../current/page.mdx", join(root, "pub/p.mdx"));
    runtime = await DocsRuntime.load({ root, watch: true });
    await runtime.watch();
    const c = await connect(runtime);
    try {
      expect(c.text(await c.call(FS, { command: "cat /pub/p.mdx" }))).toBe(REAL);
      await retarget(root, "v2", "current");
      expect(c.text(await c.call(FS, { command: "cat /pub/p.mdx" }))).toBe(OLD);
    } finally {
      await c.close();
    }
  });
});
