import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { agentView } from "../../../src/engine/use-cases/agent-view.js";
import { readablePageAt } from "../../../src/engine/use-cases/preview-page.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../../src/vfs/access.js";
import { localContext } from "../../../src/vfs/request-context.js";
import { navigationOfSite } from "../../../src/vfs/site-nav.js";
import { connect } from "../../helpers/mcp.js";
import { makeRepo } from "../../helpers/repo.js";

/**
 * `x.mdx` and `x.md` are both the page `/x`: the MDX file is the page, the other only a file
 * (docs/repository.md). A file a reader may not read does not exist for them, so a restricted
 * `x.mdx` beside a public `x.md` must leave other readers `x.md` as the page `/x`, in search
 * exactly as on the site without `x.mdx` (an adversary found `/x` gone from their search), while
 * its readers get `x.mdx`, the page `cat` and `ls` agree with.
 */
const DOCS = JSON.stringify({ name: "Acme", navigation: { pages: ["guides/setup", "guides/rotate", "guides/tips", "guides/keys"] } });
const PUBLIC = {
  "docs.json": DOCS,
  "guides/setup.mdx": "---\ntitle: Setup\n---\nInstall the agent and rotate the keys once a year.\n\n## Verify\n\nCheck the agent status page.\n",
  "guides/tips.mdx": "---\ntitle: Tips\n---\nA setup checklist: keys, agent, status page.\n",
  "guides/keys.mdx": "---\ntitle: Keys\n---\nKeys are rotated by the agent.\n",
  "guides/rotate.md": "---\ntitle: Rotating keys\n---\nRotate keys from the status page of the agent.\n\n## Schedule\n\nOnce a year, or when staff leave.\n",
};
const RESTRICTED = {
  ...PUBLIC,
  "guides/rotate.mdx": "---\ntitle: Rotating keys (staff)\ngroups: [staff]\n---\nStaff rotate the vault keys with the zanzibar runbook.\n\n## Schedule\n\nEvery quarter, by the on-call quokka.\n",
};
const SEARCH = "search_acme";
const FS = "query_docs_filesystem_acme";
const STAFF = readerWithGroups(["staff"]);
const TIME = new Date("2026-01-02T03:04:05Z");

async function open(files: Record<string, string>) {
  const repo = makeRepo(files);
  // One time for every file: the two sites' answers then differ only where their files do.
  for (const path of Object.keys(files)) utimesSync(join(repo.dir, path), TIME, TIME);
  const runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.acme.test" });
  const anon = await connect(runtime, ANONYMOUS);
  const staff = await connect(runtime, STAFF);
  return {
    dir: repo.dir,
    runtime,
    /** Everything a search answers, whole. */
    search: async (client: typeof anon, query: string) => (await client.call(SEARCH, { query, pageSize: 20 })).structuredContent,
    shell: async (client: typeof anon, command: string) => client.text(await client.call(FS, { command })),
    anon,
    staff,
    close: async () => {
      await anon.close();
      await staff.close();
      await runtime.close();
      repo.cleanup();
    },
  };
}

const QUERIES = ["rotate keys", "schedule", "agent status page", "rotating", "zanzibar vault", "quarter quokka", "once a year"];

describe("a restricted x.mdx beside a public x.md", () => {
  it("leaves other readers the public x.md as the page /x: their searches equal those of the site without x.mdx", async () => {
    const site = await open(RESTRICTED);
    const without = await open(PUBLIC);
    try {
      for (const query of QUERIES) expect(await site.search(site.anon, query)).toEqual(await without.search(without.anon, query));
      // It is there: the comparison is not of two empty answers.
      expect((await site.search(site.anon, "schedule")) as unknown).toMatchObject({ results: [{ path: "/guides/rotate", title: "Rotating keys", section: "Schedule", snippet: "Once a year, or when staff leave." }] });
    } finally {
      await site.close();
      await without.close();
    }
  });

  it("gives its readers x.mdx as the page, as the shell and the loader's rule say", async () => {
    const site = await open(RESTRICTED);
    try {
      const found = (await site.search(site.staff, "schedule")) as { results: { path: string; title: string; snippet: string }[] };
      expect(found.results.map((r) => [r.path, r.title, r.snippet])).toEqual([["/guides/rotate", "Rotating keys (staff)", "Every quarter, by the on-call quokka."]]);
      // x.md is only a file for them: its words find no page.
      expect(await site.search(site.staff, "leave")).toEqual(await site.search(site.staff, "xylograph"));
      expect(await site.shell(site.staff, "ls /guides")).toBe("keys.mdx\nrotate.md\nrotate.mdx\nsetup.mdx\ntips.mdx\n");
      expect(await site.shell(site.anon, "ls /guides")).toBe("keys.mdx\nrotate.md\nsetup.mdx\ntips.mdx\n");
      expect(await site.shell(site.anon, "cat /guides/rotate.mdx")).toBe(await site.shell(site.anon, "cat /guides/rotatf.mdx").then((t) => t.replaceAll("rotatf", "rotate")));
    } finally {
      await site.close();
    }
  });

  it("follows edits while serving: x.mdx removed, x.mdx back", async () => {
    const site = await open(RESTRICTED);
    const without = await open(PUBLIC);
    try {
      rmSync(join(site.dir, "guides/rotate.mdx"));
      await site.runtime.applyChanges(["guides/rotate.mdx"]);
      for (const reader of [site.anon, site.staff]) expect(await site.search(reader, "schedule")).toEqual(await without.search(without.anon, "schedule"));
      writeFileSync(join(site.dir, "guides/rotate.mdx"), RESTRICTED["guides/rotate.mdx"]);
      await site.runtime.applyChanges(["guides/rotate.mdx"]);
      for (const query of QUERIES) expect(await site.search(site.anon, query)).toEqual(await without.search(without.anon, query));
      expect(((await site.search(site.staff, "schedule")) as { results: { title: string }[] }).results.map((r) => r.title)).toEqual(["Rotating keys (staff)"]);
    } finally {
      await site.close();
      await without.close();
    }
  });

  it("leaves other readers x.md in navigation, the page views and the agent view, with its own title and file", async () => {
    const site = await open(RESTRICTED);
    const without = await open(PUBLIC);
    try {
      const of = (s: typeof site, reader: Reader) => {
        const context = { request: localContext(reader), runtime: s.runtime };
        return {
          nav: navigationOfSite(s.runtime.site, { context: context.request }),
          page: readablePageAt(context, "/guides/rotate"),
          agent: async () => agentView(context, readablePageAt(context, "/guides/rotate") ?? assertNever()),
        };
      };
      const anon = of(site, ANONYMOUS);
      const anonWithout = of(without, ANONYMOUS);
      expect(anon.nav).toEqual(anonWithout.nav);
      expect(JSON.stringify(anon.nav)).toContain('"title":"Rotating keys","file":"guides/rotate.md"');
      expect(anon.page?.file.path).toBe("/guides/rotate.md");
      expect(await anon.agent()).toEqual(await anonWithout.agent());
      const staff = of(site, STAFF);
      expect(JSON.stringify(staff.nav)).toContain('"title":"Rotating keys (staff)","file":"guides/rotate.mdx"');
      expect((await staff.agent()).sections.map((x) => x.text)).toEqual(["Staff rotate the vault keys with the zanzibar runbook.", "Every quarter, by the on-call quokka."]);
    } finally {
      await site.close();
      await without.close();
    }
  });

  it("a restricted x.mdx leaves other readers x/index.mdx as the navigation entry x", async () => {
    const docs = JSON.stringify({ name: "Acme", navigation: { pages: ["intro", "guides/setup"] } });
    const base = { "docs.json": docs, "intro/index.mdx": "---\ntitle: Introduction\n---\nWelcome.\n", "guides/setup.mdx": PUBLIC["guides/setup.mdx"] };
    const site = await open({ ...base, "intro.mdx": "---\ntitle: Staff intro\ngroups: [staff]\n---\nStaff only.\n" });
    const without = await open(base);
    try {
      const nav = (s: typeof site) => navigationOfSite(s.runtime.site, { context: localContext(ANONYMOUS) });
      expect(nav(site)).toEqual(nav(without));
      expect(JSON.stringify(nav(site))).toContain('"title":"Introduction"');
    } finally {
      await site.close();
      await without.close();
    }
  });
});

describe("skill.md beside a restricted skill.mdx", () => {
  it("is described by its own front matter for every reader", async () => {
    const site = await open({
      ...PUBLIC,
      "skill.md": "---\nname: acme-helper\ndescription: How to use the Acme docs.\n---\nSearch first.\n",
      "skill.mdx": "---\nname: staff-helper\ndescription: Staff runbooks.\ngroups: [staff]\n---\nStaff only.\n",
    });
    try {
      for (const client of [site.anon, site.staff]) {
        const { resources } = await client.client.listResources();
        expect(resources.map((r) => [r.uri, r.name, r.description])).toEqual([["docs://acme/skill.md", "acme-helper", "How to use the Acme docs."]]);
      }
    } finally {
      await site.close();
    }
  });
});

function assertNever(): never {
  throw new Error("no page");
}
