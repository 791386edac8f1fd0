import type { ProtocolError} from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, RESTRICTED_SKILL, accessRepo, startBridge, userTokens } from "./harness.js";

/**
 * The Skills extension (SEP-2640) through the official SDK's `SkillsClient`, in both protocol
 * generations, over HTTP: each reader lists, gets and reads (verified against the digests) the
 * skills `resources/list` gives them, and nothing else; a client that does not use the
 * extension sees the same resources as before.
 */
let repo: ReturnType<typeof accessRepo>;
let h: Harness;
let staff: string;
const ERAS = ["2026-07-28", "2025-11-25"] as const;

beforeAll(async () => {
  repo = accessRepo();
  h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled" });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

async function connect(era: (typeof ERAS)[number], url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "skills-test", version: "1.0.0" }, era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(transport);
  return client;
}

for (const era of ERAS) {
  describe(`skills extension, ${era}`, () => {
    it("lists the anonymous reader's one skill (the generated one), readable and verified", async () => {
      const client = await connect(era, h.urls.mcp);
      try {
        const skills = new SkillsClient(client);
        expect(skills.supported).toBe(true);
        const listing = await skills.list();
        expect(listing.skills.map((s) => [s.uri, s.frontmatter.name, Array.isArray(s.resources) ? s.resources.map((r) => r.uri) : s.resources])).toEqual([
          ["skill://nimbus-storage/SKILL.md", "nimbus-storage", ["skill://nimbus-storage/SKILL.md"]],
        ]);
        expect(listing.invalid).toEqual([]);
        // 2026-07-28 results carry the list hints (the same as resources/list's); 2025 ones have none.
        expect([listing.ttlMs, listing.cacheScope]).toEqual(era === "2026-07-28" ? [60_000, "private"] : [undefined, undefined]);
        const file = await skills.read(listing.skills[0]!);
        expect(file.verified).toBe(true);
        expect(file.frontmatter).toEqual(listing.skills[0]!.frontmatter);
        // The generated skill's text, its name written as the extension's rules ask.
        const { contents } = await client.readResource({ uri: "docs://nimbus_storage/skill.md" });
        const original = (contents[0] as { text: string }).text;
        expect(file.text).toBe(original.replace("name: nimbus_storage\n", "name: nimbus-storage\n"));
      } finally {
        await client.close();
      }
    });

    it("gives a staff reader the restricted skill, its file byte for byte, and nothing of it to others", async () => {
      const uri = "skill://oncall/SKILL.md";
      const client = await connect(era, h.urls.authedMcp, staff);
      try {
        const skills = new SkillsClient(client);
        const { skill } = await skills.get(uri);
        expect(skill.frontmatter).toEqual({ name: "oncall", description: "On-call procedures STAFF-SKILL-DESC-5E21", groups: ["staff"] });
        expect((await skills.list()).skills.map((s) => s.uri)).toEqual([uri]);
        const file = await skills.read(skill);
        expect([file.verified, file.text]).toEqual([true, RESTRICTED_SKILL]);
      } finally {
        await client.close();
      }
      const anonymous = await connect(era, h.urls.mcp);
      try {
        // Answered exactly like a skill that does not exist: -32602, the resource error's code.
        const refused = (u: string) => new SkillsClient(anonymous).get(u).then(() => undefined, (e: unknown) => [(e as ProtocolError).code, (e as Error).message]);
        expect(await refused(uri)).toEqual([-32602, `No skill is served at ${uri}`]);
        expect(await refused("skill://nope/SKILL.md")).toEqual([-32602, "No skill is served at skill://nope/SKILL.md"]);
        const read = await anonymous.readResource({ uri }).then(() => undefined, (e: unknown) => (e as ProtocolError).code);
        expect(read).toBe(-32602);
      } finally {
        await anonymous.close();
      }
    });

    it("leaves resources/list as it was: a client that does not use the extension sees no skill:// resource", async () => {
      const client = await connect(era, h.urls.mcp);
      try {
        const { resources } = await client.listResources();
        expect(resources.map((r) => r.uri)).toEqual(["docs://nimbus_storage/skill.md"]);
        expect(client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/skills": {} });
      } finally {
        await client.close();
      }
    });
  });
}
