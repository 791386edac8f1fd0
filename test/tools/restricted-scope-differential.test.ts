import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Adversary round 14 F2: a version or language only restricted pages are under was named to
 * anonymous readers when one of those pages was listed again in a place with no version (no
 * language), and so was a version whose pages were all restricted or missing; `nav --groups
 * --json` kept the JSON paths of what was left (`tabs[1]` after a restricted `tabs[0]`). The
 * differential: each site as written, the same with its restricted files deleted (docs.json still
 * lists them), and the same with the restricted parts deleted from docs.json too, must tell an
 * anonymous reader exactly the same things.
 */
const page = (title: string, body: string, groups?: string) => `---\ntitle: ${title}\n${groups !== undefined ? `groups: [${groups}]\n` : ""}---\n\n${body}\n`;
const PUBLIC = {
  "index.mdx": page("Home", "Welcome widgets."),
  "guides/setup.mdx": page("Setup", "Install the widgets."),
};
const STAFF = {
  "staff/secret.mdx": page("Secret", "ZEBRA.", "staff"),
  "staff/ops.mdx": page("Ops", "Runbook.", "staff"),
  "staff/notes.mdx": page("Notes", "Staff notes.", "staff"),
};

/** A site whose root is languages (`v2-secret` in `en`; `fr` has no versions) and one whose root is versions (`fr` in `v2`; `v1` has no languages). */
const SITES: Record<string, { written: unknown; deleted: unknown }> = {
  "languages root (a restricted version)": {
    written: {
      name: "Acme",
      navigation: {
        languages: [
          {
            language: "en",
            versions: [
              {
                version: "v1",
                tabs: [
                  { tab: "Internal", groups: [{ group: "Ops", pages: ["staff/ops"] }] },
                  { tab: "Guides", groups: [{ group: "Notes", pages: ["staff/notes"] }, { group: "Start", pages: ["staff/ops", "index", "guides/setup"] }] },
                  { tab: "Status", href: "https://status.acme.test" },
                ],
              },
              { version: "v2-secret", groups: [{ group: "S", pages: ["staff/secret"] }] },
            ],
          },
          { language: "fr", groups: [{ group: "Interne", pages: ["staff/secret"] }, { group: "Start", pages: ["index"] }] },
        ],
      },
    },
    deleted: {
      name: "Acme",
      navigation: {
        languages: [
          {
            language: "en",
            versions: [{ version: "v1", tabs: [{ tab: "Guides", groups: [{ group: "Start", pages: ["index", "guides/setup"] }] }, { tab: "Status", href: "https://status.acme.test" }] }],
          },
          { language: "fr", groups: [{ group: "Start", pages: ["index"] }] },
        ],
      },
    },
  },
  "versions root (a restricted language)": {
    written: {
      name: "Acme",
      navigation: {
        versions: [
          {
            version: "v2",
            languages: [
              { language: "fr", groups: [{ group: "S", pages: ["staff/secret"] }] },
              { language: "en", groups: [{ group: "Start", pages: ["staff/notes", "guides/setup"] }] },
            ],
          },
          { version: "v1", groups: [{ group: "Internal", pages: ["staff/secret"] }, { group: "Start", pages: ["index"] }] },
          { version: "v3-secret", groups: [{ group: "Preview", pages: ["staff/ops"] }] },
        ],
      },
    },
    deleted: {
      name: "Acme",
      navigation: {
        versions: [
          { version: "v2", languages: [{ language: "en", groups: [{ group: "Start", pages: ["guides/setup"] }] }] },
          { version: "v1", groups: [{ group: "Start", pages: ["index"] }] },
        ],
      },
    },
  },
};

/** Everything an anonymous reader is told about the site's structure. */
async function anonymousView(dir: string): Promise<unknown> {
  const runtime = await DocsRuntime.load({ root: dir, baseUrl: "https://docs.acme.test" });
  const c = await connect(runtime);
  try {
    const { tools } = await c.client.listTools();
    const error = async (args: Record<string, unknown>) => {
      const r = await c.client.callTool({ name: "search_acme", arguments: { query: "widgets", ...args } });
      return r.isError === true ? (r.content as { text: string }[])[0]?.text : "ok";
    };
    const nav = async (...args: string[]) => runCli(["nav", "--dir", dir, "--groups", ...args]);
    return {
      instructions: c.client.getInstructions(),
      tools: tools.map((t) => [t.name, t.description]),
      skill: c.text(await c.call("query_docs_filesystem_acme", { command: "cat /skill.md" })),
      errors: [
        await error({ version: "v2-secret" }),
        await error({ version: "v3-secret" }),
        await error({ version: "v9" }),
        await error({ language: "fr" }),
        await error({ language: "de" }),
      ],
      nav: await nav(),
      json: await nav("--json"),
      navVersion: await nav("--version", "v2-secret"),
      navLanguage: await nav("--language", "fr"),
    };
  } finally {
    await c.close();
    await runtime.close();
  }
}

describe.each(Object.entries(SITES))("%s: an anonymous reader is told the same as on the site without its restricted parts", (_name, site) => {
  const repos: { dir: string; cleanup: () => void }[] = [];
  const views: unknown[] = [];
  beforeAll(async () => {
    repos.push(
      makeRepo({ "docs.json": JSON.stringify(site.written), ...PUBLIC, ...STAFF }),
      makeRepo({ "docs.json": JSON.stringify(site.written), ...PUBLIC }),
      makeRepo({ "docs.json": JSON.stringify(site.deleted), ...PUBLIC }),
    );
    for (const repo of repos) views.push(await anonymousView(repo.dir));
  });
  afterAll(() => {
    for (const repo of repos) repo.cleanup();
  });

  it("with its restricted files deleted (docs.json still listing them)", () => {
    expect(views[1]).toEqual(views[2]);
  });

  it("as written", () => {
    expect(views[0]).toEqual(views[2]);
  });
});

describe("what the site without its restricted parts tells an anonymous reader", () => {
  it("languages root: v1 and en, fr", async () => {
    const repo = makeRepo({ "docs.json": JSON.stringify(SITES["languages root (a restricted version)"]?.deleted), ...PUBLIC });
    try {
      const view = (await anonymousView(repo.dir)) as { tools: string[][]; errors: string[]; nav: { stdout: string } };
      expect(view.tools[0]?.[1]).toMatch(/ Filter values: versions v1; languages en, fr\.$/);
      expect(view.errors).toEqual([
        'Invalid arguments for search_acme: version: not a version of this site; use one of v1, latest (got "v2-secret")',
        'Invalid arguments for search_acme: version: not a version of this site; use one of v1, latest (got "v3-secret")',
        'Invalid arguments for search_acme: version: not a version of this site; use one of v1, latest (got "v9")',
        "ok",
        'Invalid arguments for search_acme: language: not a language of this site; use one of en, fr (got "de")',
      ]);
      expect(view.nav.stdout.split("\n").slice(0, 4)).toEqual(["Acme", "root: languages", "versions: v1 (default)", "languages: en (default), fr"]);
    } finally {
      repo.cleanup();
    }
  });
});
