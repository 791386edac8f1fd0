import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/server.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";

/**
 * Skills in folders of their own under the Skills extension, through the official SDK's
 * `SkillsClient` over stdio's in-process twin: the files beside a skill are its supporting files
 * (the reader's only), and a skill whose front matter lacks a `name` is served under its folder's.
 */
const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({ name: "Orbit", navigation: { groups: [{ group: "G", pages: ["index"] }] } }),
  "index.mdx": "---\ntitle: Orbit\n---\nHello.",
  "skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy a site with Orbit.\nlicense: MIT\n---\n# Deploy\n\nSee references/FLAGS.md.\n",
  "skills/deploy/references/FLAGS.md": "# Flags\n\n--prod deploys to production.\n",
  "skills/deploy/internal.md": "---\ngroups: [staff]\n---\nStaff-only notes.\n",
  "skills/release/SKILL.md": "---\ndescription: Cut a release.\n---\n# Release\n",
};

let dir: string;
let runtime: DocsRuntime;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-mcp-skills-ext-"));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  runtime = await DocsRuntime.load({ root: dir });
});
afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

async function skillsOf(reader: Reader): Promise<{ skills: SkillsClient; close: () => Promise<void> }> {
  const { server, close } = createMcpServer({ runtime, context: localContext(reader) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "skills-test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    skills: new SkillsClient(client),
    close: async () => {
      close();
      await client.close();
    },
  };
}

describe("skills in folders, under the Skills extension", () => {
  it("lists each with its supporting files, the reader's only, every file verified on read", async () => {
    for (const [reader, files] of [
      [ANONYMOUS, ["skill://deploy/SKILL.md", "skill://deploy/references/FLAGS.md"]],
      [readerWithGroups(["staff"]), ["skill://deploy/SKILL.md", "skill://deploy/internal.md", "skill://deploy/references/FLAGS.md"]],
    ] as const) {
      const { skills, close } = await skillsOf(reader);
      try {
        const { skills: entries } = await skills.list();
        const deploy = entries.find((s) => s.uri === "skill://deploy/SKILL.md")!;
        expect(deploy.frontmatter).toEqual({ name: "deploy", description: "Deploy a site with Orbit.", license: "MIT" });
        expect(Array.isArray(deploy.resources) ? deploy.resources.map((r) => r.uri) : deploy.resources).toEqual(files);
        const flags = await skills.read(deploy, "references/FLAGS.md");
        expect([flags.verified, flags.text]).toEqual([true, FILES["skills/deploy/references/FLAGS.md"]]);
        expect((await skills.read(deploy)).text).toBe(FILES["skills/deploy/SKILL.md"]);
      } finally {
        await close();
      }
    }
  });

  it("serves a skill without a name under its folder's, the name written into the SKILL.md it serves", async () => {
    const { skills, close } = await skillsOf(ANONYMOUS);
    try {
      const { skill } = await skills.get("skill://release/SKILL.md");
      expect(skill.frontmatter).toEqual({ description: "Cut a release.", name: "release" });
      const file = await skills.read(skill);
      expect([file.verified, file.text]).toEqual([true, "---\ndescription: Cut a release.\nname: release\n---\n# Release\n"]);
    } finally {
      await close();
    }
  });
});
