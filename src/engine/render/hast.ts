import type { Element, ElementContent, Properties, Text } from "hast";

/** A hast element: `el("div", { className: ["card"] }, children)`. */
export function el(tagName: string, properties: Properties = {}, children: readonly ElementContent[] = []): Element {
  return { type: "element", tagName, properties, children: [...children] };
}

/** A hast text node. */
export function text(value: string): Text {
  return { type: "text", value };
}

/** The text of hast nodes, as a reader sees it (for tab labels, table-of-contents entries). */
export function textOf(nodes: readonly ElementContent[]): string {
  let out = "";
  for (const n of nodes) {
    if (n.type === "text") out += n.value;
    else if (n.type === "element") out += textOf(n.children);
  }
  return out;
}
