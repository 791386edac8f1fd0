import { describe, expect, it } from "vitest";
import type { RankingParams } from "../../../src/engine/search/ranking.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * Pages written to one outline shared by ten or more titles (ComfyUI's node pages, `## Inputs` /
 * `## Outputs`) are a template's reference pages: weighed 0.9, so the tutorial answering a question
 * in words ranks above the node page whose table holds the same words (issue 24, thirty-seventh
 * round, `template-pages.ts`).
 */
const node = (name: string, words: string) =>
  `---\ntitle: ${name}\n---\n\n${name} ${words}.\n\n## Inputs\n\n| Parameter | Description |\n|---|---|\n| \`image\` | The input image. |\n| \`seed\` | The seed of the random generation. |\n| \`prompt\` | What to paint, in words. |\n\n## Outputs\n\n| Output | Description |\n|---|---|\n| \`image\` | The result. |\n`;
const NAMES = ["Blur", "Sharpen", "Crop", "Rotate", "Flip", "Invert", "Scale", "Pad", "Tint", "Grain"];
const tutorial = "---\ntitle: Outpainting\n---\n\nOutpainting extends an image beyond its borders with a model.\n\n## Steps\n\nLoad the workflow and run it.\n\n## Tips\n\nUse a large canvas.\n";
const files = (nodes: readonly string[]): Record<string, string> => ({
  "/tutorials/outpaint.mdx": tutorial,
  "/nodes/expand.mdx": node("ExpandImage", "extends an image beyond its borders by generating new content"),
  ...Object.fromEntries(nodes.map((n) => [`/nodes/${n.toLowerCase()}.mdx`, node(n, "changes the image")])),
});
const ranked = (f: Record<string, string>, query: string, ranking: Partial<RankingParams> = {}) => {
  const index = new SearchIndex({ cachedResults: 0, ranking });
  index.sync(inlineSite(f));
  return index.search({ query, canRead: () => true, pageSize: 2 }).map((h) => [h.page.path, h.score]);
};

describe("pages made from one template", () => {
  it("rank below the guide answering in words, at 0.9 of their score", () => {
    // 0.237 x 0.9 is 0.213: the node page's score at its weight.
    expect(ranked(files(NAMES), "extend an image beyond its borders", { templatePageWeight: 1 })).toEqual([["/nodes/expand", 0.237], ["/tutorials/outpaint", 0.226]]);
    expect(ranked(files(NAMES), "extend an image beyond its borders")).toEqual([["/tutorials/outpaint", 0.226], ["/nodes/expand", 0.213]]);
  });

  it("an outline fewer than ten titles share is no template's", () => {
    // Nine node pages and the one asked about: ten titles. Eight and it: nine.
    expect(ranked(files(NAMES.slice(0, 8)), "extend an image beyond its borders").map((h) => h[0])).toEqual(["/nodes/expand", "/tutorials/outpaint"]);
  });

  it("a question naming the page's title gives it its full weight", () => {
    expect(ranked(files(NAMES), "ExpandImage")[0]?.[0]).toBe("/nodes/expand");
  });

  it("copies of a page in several versions are one title; a page edited out of the outline leaves it", () => {
    const index = new SearchIndex({ cachedResults: 0 });
    const f = files(NAMES.slice(0, 8));
    // The same page in two more folders (a version's copies): still nine titles.
    index.sync(inlineSite({ ...f, "/v1/nodes/blur.mdx": f["/nodes/blur.mdx"] as string, "/v2/nodes/blur.mdx": f["/nodes/blur.mdx"] as string }));
    expect(index.search({ query: "extend an image beyond its borders", canRead: () => true })[0]?.page.path).toBe("/nodes/expand");
    // A tenth title: a template now, for every page of it (the ones indexed before too).
    index.sync(inlineSite({ ...f, "/nodes/grain.mdx": node("Grain", "changes the image") }));
    expect(index.search({ query: "extend an image beyond its borders", canRead: () => true })[0]?.page.path).toBe("/tutorials/outpaint");
    // And back: the page edited to another outline, nine titles again.
    index.sync(inlineSite({ ...f, "/nodes/grain.mdx": "---\ntitle: Grain\n---\n\nAdds grain.\n" }));
    const again = new SearchIndex({ cachedResults: 0 });
    again.sync(inlineSite({ ...f, "/nodes/grain.mdx": "---\ntitle: Grain\n---\n\nAdds grain.\n" }));
    const q = { query: "extend an image beyond its borders", canRead: () => true };
    expect(index.search(q).map((h) => [h.page.path, h.score])).toEqual(again.search(q).map((h) => [h.page.path, h.score]));
    expect(index.search(q)[0]?.page.path).toBe("/nodes/expand");
  });

  it("a restored index weighs as it was saved, and as a fresh one after an edit", () => {
    const q = { query: "extend an image beyond its borders", canRead: () => true };
    const scores = (i: SearchIndex) => i.search(q).map((h) => [h.page.path, h.score]);
    const site = inlineSite(files(NAMES));
    const saved = new SearchIndex({ cachedResults: 0 });
    saved.sync(site);
    const restored = new SearchIndex({ cachedResults: 0 });
    restored.restore(saved.state(), (p) => site.pages.get(p), (f) => site.files.get(f));
    restored.sync(site);
    expect(scores(restored)).toEqual(scores(saved));
    expect(scores(restored)[0]?.[0]).toBe("/tutorials/outpaint");
    // One page edited out of the outline: nine titles, no template, counted from the restored pages.
    const edited = inlineSite({ ...files(NAMES), "/nodes/grain.mdx": "---\ntitle: Grain\n---\n\nAdds grain.\n" });
    restored.sync(edited);
    const fresh = new SearchIndex({ cachedResults: 0 });
    fresh.sync(edited);
    expect(scores(restored)).toEqual(scores(fresh));
    expect(scores(restored)[0]?.[0]).toBe("/nodes/expand");
  });
});
