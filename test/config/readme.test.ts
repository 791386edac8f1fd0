import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SOURCE_CODES } from "../../src/config/docs-json/refs.js";
import { LINK_CODES } from "../../src/config/inside-root.js";
import { RULES } from "../../src/config/docs-json/rules/index.js";
import { SCHEMA_CODES } from "../../src/config/docs-json/zod-issues.js";
import { API_CODES } from "../../src/config/openapi/api-codes.js";
import { RENDER_CODES } from "../../src/engine/render/component-findings.js";
import { SITE_CHECK_CODES } from "../../src/vfs/check-site.js";
import { LOAD_CODES } from "../../src/vfs/page-files.js";
import { REPO } from "../helpers/paths.js";

/** The manual: every check `svc-mcp check` can print is in the docs.json page's table. */
describe("docs/docs-json.md", () => {
  const section = readFileSync(join(REPO, "docs/docs-json.md"), "utf8");

  it("lists every check code", () => {
    const codes = [...SOURCE_CODES, ...SCHEMA_CODES, ...RULES.flatMap((r) => r.codes), ...SITE_CHECK_CODES, ...RENDER_CODES, ...LINK_CODES, ...Object.values(API_CODES), ...Object.values(LOAD_CODES)];
    const table = section.slice(section.indexOf("Every check, with its code"), section.indexOf("Decisions where"));
    const listed = new Set([...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]));
    expect(codes.filter((c) => !listed.has(c))).toEqual([]);
    expect([...listed].filter((c) => !codes.includes(c as never))).toEqual([]);
  });

  it("documents every top-level field of nav --json", async () => {
    const tree = JSON.parse(readFileSync(join(REPO, "fixtures/nav-demo/expected-nav.json"), "utf8")) as Record<string, unknown>;
    for (const key of Object.keys(tree)) expect([key, section.includes(`\`${key}`)]).toEqual([key, true]);
  });
});
