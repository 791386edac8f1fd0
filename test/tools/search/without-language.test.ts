import { describe, expect, it } from "vitest";
import { languageCutter, withoutLanguage } from "../../../src/engine/search/version-twins.js";

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

  it("cuts as it does when its folders' cuts are kept (languageCutter), whatever the order of the paths", () => {
    const cases: [string, string[] | undefined, string][] = [
      ["/v2/ko/x", ["ko"], "/v2/x"],
      ["/v2/ko/y", ["ko"], "/v2/y"],
      ["/v2/KO/ko", ["ko"], "/v2/ko"],
      ["/v2/ko", ["ko"], "/v2"],
      ["/v2/KO", ["ko"], "/v2"],
      ["/v2/x", ["ko"], "/v2/x"],
      ["/v2/", ["ko"], "/v2/"],
      ["/ko/", ["ko"], "/"],
      ["/ko", ["ko"], "/"],
      ["ko/x", ["ko"], "x"],
      ["ko/", ["ko"], "/"],
      ["ko", ["ko"], "/"],
      ["x", ["ko"], "x"],
      ["/en/ko/x", ["ko", "en"], "/ko/x"],
      ["/en/ko/x", ["en", "ko"], "/ko/x"],
      ["/a/kok/ko/b", ["ko"], "/a/kok/b"],
      ["/v1/pt-BR/a", ["pt-BR"], "/v1/a"],
      ["/v1/pt-br/pt-BR", ["pt-BR"], "/v1/pt-BR"],
      ["/İx/ko/y", ["ko"], "/İx/y"],
      ["/İx/y/ko", ["ko"], "/İx/y"],
      ["/x/İ", ["ko"], "/x/İ"],
      ["/a/b/c", ["a/b"], "/c"],
      ["/x/ko/y", undefined, "/x/ko/y"],
      ["/x/ko/y", [], "/x/ko/y"],
    ];
    const want = cases.map(([, , out]) => out);
    expect(cases.map(([path, languages]) => withoutLanguage(path, languages))).toEqual(want);
    const cut = languageCutter();
    expect(cases.map(([path, languages]) => cut(path, languages))).toEqual(want);
    // Again, every folder's cut now kept, and in the reverse order with a new cutter.
    expect(cases.map(([path, languages]) => cut(path, languages))).toEqual(want);
    const reverse = languageCutter();
    expect([...cases].reverse().map(([path, languages]) => reverse(path, languages))).toEqual([...want].reverse());
  });
});
