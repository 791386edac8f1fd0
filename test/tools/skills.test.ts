import { describe, expect, it } from "vitest";
import { readerWithGroups } from "../../src/vfs/access.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { fixture } from "../helpers/paths.js";

describe("skill resources", () => {
  it("lists every skill.md the reader may read, named from its front matter", async () => {
    const runtime = await DocsRuntime.load({ root: fixture("skills") });
    const anon = await connect(runtime);
    expect((await anon.client.listResources()).resources).toEqual([
      { uri: "docs://orbit_cli/skill.md", name: "orbit-docs", title: "orbit-docs", description: "Answer questions about the Orbit CLI.", mimeType: "text/markdown", size: 136 },
      { uri: "docs://orbit_cli/skills/deploy/SKILL.md", name: "orbit-deploy", title: "orbit-deploy", description: "Deploy a site with Orbit.", mimeType: "text/markdown", size: 108 },
    ]);
    const { contents } = await anon.client.readResource({ uri: "docs://orbit_cli/skills/deploy/SKILL.md" });
    expect(contents).toEqual([
      {
        uri: "docs://orbit_cli/skills/deploy/SKILL.md",
        mimeType: "text/markdown",
        text: "---\nname: orbit-deploy\ndescription: Deploy a site with Orbit.\n---\n\nRun `orbit deploy` from the site folder.\n",
      },
    ]);
    // A restricted skill is not confirmed to exist.
    await expect(anon.client.readResource({ uri: "docs://orbit_cli/skills/internal/SKILL.md" })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Resource not found: docs://orbit_cli/skills/internal/SKILL.md",
    });
    const staff = await connect(runtime, readerWithGroups(["staff"]));
    expect((await staff.client.listResources()).resources.map((r) => r.name)).toEqual(["orbit-docs", "orbit-deploy", "orbit-oncall"]);
    await anon.close();
    await staff.close();
  });
});
