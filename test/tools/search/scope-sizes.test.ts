import { describe, expect, it } from "vitest";
import type { PagePlacement } from "../../../src/config/site-config.js";
import { ScopeSizes } from "../../../src/engine/search/scope-sizes.js";

describe("the page units a search's version and language filters keep", () => {
  it("counts a unit once per filter that keeps it: listed there, or listing none", () => {
    const placements: (Pick<PagePlacement, "versions" | "languages"> | undefined)[] = [
      undefined,
      { versions: ["v1"] },
      { versions: ["v1", "v2", "v1"], languages: ["en"] },
      { versions: ["v2"], languages: ["en", "fr"] },
      { languages: ["fr"] },
      { versions: [], languages: ["en"] },
    ];
    const sizes = new ScopeSizes(placements);
    const filters = [undefined, "v1", "v2", "v3"].flatMap((version) => [undefined, "en", "fr", "de"].map((language) => ({ version, language })));
    expect(filters.map(({ version, language }) => `${version ?? "-"} ${language ?? "-"} ${sizes.count(version, language)}`)).toEqual([
      "- - 6",
      "- en 5",
      "- fr 4",
      "- de 2",
      "v1 - 4",
      "v1 en 3",
      "v1 fr 3",
      "v1 de 2",
      "v2 - 4",
      "v2 en 3",
      "v2 fr 3",
      "v2 de 1",
      "v3 - 2",
      "v3 en 1",
      "v3 fr 2",
      "v3 de 1",
    ]);
  });
});
