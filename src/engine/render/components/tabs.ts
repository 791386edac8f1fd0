import type { Element, ElementContent } from "hast";
import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Tab title>`: a panel; `<Tabs>` gathers them behind a row of buttons. */
export const tab = block(({ node, children }) =>
  el("div", { className: ["tab-panel"], role: "tabpanel", dataTitle: stringAttribute(node, "title") ?? "Tab", dataComponent: "Tab" }, children()),
);

/** `<Tabs>`: its panels behind buttons; the first shown, the others `hidden` until chosen. */
export const tabs = block(({ children }) => tabbed("tabs", "Tabs", children(), (panel, i) => String(panel.properties["dataTitle"] ?? `Tab ${i + 1}`)));

/**
 * Panels behind a row of tab buttons (`Tabs`, `CodeGroup`): the buttons and `aria-selected`
 * are written here, so the page's script only switches them; without it the first panel shows.
 */
export function tabbed(kind: string, component: string, content: readonly ElementContent[], labelOf: (panel: Element, index: number) => string): Element {
  const panels = content.filter((c): c is Element => c.type === "element");
  const buttons = panels.map((panel, i) =>
    el("button", { type: "button", role: "tab", className: ["tab"], ariaSelected: i === 0 ? "true" : "false", dataIndex: String(i) }, [text(labelOf(panel, i))]),
  );
  const shown = panels.map((panel, i) => ({ ...panel, properties: { ...panel.properties, dataIndex: String(i), ...(i > 0 ? { hidden: true } : {}) } }));
  return el("div", { className: [kind], dataTabs: "", dataComponent: component }, [el("div", { className: ["tab-list"], role: "tablist" }, buttons), ...shown]);
}
