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

  // A real versioned site (fastmcp): the latest at the root, older versions in `/v3`, `/v2`.
  const latest = "v4.0.0 (beta 1)";
  const rootSite = (extra: Record<string, readonly string[] | undefined>): Map<string, PagePlacement> =>
    placed({
      "/servers/tools": [latest],
      "/servers/auth": [latest],
      "/getting-started/welcome": [latest],
      "/python-sdk/fastmcp-server": [latest],
      "/python-sdk/fastmcp-client": [latest],
      "/python-sdk/fastmcp-tools": [latest],
      "/python-sdk/fastmcp-auth": [latest],
      "/python-sdk/fastmcp-cli": [latest],
      "/python-sdk/fastmcp-utilities": [latest],
      "/v3/servers/tools": ["v3.4.4"],
      "/v3/servers/auth": ["v3.4.4"],
      "/v3/getting-started/welcome": ["v3.4.4"],
      ...extra,
    });

  it("leaves the one version at the root out, and reads its API folder as content, not its folder", () => {
    // Most of the latest version's own pages are in `python-sdk/`, yet its other pages repeat the
    // rests of v3's: it lives at the root, and `python-sdk` names no version.
    expect([...versionPaths(rootSite({ "/v2/servers/tools": ["v2.14.5"], "/v2/patterns/proxy": ["v2.14.5"] }), [latest, "v3.4.4", "v2.14.5"])]).toEqual([
      ["v3.4.4", { segment: "v3", prefix: "/v3" }],
      ["v2.14.5", { segment: "v2", prefix: "/v2" }],
    ]);
    // The same where `python-sdk` is also a folder inside an older version's pages.
    expect([
      ...versionPaths(
        rootSite({ "/python-sdk/fastmcp-x": [latest], "/python-sdk/fastmcp-y": [latest], "/v3/python-sdk/fastmcp-server": ["v3.4.4"], "/v3/python-sdk/fastmcp-client": ["v3.4.4"] }),
        [latest, "v3.4.4"],
      ),
    ]).toEqual([["v3.4.4", { segment: "v3", prefix: "/v3" }]]);
  });

  it("gives none beside a root version when another version's folder does not name it", () => {
    // spree: v6.x's own pages moved under `developer/dashboard/`, where v5.x has them one level up.
    const pages = placed({
      "/developer/customization/a": ["v5.x"],
      "/developer/customization/b": ["v5.x"],
      "/developer/upgrades/c": ["v5.x"],
      "/developer/core/d": ["v5.x"],
      "/developer/dashboard/customization/a": ["v6.x"],
      "/developer/dashboard/customization/b": ["v6.x"],
      "/developer/other/e": ["v6.x"],
    });
    expect(versionPaths(pages, ["v5.x", "v6.x"]).size).toBe(0);
    // Named by a word of its label, the folder is the version's.
    const legacy = placed({ "/a/b": ["Current"], "/c/d": ["Current"], "/legacy/a/b": ["Legacy (1.x)"], "/legacy/e": ["Legacy (1.x)"] });
    expect([...versionPaths(legacy, ["Current", "Legacy (1.x)"])]).toEqual([["Legacy (1.x)", { segment: "legacy", prefix: "/legacy" }]]);
    // Two versions at the root: neither has a folder.
    const two = placed({ "/a/b": ["x"], "/c/d": ["x"], "/e/f": ["y"], "/g/h": ["y"], "/v1/a/b": ["v1"], "/v1/c/d": ["v1"], "/v1/e/f": ["v1"], "/v1/g/h": ["v1"] });
    expect(versionPaths(two, ["x", "y", "v1"]).size).toBe(0);
  });
});

