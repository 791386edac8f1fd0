import type { ElementContent } from "hast";
import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";
import { tabbed } from "./tabs.js";

/**
 * `<CodeGroup>`: its code blocks behind tabs named by each block's title (```` ```bash npm ````)
 * or language. `<RequestExample>` / `<ResponseExample>` (the right column of API pages on the
 * hosted platform) are code groups with a caption.
 */
export const codeGroup = (caption?: string) =>
  block(({ node, children }) => {
    const group = tabbed("code-group", caption === undefined ? "CodeGroup" : caption.replace(/ /g, ""), children().map(untitled), (panel, i) => {
      const title = panel.properties["dataTitle"] ?? panel.properties["dataLang"];
      return typeof title === "string" && title !== "" ? title : `Example ${i + 1}`;
    });
    const label = caption ?? stringAttribute(node, "title");
    return label === undefined ? group : el("div", { className: ["example"] }, [el("div", { className: ["example-caption"] }, [text(label)]), group]);
  });

/** A code block inside a group shows its title on its tab, not above the code. */
function untitled(node: ElementContent): ElementContent {
  if (node.type !== "element" || !(node.properties["className"] as string[] | undefined)?.includes("code-block")) return node;
  return { ...node, children: node.children.filter((c) => !(c.type === "element" && c.tagName === "figcaption")) };
}
