import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ALL_ACCESS, ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Finding 8 of the security review: site-level names (sections, versions, languages) reach a
 * reader only when they may read a page under them. The site: a `Guides` tab everyone reads,
 * an `Internal` tab of staff pages, a `Partners` tab of partner pages, a `Status` link tab; a
 * hidden (public) version `v1`, a staff-only version `v3-preview`, and a staff-only language `fr`.
 */
const page = (title: string, body: string, groups?: string) => `---\ntitle: ${title}\n${groups !== undefined ? `groups: [${groups}]\n` : ""}---\n\n${body}\n`;
const ATLAS = {
  "docs.json": JSON.stringify({
    name: "Atlas",
    description: "Maps and routing for delivery fleets.",
    navigation: {
      languages: [
        {
          language: "en",
          versions: [
            {
              version: "v2",
              default: true,
              tabs: [
                { tab: "Guides", groups: [{ group: "Start", pages: ["v2/index", "v2/setup"] }] },
                { tab: "Internal", groups: [{ group: "Runbooks", pages: ["v2/internal/runbook"] }] },
                { tab: "Partners", groups: [{ group: "Deals", pages: ["v2/partners/deals"] }] },
                { tab: "Status", href: "https://status.atlas.test" },
              ],
            },
            { version: "v1", hidden: true, searchable: true, groups: [{ group: "Legacy", pages: ["v1/setup"] }] },
            { version: "v3-preview", groups: [{ group: "Preview", pages: ["v3/preview"] }] },
          ],
        },
        { language: "fr", versions: [{ version: "v2", groups: [{ group: "Guides FR", pages: ["fr/index"] }] }] },
      ],
    },
  }),
  "v2/index.mdx": page("Welcome", "Atlas routes delivery fleets."),
  "v2/setup.mdx": page("Setup", "Install the routing agent."),
  "v2/internal/runbook.mdx": page("Runbook", "Restart the routing cluster.", "staff"),
  "v2/partners/deals.mdx": page("Deals", "Partner discounts for routing.", "partners"),
  "v1/setup.mdx": page("Legacy setup", "Install the old routing agent."),
  "v3/preview.mdx": page("Preview", "Routing preview features.", "staff"),
  "fr/index.mdx": page("Bienvenue", "Atlas route les flottes.", "staff"),
};

const READERS: [string, Reader][] = [
  ["anonymous", ANONYMOUS],
  ["staff", readerWithGroups(["staff"])],
  ["partners", readerWithGroups(["partners"])],
  ["all access", ALL_ACCESS],
];

let repo: { dir: string; cleanup: () => void };
let runtime: DocsRuntime;
beforeAll(async () => {
  repo = makeRepo(ATLAS);
  runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.atlas.test" });
});
afterAll(async () => {
  await runtime.close();
  repo.cleanup();
});

/** The generated skill as a reader with these sections and this versions line reads it. */
function skillText(sections: readonly string[], versions: string): string {
  return [
    "---",
    "name: atlas",
    "description: Answer questions about Atlas from its documentation, using the search_atlas and query_docs_filesystem_atlas tools.",
    "---",
    "",
    "# Atlas documentation",
    "",
    "Maps and routing for delivery fleets.",
    "",
    "## What the documentation covers",
    "",
    ...sections.map((title) => `- ${title}`),
    "",
    `Versions: ${versions}. Pass \`version\` to search_atlas to search one.`,
    "",
    "## How to work with these docs",
    "",
    "1. Start with `search_atlas` for a question in plain words; each hit has a title, a link and a snippet.",
    "2. Read pages with `query_docs_filesystem_atlas`. It is a read-only shell over the docs: every page is a file, the link `/a/b` is the file `/a/b.mdx`.",
    "   - Orient yourself: `tree / -L 2`, `ls /guides`.",
    '   - Find text: `rg -il "rate limit" /`, `rg -n -C 3 "webhook" /api`.',
    "   - Read several pages in one call: `head -80 /a.mdx /b.mdx`, `cat /a.mdx /b.mdx`.",
    "   - Read one section: `sed -n '/^## Setup/,/^## /p' /guides/install.mdx`.",
    "3. Cite the page links you used.",
    "",
  ].join("\n");
}

const SEARCH_DESCRIPTION =
  "Search the Atlas documentation. Returns the best-matching pages, each with its title, link, file path and a snippet of the matching section. " +
  "Use it first for any question about Atlas; then read the full pages with query_docs_filesystem_atlas (e.g. `cat /path/to/page.mdx`). " +
  "On a versioned or multilingual site each result names its version(s) and language; without a version filter, the same page in other versions is one result (its other versions listed under it). " +
  "Scores are 0 to 1 and mean the same for every query: how much of the query a page answers (0.5 and above is a strong match, under 0.2 a weak one).";

/** What each reader is told: exactly the sections, versions and languages with a page they may read (the sections of every version, so v3-preview's Preview for the readers of it). */
const EXPECTED: Record<string, { sections: string[]; versions: string; languages: string }> = {
  anonymous: { sections: ["Guides", "Status"], versions: "v2", languages: "en" },
  staff: { sections: ["Guides", "Internal", "Status", "Preview"], versions: "v2, v3-preview (default v2)", languages: "en, fr" },
  partners: { sections: ["Guides", "Partners", "Status"], versions: "v2", languages: "en" },
  "all access": { sections: ["Guides", "Internal", "Partners", "Status", "Preview"], versions: "v2, v3-preview (default v2)", languages: "en, fr" },
};

describe.each(READERS)("what the %s reader is told about the site", (name, reader) => {
  const expected = EXPECTED[name] as (typeof EXPECTED)[string];
  let c: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    c = await connect(runtime, reader);
  });
  afterAll(async () => {
    await c.close();
  });

  it("server instructions", () => {
    expect(c.client.getInstructions()).toBe(
      `Documentation for Atlas: Maps and routing for delivery fleets. It covers: ${expected.sections.join(", ")}. Versions: ${expected.versions}. ` +
        "Use search_atlas to find pages for a question, then query_docs_filesystem_atlas to read them (pages are files: /a/b.mdx is the page at https://docs.atlas.test/a/b). Cite page links in answers.",
    );
  });

  it("the generated skill: its resource, its listing and its file in the shell", async () => {
    const text = skillText(expected.sections, expected.versions);
    expect((await c.client.listResources()).resources).toEqual([
      {
        uri: "docs://atlas/skill.md",
        name: "atlas",
        title: "atlas",
        description: "How to use the Atlas documentation tools (generated)",
        mimeType: "text/markdown",
        size: Buffer.byteLength(text),
      },
    ]);
    expect(await c.client.readResource({ uri: "docs://atlas/skill.md" })).toEqual({ contents: [{ uri: "docs://atlas/skill.md", mimeType: "text/markdown", text }] });
    expect(c.text(await c.call("query_docs_filesystem_atlas", { command: "cat /skill.md" }))).toBe(text);
  });

  it("tool titles and descriptions", async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => [t.name, t.title])).toEqual([
      ["search_atlas", "Search Atlas"],
      ["query_docs_filesystem_atlas", "Query the Atlas docs filesystem"],
    ]);
    expect(tools[0]?.description).toBe(`${SEARCH_DESCRIPTION} Filter values: versions ${expected.versions}; languages ${expected.languages}.`);
  });

  it("error messages list only the reader's versions and languages; a restricted one is as unknown as a made-up one", async () => {
    const error = async (args: Record<string, unknown>) =>
      c.client.callTool({ name: "search_atlas", arguments: { query: "routing", ...args } }).then((r) =>
        r.isError === true ? (r.content as { text: string }[])[0]?.text : "ok",
      );
    const staffLike = expected.languages.includes("fr");
    const noVersion = (got: string) => `Invalid arguments for search_atlas: version: not a version of this site; use one of ${expected.versions.replace(/ \(default v2\)$/, "").replace("v3-preview", "v3-preview (also v3)")}, latest (got "${got}")`;
    const noLanguage = (got: string) => `Invalid arguments for search_atlas: language: not a language of this site; use one of ${expected.languages} (got "${got}")`;
    expect(await error({ version: "v9" })).toBe(noVersion("v9"));
    expect(await error({ version: "v3-preview" })).toBe(staffLike ? "ok" : noVersion("v3-preview"));
    expect(await error({ language: "de" })).toBe(noLanguage("de"));
    expect(await error({ language: "fr" })).toBe(staffLike ? "ok" : noLanguage("fr"));
  });

  it("a hidden version is never listed, and still accepted as a filter", async () => {
    const r = await c.call("search_atlas", { query: "routing agent", version: "v1" });
    expect((r.structuredContent as { results: { path: string; versions?: string[] }[] }).results.map((x) => [x.path, x.versions])).toEqual([["/v1/setup", ["v1"]]]);
  });
});

describe("svc-mcp nav --groups: the navigation as one reader sees it", () => {
  const header = (versions: string, languages: string) =>
    ["Atlas", "root: languages", `versions: ${versions}`, `languages: ${languages}`, "eyebrows: theme default", "drilldown: theme default", ""].join("\n");
  const guides = ["    tab Guides", "      group Start", "        Welcome  /v2/index", "        Setup  /v2/setup"];
  const internal = ["    tab Internal", "      group Runbooks", "        Runbook  /v2/internal/runbook"];
  const partners = ["    tab Partners", "      group Deals", "        Deals  /v2/partners/deals"];
  const status = ["    tab Status  (link https://status.atlas.test)"];
  const v1 = ["  version v1  (hidden, searchable)", "    group Legacy", "      Legacy setup  /v1/setup"];
  const v3 = ["  version v3-preview", "    group Preview", "      Preview  /v3/preview"];
  const fr = ["language fr", "  version v2  (default)", "    group Guides FR", "      Bienvenue  /fr/index"];
  const tree = (lines: string[]) => `${[...lines, ""].join("\n")}`;

  it.each([
    ["an anonymous reader (--groups alone)", [], header("v2 (default), v1 (hidden)", "en (default)"), ["language en", "  version v2  (default)", ...guides, ...status, ...v1]],
    ["staff", ["staff"], header("v2 (default), v1 (hidden), v3-preview", "en (default), fr"), ["language en", "  version v2  (default)", ...guides, ...internal, ...status, ...v1, ...v3, ...fr]],
    ["partners", ["partners"], header("v2 (default), v1 (hidden)", "en (default)"), ["language en", "  version v2  (default)", ...guides, ...partners, ...status, ...v1]],
  ])("%s", async (_name, groups, head, lines) => {
    const run = await runCli(["nav", "--dir", repo.dir, "--groups", ...(groups.length > 0 ? [groups.join(",")] : [])]);
    expect(run).toEqual({ code: 0, stdout: `${head}\n${tree(lines)}`, stderr: "" });
  });

  it("shows everything without --groups (the author's view)", async () => {
    const run = await runCli(["nav", "--dir", repo.dir]);
    expect(run).toEqual({
      code: 0,
      stdout: `${header("v2 (default), v1 (hidden), v3-preview", "en (default), fr")}\n${tree(["language en", "  version v2  (default)", ...guides, ...internal, ...partners, ...status, ...v1, ...v3, ...fr])}`,
      stderr: "",
    });
  });

  it("names only the reader's versions when --version asks for another", async () => {
    expect(await runCli(["nav", "--dir", repo.dir, "--groups", "partners", "--version", "v3-preview"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --version v3-preview: no such version (the site has v2, v1)\n",
    });
  });

  it("--json: versions, languages and pages are the reader's", async () => {
    const run = await runCli(["nav", "--dir", repo.dir, "--json", "--groups", "partners"]);
    const tree = JSON.parse(run.stdout) as { versions: { version: string }[]; languages: { language: string }[]; pages: { page: string }[] };
    expect([tree.versions.map((v) => v.version), tree.languages.map((l) => l.language), tree.pages.map((p) => p.page)]).toEqual([
      ["v2", "v1"],
      ["en"],
      ["/v2/index", "/v2/setup", "/v2/partners/deals", "/v1/setup"],
    ]);
  });
});
