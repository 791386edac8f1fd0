import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadShowing } from "../helpers/reload-showing.js";
import { FS, type Harness, SEARCH, accessRepo, credentialTokens, mcpClient, postJson, startBridge, userTokens } from "./harness.js";

/**
 * Nothing of a restricted page (path, title, a line) reaches a reader outside its groups:
 * every output of every command family, search and resources is checked for strings that
 * exist only in restricted files. Readers: anonymous on /mcp, a staff member, a partner (in
 * another group), and a client credential, all over real HTTP.
 */

/** Strings that exist only inside one restricted file (never in a command we type). */
const CONTENT = {
  runbook: ["STAFF-ONLY-RUNBOOK-7F3A", "Incident runbook", "Failing storage node", "nimbusctl drain", "on-call engineers"],
  pricing: ["PARTNER-PRICING-91C2", "Partner pricing", "Volume discounts", "30% off list price"],
  skill: ["STAFF-SKILL-44D1", "STAFF-SKILL-DESC-5E21", "On-call skill", "Page the storage team first"],
  draft: ["DRAFT-IGNORED-5B0D", "Draft notes"],
};
/** Path words of restricted files: checked in outputs of commands that do not name them. */
const PATHS = {
  runbook: ["internal", "runbook"],
  pricing: ["partner", "pricing"],
  skill: ["oncall", "skills"],
  draft: ["drafts", "notes.mdx"],
};

/** Commands that discover: they name no restricted path, so their output may contain none. */
const DISCOVERY = [
  "ls /",
  "ls -la /",
  "ls -R /",
  "ls -1 /*",
  "echo /* /*/* /*/*/* /*/*/*/*",
  "for f in /*/*.mdx /*/*/*/*.md; do echo $f; done",
  "cat /*/*.mdx",
  "head -n 4 /*.mdx /*/*.mdx",
  "tail -n 2 /*/*.mdx",
  "wc -l /*/*.mdx",
  "grep -r Marker /",
  "grep -ril storage /",
  "grep -rn -i -E 'volume|drain|on-call|pricing|runbook|oncall' /",
  "rg Marker /",
  "rg -il 'volume|drain|on-call|page the storage team' /",
  "rg --files /",
  "rg -n -i 'marker' --glob '*.md' /",
  "find /",
  "find / -type f",
  "find / -type d",
  "find / -name '*.md*'",
  "find / -iname skill.md",
  "tree /",
  "tree -a /",
  "sort /*/*.mdx | uniq -c | sort -rn | head -40",
  "cat /*/*.mdx | grep -c .",
  "stat /*/*",
  "du -a /",
];

/** Commands that name a restricted path: for outsiders they must behave as if it never existed. */
const PROBES: readonly { cmd: string; file: keyof typeof CONTENT; absent: string }[] = [
  { cmd: "cat /internal/runbook.mdx", file: "runbook", absent: "cat: /internal/runbook.mdx: No such file or directory\n[exit code 1]" },
  { cmd: "cat /partners/pricing.mdx", file: "pricing", absent: "cat: /partners/pricing.mdx: No such file or directory\n[exit code 1]" },
  {
    cmd: "cat /internal/skills/oncall/SKILL.md",
    file: "skill",
    // The did-you-mean hint is computed from the reader's visible paths only (here the public
    // generated /skill.md), so it is the same as for a path that never existed.
    absent:
      "cat: /internal/skills/oncall/SKILL.md: No such file or directory\n[exit code 1]\n" +
      "/internal/skills/oncall/SKILL.md does not exist. Did you mean: /skill.md?",
  },
  { cmd: "test -e /internal/runbook.mdx && echo PRESENT || echo ABSENT", file: "runbook", absent: "ABSENT\n" },
  { cmd: "test -d /partners && echo PRESENT || echo ABSENT", file: "pricing", absent: "ABSENT\n" },
  { cmd: "ls /internal/skills/oncall 2>/dev/null; echo $?", file: "skill", absent: "2\n" },
  { cmd: "stat /partners/pricing.mdx 2>/dev/null | wc -l", file: "pricing", absent: "0\n" },
  { cmd: "cat /partners/../internal/runbook.mdx 2>/dev/null | wc -c", file: "runbook", absent: "0\n" },
];

const SEARCHES = [
  "storage node drain runbook",
  "partner volume discounts pricing",
  "on-call skill page the storage team",
  "Marker",
  "STAFF-ONLY-RUNBOOK-7F3A",
  "incident internal",
];

type Reader = "anonymous" | "staff" | "partner" | "credential";
/** What each reader must never see (all of it for anonymous; drafts are ignored for everyone). */
const HIDDEN: Record<Reader, (keyof typeof CONTENT)[]> = {
  anonymous: ["runbook", "pricing", "skill", "draft"],
  partner: ["runbook", "skill", "draft"],
  staff: ["draft"],
  credential: ["draft"],
};

let repo: ReturnType<typeof accessRepo>;
let h: Harness;
const tokens: Partial<Record<Reader, string>> = {};

beforeAll(async () => {
  repo = accessRepo();
  h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled", watch: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("pat", "pat-password-1", ["partners"]);
  tokens.staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
  tokens.partner = (await userTokens(h, "pat", "pat-password-1")).access_token;
  tokens.credential = (await credentialTokens(h)).access_token;
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

function connectAs(reader: Reader) {
  return reader === "anonymous" ? mcpClient(h.urls.mcp) : mcpClient(h.urls.authedMcp, { token: tokens[reader] as string });
}

/** Every output a reader can obtain, as one string per source. */
async function collect(reader: Reader) {
  const c = await connectAs(reader);
  try {
    const discovery: string[] = [];
    discovery.push(JSON.stringify(c.client.getServerVersion()), c.client.getInstructions() ?? "");
    discovery.push(JSON.stringify(await c.client.listTools()));
    // What we typed may come back ("No results for ..."): that echo is ours, not a leak.
    const withoutEcho = (output: unknown, typed: string): string => JSON.stringify(output).split(JSON.stringify(typed).slice(1, -1)).join("<typed>");
    for (const cmd of DISCOVERY) {
      const r = await c.client.callTool({ name: FS, arguments: { command: cmd } });
      discovery.push(`$ ${withoutEcho(r, cmd)}`);
    }
    for (const query of SEARCHES) {
      const r = await c.client.callTool({ name: SEARCH, arguments: { query, pageSize: 50 } });
      discovery.push(`? ${withoutEcho(r, query)}`);
    }
    const { resources } = await c.client.listResources();
    discovery.push(JSON.stringify(resources));
    for (const res of resources) discovery.push(JSON.stringify(await c.client.readResource({ uri: res.uri })));
    // Discovery over plain HTTP, with the reader's token where it has one: cards, catalog, skills.
    const headers: Record<string, string> = reader === "anonymous" ? {} : { Authorization: `Bearer ${tokens[reader] as string}` };
    // (The index's own words, its `skills` key, schema and `/.well-known/agent-skills/` path, are
    // ours: they say nothing of the site's files.)
    const ours = (text: string): string => text.split("/.well-known/agent-skills/").join("<discovery>/");
    for (const url of [h.urls.serverCard, h.urls.authedServerCard, h.urls.mcpCatalog]) discovery.push(await (await fetch(url, { headers })).text());
    const index = (await (await fetch(h.urls.agentSkillsIndex, { headers })).json()) as { skills: { url: string }[] };
    discovery.push(ours(JSON.stringify(index.skills)));
    for (const skill of index.skills) discovery.push(await (await fetch(skill.url, { headers })).text());
    const probes = new Map<string, string>();
    for (const p of PROBES) probes.set(p.cmd, await c.text(FS, { command: p.cmd }));
    const skillUri = "docs://nimbus_storage/internal/skills/oncall/SKILL.md";
    let skillRead: string;
    try {
      skillRead = JSON.stringify(await c.client.readResource({ uri: skillUri }));
    } catch (error) {
      skillRead = (error as Error).message;
    }
    return { discovery: discovery.join("\n"), probes, skillRead, resources };
  } finally {
    await c.close();
  }
}

describe.each(["anonymous", "partner", "staff", "credential"] as const)("reader: %s", (reader) => {
  let out: Awaited<ReturnType<typeof collect>>;
  beforeAll(async () => {
    out = await collect(reader);
  });

  it("sees no content of a file outside its groups, in any output", () => {
    for (const file of HIDDEN[reader]) {
      for (const marker of CONTENT[file]) expect(out.discovery, `${reader} saw "${marker}" (${file})`).not.toContain(marker);
    }
  });

  it("sees no path of a file outside its groups in any listing, match, search hit or resource", () => {
    const lower = out.discovery.toLowerCase();
    for (const file of HIDDEN[reader]) {
      for (const word of PATHS[file]) expect(lower, `${reader} saw path word "${word}" (${file})`).not.toContain(word);
    }
  });

  it("gets 'no such file' for a restricted path it names, exactly as for a path that never existed", () => {
    for (const p of PROBES) {
      if (HIDDEN[reader].includes(p.file)) expect(out.probes.get(p.cmd), p.cmd).toBe(p.absent);
      else expect(out.probes.get(p.cmd), p.cmd).not.toBe(p.absent);
    }
    const expected = HIDDEN[reader].includes("skill")
      ? "MCP error -32602: Resource not found: docs://nimbus_storage/internal/skills/oncall/SKILL.md"
      : expect.stringContaining("STAFF-SKILL-44D1");
    expect(out.skillRead).toEqual(expected);
  });

  it("does see what its groups allow (so the checks above can fail)", () => {
    for (const file of ["runbook", "pricing", "skill"] as const) {
      if (HIDDEN[reader].includes(file)) continue;
      for (const marker of CONTENT[file]) expect(out.discovery, `${reader} should see "${marker}"`).toContain(marker);
    }
    // Public content is there for everyone.
    expect(out.discovery).toContain("PUBLIC-STATUS-3C7E");
    expect(out.discovery).toContain("Signed URLs carry an HMAC signature");
  });
});

describe("resources by reader", () => {
  it("lists the restricted skill only to readers in its group", async () => {
    const uris = async (reader: Reader) => (await collect(reader)).resources.map((r) => r.uri);
    // Readers who see no skill of the site's own get the generated one: an empty list would
    // hint that a restricted skill exists.
    expect(await uris("anonymous")).toEqual(["docs://nimbus_storage/skill.md"]);
    expect(await uris("partner")).toEqual(["docs://nimbus_storage/skill.md"]);
    expect(await uris("staff")).toEqual(["docs://nimbus_storage/internal/skills/oncall/SKILL.md"]);
  });
});

describe("the authenticated endpoint without a token", () => {
  it("answers 401 before anything is read", async () => {
    const r = await postJson(h.urls.authedMcp, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(r.status).toBe(401);
    expect(r.text).not.toContain("runbook");
  });
});

describe("live changes over HTTP", () => {
  it("notifies resource changes but never sends a restricted file's diagnostics to a session", async () => {
    // Notifications travel on the GET stream the SDK client opens after initialization: edit
    // the files once the server has answered that GET (it holds the stream from then on).
    let streamOpened!: () => void;
    const opened = new Promise<void>((resolve) => (streamOpened = resolve));
    const anon = await mcpClient(h.urls.mcp, {
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        if (init?.method === "GET" && res.ok) streamOpened();
        return res;
      },
    });
    const logs: string[] = [];
    anon.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(JSON.stringify(n.params)));
    // Each new public skill changes this reader's resource list once (a page edit alone tells nobody).
    let listsChanged = 0;
    let onList = (): void => {};
    anon.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listsChanged++;
      onList();
    });
    const heardChanges = (n: number) =>
      new Promise<void>((resolve) => {
        onList = () => void (listsChanged >= n && resolve());
        onList();
      });
    const skill = (name: string) => {
      mkdirSync(join(repo.dir, "skills", name), { recursive: true });
      writeFileSync(join(repo.dir, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: Public\n---\n\n# Public\n`);
    };
    await opened;
    // A restricted page breaks (a diagnostic naming it) in the same burst as a public edit. The
    // watcher may hand the files over apart (a new folder before a file settles): the wait is for
    // the reload that read the broken page, not the list change, which can come before it.
    const applied = reloadShowing(h.runtime, (c) => c.site.diagnostics.some((d) => d.file === "internal/runbook.mdx") && c.site.files.has("/skills/leak-check/SKILL.md"));
    writeFileSync(join(repo.dir, "internal", "runbook.mdx"), '---\ntitle: "Incident runbook\ngroups: [staff]\n---\nbroken front matter\n');
    writeFileSync(join(repo.dir, "quickstart.mdx"), '---\ntitle: "Quickstart"\n---\n\nEdited.\n');
    skill("leak-check");
    await applied;
    // A second skill, told of on the same stream after all the burst's notifications: the fence.
    skill("leak-fence");
    await heardChanges(2);
    expect({ logs, listsChanged }).toEqual({ logs: [], listsChanged: 2 });
    await anon.close();
  });
});
