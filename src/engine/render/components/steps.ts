import type { ElementContent } from "hast";
import { el, text } from "../hast.js";
import { numberAttribute, stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Step title>`: one numbered step (its number from `<Steps>`, or `stepNumber`). */
export const step = block(({ node, children }) => {
  const title = stringAttribute(node, "title");
  const number = numberAttribute(node, "stepNumber");
  return el("li", { className: ["step"], dataComponent: "Step", ...(number !== undefined ? { value: String(number) } : {}) }, [
    ...(title !== undefined ? [el("div", { className: ["step-title"] }, [text(title)])] : []),
    el("div", { className: ["step-body"] }, children()),
  ]);
});

/** `<Steps>`: its steps as a numbered list (anything else inside is kept in place). */
export const steps = block(({ children }) => {
  const items: ElementContent[] = children().map((c) => (c.type === "element" && c.tagName !== "li" ? el("li", { className: ["step"] }, [c]) : c));
  return el("ol", { className: ["steps"], dataComponent: "Steps" }, items.filter((c) => c.type !== "text" || c.value.trim() !== ""));
});
