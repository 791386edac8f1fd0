import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A title that names every word of the question, among words of its own ("How to install custom
 * nodes in ComfyUI"), must not lose to a shorter title naming only part of it ("Custom nodes")
 * (issue 24): the title part multiplied the question's share the title names by the title's
 * share the question names, and that second factor, taken whole, cost a five-word title 40% of
 * its title part for three words the question does not say. ComfyUI's Korean "ComfyUI 문제 해결
 * 방법" ranked the manager's "문제 해결" above "ComfyUI 문제 해결 및 해결 방법". The title's share
 * now counts to the power 0.7 (`titlePrecisionExponent`).
 */
describe("a title naming the whole question", () => {
  const page = (title: string, body: string): string => ["---", `title: ${title}`, "---", "", body].join("\n");
  const site = inlineSite({
    "/concepts/custom-nodes.mdx": page(
      "Custom nodes",
      "Custom nodes add new node types to the editor. Install custom nodes from the manager, or install them by hand: clone a repository into the custom nodes folder.",
    ),
    "/installation/install-custom-nodes.mdx": page(
      "How to install custom nodes in ComfyUI",
      "Open the manager and search for the pack by name. Restart the server once it is done.",
    ),
    "/interface/nodes.mdx": page("Nodes", "Every node has inputs and outputs. Drag from an output to connect it."),
  });
  const ranked = (index: SearchIndex): (string | number)[][] =>
    index.search({ query: "install custom nodes", canRead: () => true }).map((h) => [h.page.path, h.score]);

  it("ranks above a shorter title naming part of it", () => {
    const index = new SearchIndex();
    index.sync(site);
    expect(ranked(index)).toEqual([
      ["/installation/install-custom-nodes", 0.72],
      ["/concepts/custom-nodes", 0.71],
      ["/interface/nodes", 0.174],
    ]);
  });

  it("ranked below it when the title's share counted whole (the code before)", () => {
    const index = new SearchIndex({ ranking: { titlePrecisionExponent: 1 } });
    index.sync(site);
    expect(ranked(index)).toEqual([
      ["/concepts/custom-nodes", 0.71],
      ["/installation/install-custom-nodes", 0.697],
      ["/interface/nodes", 0.174],
    ]);
  });
});
