import { describe, expect, it } from "vitest";
import type { PagePlacement } from "../../src/config/site-config.js";
import { versionPaths } from "../../src/config/version-paths.js";

const placed = (entries: Record<string, readonly string[] | undefined>): Map<string, PagePlacement> =>
  new Map(Object.entries(entries).map(([path, versions]) => [path, { breadcrumbs: [], ...(versions !== undefined ? { versions } : {}) }]));

/** Each version's path segment, from the pages navigation lists under it (never its label). */
describe("versionPaths", () => {
  it("finds the segment where the versions' pages part ways, after a folder they share", () => {
    const pages = placed({
      "/docs/2025-06-18/basic/lifecycle": ["Version 2025-06-18 (latest)"],
      "/docs/2025-06-18/server/tools": ["Version 2025-06-18 (latest)"],
      "/docs/2025-06-18/changelog": ["Version 2025-06-18 (latest)"],
      "/docs/2025-03-26/basic/lifecycle": ["Version 2025-03-26"],
      "/docs/2025-03-26/server/tools": ["Version 2025-03-26"],
      // A page of every version, and one in two, say nothing about where a version lives.
      "/docs/getting-started": undefined,
      "/community/governance": ["Version 2025-06-18 (latest)", "Version 2025-03-26"],
    });
    expect([...versionPaths(pages, ["Version 2025-06-18 (latest)", "Version 2025-03-26", "Draft"])]).toEqual([
      ["Version 2025-06-18 (latest)", { segment: "2025-06-18", prefix: "/docs/2025-06-18" }],
      ["Version 2025-03-26", { segment: "2025-03-26", prefix: "/docs/2025-03-26" }],
    ]);
  });

  it("takes the segment most of a version's pages have (a stray page elsewhere does not count)", () => {
    const pages = placed({ "/v3/a": ["v3"], "/v3/b": ["v3"], "/legacy/c": ["v3"], "/v2/a": ["v2"], "/v2/b": ["v2"] });
    expect([...versionPaths(pages, ["v3", "v2"])]).toEqual([
      ["v3", { segment: "v3", prefix: "/v3" }],
      ["v2", { segment: "v2", prefix: "/v2" }],
    ]);
  });

  it("gives none when versions share their paths, or there is one version", () => {
    expect(versionPaths(placed({ "/guide/a": ["v1"], "/guide/b": ["v2"] }), ["v1", "v2"]).size).toBe(0);
    expect(versionPaths(placed({ "/v1/a": ["v1"] }), ["v1"]).size).toBe(0);
    expect(versionPaths(placed({ "/v1/a": ["v1"], "/a/v2": ["v2"], "/b/v2": ["v2"] }), ["v1", "v2"]).size).toBe(0);
  });
});
