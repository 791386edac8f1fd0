import { describe, expect, it } from "vitest";
import { withoutLanguage } from "../../../src/engine/search/version-twins.js";

/** A page's place without its language segment: how copies in several languages are matched. */
describe("withoutLanguage", () => {
  it("drops the first segment equal to one of the page's languages, case aside", () => {
    const cases: [string, string[], string][] = [
      ["/ko/x", ["ko"], "/x"],
      ["/v2/KO/x", ["ko"], "/v2/x"],
      ["/v2/ko/x", ["KO"], "/v2/x"],
      ["/kor/ko", ["ko"], "/kor"],
      ["/a/kok/ko/b", ["ko"], "/a/kok/b"],
      ["/en/ko/x", ["ko", "en"], "/ko/x"],
      ["/v1/pt-BR/a", ["pt-BR"], "/v1/a"],
      ["ko/x", ["ko"], "x"],
      ["/ko", ["ko"], "/"],
      ["/ko/", ["ko"], "/"],
      ["/x/y", ["ko"], "/x/y"],
      ["/x", [], "/x"],
      // Lower-casing İ makes two characters: the place is still cut at the segment.
      ["/İx/ko/y", ["ko"], "/İx/y"],
    ];
    expect(cases.map(([path, languages]) => withoutLanguage(path, languages))).toEqual(cases.map(([, , want]) => want));
    expect(withoutLanguage("/ko/x", undefined)).toBe("/ko/x");
  });
});
