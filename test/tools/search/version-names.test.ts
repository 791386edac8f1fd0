import { describe, expect, it } from "vitest";
import { resolveVersion } from "../../../src/engine/search/scope.js";

/**
 * The `version` argument of a site labelling its versions by full release numbers (a real
 * versioned site: `v3.0.0 (rc 1)` and `v2.14.5`): a user says "v3" or "v2.14", which name one
 * version each; a number two versions share names neither.
 */
describe("a version named by its release", () => {
  const versions = { known: ["v3.0.0 (rc 1)", "v2.14.5", "v2.13.0"], listed: ["v3.0.0 (rc 1)", "v2.14.5", "v2.13.0"], segments: new Map([["v2.14.5", "v2"]]), latest: "v3.0.0 (rc 1)" };

  it("is the one version whose number starts with it", () => {
    expect(["v3", "3", "V3", "v3.0", "3.0.0", "v2.14", "2.13", "v2", "latest"].map((arg) => resolveVersion(arg, versions))).toEqual([
      { ok: true, value: "v3.0.0 (rc 1)" },
      { ok: true, value: "v3.0.0 (rc 1)" },
      { ok: true, value: "v3.0.0 (rc 1)" },
      { ok: true, value: "v3.0.0 (rc 1)" },
      { ok: true, value: "v3.0.0 (rc 1)" },
      { ok: true, value: "v2.14.5" },
      { ok: true, value: "v2.13.0" },
      // The segment `v2` is the folder v2.14.5's pages live in: it names that version.
      { ok: true, value: "v2.14.5" },
      { ok: true, value: "v3.0.0 (rc 1)" },
    ]);
  });

  it("names none when two versions share it, or it is no prefix of a number", () => {
    const two = { ...versions, segments: new Map<string, string>() };
    expect(["v2", "v3.1", "v30", "v3.0.0.1"].map((arg) => resolveVersion(arg, two))).toEqual(
      ["v2", "v3.1", "v30", "v3.0.0.1"].map((arg) => ({ ok: false, message: `not a version of this site; use one of v3.0.0 (rc 1), v2.14.5, v2.13.0, latest (got "${arg}")` })),
    );
  });
});
