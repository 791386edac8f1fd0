import { describe, expect, it } from "vitest";
import { compileIgnoreRules, takeBackLine } from "../../src/config/ignore-rules.js";

const PATHS = [
  ".git/config",
  ".github/pull_request_template.md",
  ".vscode/notes.md",
  "node_modules/pkg/README.md",
  "README.md",
  "LICENSE.md",
  "CHANGELOG.md",
  "CONTRIBUTING.md",
  "tests/README.md",
  "build/output.mdx",
  "dist/page.mdx",
  "coverage/index.md",
  "tmp/notes.mdx",
  "temp/ai-tools/cursor.mdx",
  "en/cloud/use-dify/build/agent.mdx",
  "agents/build/tools.mdx",
  "changelog.mdx",
  "community/contributing.mdx",
  "migration/readme.mdx",
  "guides/setup.mdx",
] as const;

function verdicts(texts: readonly string[]): Record<string, string> {
  const rules = compileIgnoreRules(texts);
  return Object.fromEntries(PATHS.map((p) => [p, rules.excludedBy?.(p) ?? (rules.ignores(p) ? "ignored, no reason" : "served")]));
}

describe("ignore rules: what is left out with no ignore file", () => {
  it("leaves out the platform's defaults: the repository's notes and the root's build folders, not pages named so or sections deeper", () => {
    expect(verdicts([])).toEqual({
      ".git/config": "always",
      ".github/pull_request_template.md": "always",
      ".vscode/notes.md": "always",
      "node_modules/pkg/README.md": "always",
      "README.md": "default",
      "LICENSE.md": "default",
      "CHANGELOG.md": "default",
      "CONTRIBUTING.md": "default",
      "tests/README.md": "default",
      "build/output.mdx": "default",
      "dist/page.mdx": "default",
      "coverage/index.md": "default",
      "tmp/notes.mdx": "default",
      "temp/ai-tools/cursor.mdx": "default",
      "en/cloud/use-dify/build/agent.mdx": "served",
      "agents/build/tools.mdx": "served",
      "changelog.mdx": "served",
      "community/contributing.mdx": "served",
      "migration/readme.mdx": "served",
      "guides/setup.mdx": "served",
    });
  });

  it("serves a default an ignore file takes back, and never version control, dependencies or dot-folders", () => {
    const v = verdicts(["!/README.md\n!/build/\n!.git/\n!.github/\n!node_modules/\nguides/\n"]);
    expect(v["README.md"]).toBe("served");
    expect(v["tests/README.md"]).toBe("default");
    expect(v["build/output.mdx"]).toBe("served");
    expect(v["dist/page.mdx"]).toBe("default");
    expect(v[".git/config"]).toBe("always");
    expect(v[".github/pull_request_template.md"]).toBe("always");
    expect(v["node_modules/pkg/README.md"]).toBe("always");
    expect(v["guides/setup.mdx"]).toBe("file");
  });

  it("names the line that takes a default back: the folder for a file in one (a file in a folder left out cannot come back alone)", () => {
    expect(takeBackLine("README.md")).toBe("!/README.md");
    expect(takeBackLine("tests/README.md")).toBe("!/tests/README.md");
    expect(takeBackLine("build/output.mdx")).toBe("!/build/");
    expect(takeBackLine("temp/ai-tools/cursor.mdx")).toBe("!/temp/");
  });
});
