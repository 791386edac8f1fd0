import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { publishedSkills } from "../../../src/engine/use-cases/published-skills.js";
import { readerWithGroups } from "../../../src/vfs/access.js";
import { localContext } from "../../../src/vfs/request-context.js";
import { fixture } from "../../helpers/paths.js";
import { makeRepo } from "../../helpers/repo.js";

/** The skills discovery publishes, driven directly: no HTTP. */
const ROOT = fixture("skills");
let runtime: DocsRuntime;
beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: ROOT });
});
afterAll(async () => runtime.close());

const digest = (path: string) => createHash("sha256").update(readFileSync(join(ROOT, path))).digest("hex");

describe("publishedSkills", () => {
  it("gives a reader the skills they may read, with their text's SHA-256; a restricted one never appears", () => {
    const names = (groups: string[]) => publishedSkills({ runtime, request: localContext(readerWithGroups(groups)) }).map((s) => [s.name, s.uri, s.sha256]);
    expect(names([])).toEqual([
      ["orbit-docs", "docs://orbit_cli/skill.md", digest("skill.md")],
      ["orbit-deploy", "docs://orbit_cli/skills/deploy/SKILL.md", digest("skills/deploy/SKILL.md")],
    ]);
    expect(names(["staff"])).toEqual([
      ["orbit-docs", "docs://orbit_cli/skill.md", digest("skill.md")],
      ["orbit-deploy", "docs://orbit_cli/skills/deploy/SKILL.md", digest("skills/deploy/SKILL.md")],
      ["orbit-oncall", "docs://orbit_cli/skills/internal/SKILL.md", digest("skills/internal/SKILL.md")],
    ]);
  });

  it("makes each name URL-safe and unique", async () => {
    const repo = makeRepo({
      "index.mdx": "# Hi",
      "skills/a/SKILL.md": "---\nname: Release_Notes\ndescription: One.\n---\nA.",
      "skills/b/SKILL.md": "---\nname: release notes\ndescription: Two.\n---\nB.",
      "skills/c/SKILL.md": "---\nname: ¿¿\ndescription: Three.\n---\nC.",
    });
    const other = await DocsRuntime.load({ root: repo.dir });
    try {
      expect(publishedSkills({ runtime: other, request: localContext() }).map((s) => [s.name, s.description])).toEqual([
        ["release-notes", "One."],
        ["release-notes-2", "Two."],
        ["skill", "Three."],
      ]);
    } finally {
      await other.close();
      repo.cleanup();
    }
  });
});
