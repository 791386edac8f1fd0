import { el, text } from "../hast.js";
import { flagAttribute, stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Accordion title defaultOpen>`: a `<details>`, so it opens and closes without any script. */
export const accordion = block(({ node, children }) =>
  el("details", { className: ["accordion"], dataComponent: "Accordion", ...(flagAttribute(node, "defaultOpen") ? { open: true } : {}) }, [
    el("summary", {}, [text(stringAttribute(node, "title") ?? "Details")]),
    el("div", { className: ["accordion-body"] }, children()),
  ]),
);

/** `<AccordionGroup>`: its accordions as one bordered list. */
export const accordionGroup = block(({ children }) => el("div", { className: ["accordion-group"], dataComponent: "AccordionGroup" }, children()));

/** `<Expandable title="properties">`: nested fields behind "Show properties". */
export const expandable = block(({ node, children }) =>
  el("details", { className: ["expandable"], dataComponent: "Expandable", ...(flagAttribute(node, "defaultOpen") ? { open: true } : {}) }, [
    el("summary", {}, [text(`Show ${stringAttribute(node, "title") ?? "properties"}`)]),
    el("div", { className: ["expandable-body"] }, children()),
  ]),
);
