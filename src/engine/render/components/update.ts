import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Update label="2024-10-01" description="v1.2">`: a changelog entry, its label on the side. */
export const update = block(({ node, children }) => {
  const label = stringAttribute(node, "label") ?? "";
  const description = stringAttribute(node, "description");
  return el("section", { className: ["update"], dataComponent: "Update" }, [
    el("div", { className: ["update-label"] }, [text(label), ...(description !== undefined ? [el("div", { className: ["update-description"] }, [text(description)])] : [])]),
    el("div", { className: ["update-body"] }, children()),
  ]);
});
