import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";

/** The security page names the tests of each guarantee: every one must exist, and the README links the page. */
describe("docs/security.md", () => {
  const page = readFileSync(join(REPO, "docs/security.md"), "utf8");

  it("names only test, bench and fixture files that exist", () => {
    const named = [...new Set([...page.matchAll(/`((?:test|bench|fixtures)\/[^`\s]+)`/g)].map((m) => m[1] as string))];
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((f) => !existsSync(join(REPO, f)))).toEqual([]);
  });

  it("is linked from the README's Security section", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Security"), readme.indexOf("\n## ", readme.indexOf("## Security") + 1));
    expect(section).toContain("(docs/security.md)");
  });
});
