import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block, type ComponentDefinition } from "./component.js";

/** The callouts: a box with the kind's colour and label, its children inside. */
export const CALLOUT_KINDS = ["Note", "Tip", "Warning", "Info", "Check", "Danger", "Callout"] as const;

/** `<Note>`, `<Warning title="...">`...: `<div class="callout callout-note" role="note">`. */
export function callout(kind: (typeof CALLOUT_KINDS)[number]): ComponentDefinition {
  return block(({ node, children }) => {
    const title = stringAttribute(node, "title");
    const label = el("div", { className: ["callout-label"] }, [text(title ?? (kind === "Callout" ? "" : kind))]);
    return el("div", { className: ["callout", `callout-${kind.toLowerCase()}`], role: "note", dataComponent: kind }, [
      ...(title !== undefined || kind !== "Callout" ? [label] : []),
      el("div", { className: ["callout-body"] }, children()),
    ]);
  });
}
