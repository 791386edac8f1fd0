import { describe, expect, it } from "vitest";
import type { PagePlacement } from "../../../src/config/site-config.js";
import { twinInfo, twinKeyTexts, twinRules } from "../../../src/engine/search/version-twins.js";

/**
 * Twin keys are numbered by folder and file name (`TwinKeys`, `folderShape`): two units' numbers
 * must be equal exactly when their key texts are, for file names that name a language or a
 * version (which the keys drop) as for any other.
 */
describe("twin key numbers", () => {
  it("are equal exactly when the key texts are, whatever the file names", () => {
    const languages = ["en", "ko", "pt-BR"];
    const versions = ["v1.0", "v2.0", "v6.x"];
    const names = ["intro", "en", "KO", "v6", "v2.0", "6.x", "İx", "pt-br", "setup.mdx"];
    const folders = ["", "guides/", "guides/sub/", "x/en/", "v6/a/"];
    const navPages = new Map<string, PagePlacement>();
    const units: { path: string; placement: PagePlacement; title: string }[] = [];
    for (const language of languages) {
      for (const version of versions) {
        for (const folder of folders) {
          for (const name of names) {
            const path = `/${language}/${version}/${folder}${name}`;
            const placement: PagePlacement = { versions: [version], languages: [language], breadcrumbs: [] };
            navPages.set(path, placement);
            units.push({ path, placement, title: name === "intro" ? "Intro/Start" : name });
            // The same file in the root and in a folder named like a version: no language, no version of its own.
            units.push({ path: `/${folder}${name}`, placement: { languages: [language], breadcrumbs: [] }, title: name });
          }
        }
      }
    }
    for (const byLanguage of [true, false]) {
      const rules = twinRules({ navPages, versions }, () => true, byLanguage);
      const textRules = twinRules({ navPages, versions }, () => true, byLanguage);
      // Without languages folded, a page in no version has no twins (undefined): left out.
      const infos = units.map((u) => twinInfo(u.path, u.title, u.placement, new Uint32Array(0), rules));
      const texts = units.map((u) => twinKeyTexts(u.path, u.title, u.placement, textRules));
      // Every key of every unit as (number, text): equal numbers exactly when equal texts.
      const byNumber = new Map<number, string>();
      const byText = new Map<string, number>();
      let compared = 0;
      infos.forEach((info, i) => {
        if (info === undefined) return expect(byLanguage || units[i]?.placement.versions !== undefined).toBe(false);
        const text = texts[i] as { keys: string[]; title: string; cls: string };
        expect(info.ids.keys.length).toBe(text.keys.length);
        const pairs: [number, string][] = [...info.ids.keys.map((n, k): [number, string] => [n, text.keys[k] as string]), [info.ids.title, text.title], [info.ids.cls, text.cls]];
        expect(info.language).toBe(byLanguage ? info.ids.keys[0] : -1);
        for (const [n, t] of pairs) {
          expect(byNumber.get(n) ?? t).toBe(t);
          expect(byText.get(t) ?? n).toBe(n);
          byNumber.set(n, t);
          byText.set(t, n);
          compared++;
        }
      });
      expect(compared).toBeGreaterThanOrEqual(3 * infos.filter((info) => info !== undefined).length);
      expect(compared).toBeGreaterThan(units.length);
      // The folders' keys were numbered once each, and pages with ordinary names shared them.
      expect(byText.size).toBeLessThan(compared);
    }
  });

  it("place a page of the version at the root beside the same page in an older version's folder", () => {
    const latest = "v4.0.0 (beta 1)";
    const navPages = new Map<string, PagePlacement>(
      (
        [
          ["/servers/tools", [latest]],
          ["/servers/auth", [latest]],
          ["/v3/servers/tools", ["v3.4.4"]],
          ["/v3/servers/auth", ["v3.4.4"]],
        ] as const
      ).map(([path, versions]) => [path, { versions, breadcrumbs: [] }]),
    );
    const rules = twinRules({ navPages, versions: [latest, "v3.4.4"] });
    const keys = (path: string): string[] => twinKeyTexts(path, "Tools", navPages.get(path), rules).keys;
    expect(keys("/servers/tools")).toEqual(["v\u0000undefined\u0000/\u0000/servers/tools", "v\u0000undefined\u0000\u0001/servers/tools"]);
    expect(keys("/v3/servers/tools")).toEqual(["v\u0000undefined\u0000/\u0000/servers/tools", "v\u0000undefined\u0000\u0001/v3/servers/tools"]);
    // A page of the root version inside an older version's folder is at no place of the scheme.
    expect(twinKeyTexts("/v3/servers/tools", "Tools", { versions: [latest], breadcrumbs: [] }, rules).keys).toEqual(["v\u0000undefined\u0000\u0001/v3/servers/tools"]);
  });
});

