import { el } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { inline } from "./component.js";

/** `<Tooltip tip="...">word</Tooltip>`: the word, underlined, with the tip as its title. */
export const tooltip = inline(({ node, children }) => el("span", { className: ["tooltip"], title: stringAttribute(node, "tip") ?? "", tabIndex: 0, dataComponent: "Tooltip" }, children()));

/** `<Badge>`: a small label. */
export const badge = inline(({ children }) => el("span", { className: ["badge"], dataComponent: "Badge" }, children()));

/**
 * `<Icon icon="check">`: icons come from a font the hosted platform loads from elsewhere; the
 * preview loads nothing from elsewhere, so an icon is a small mark with its name as a title.
 */
export const icon = inline(({ node }) => el("span", { className: ["icon"], title: stringAttribute(node, "icon") ?? "", ariaHidden: "true", dataComponent: "Icon" }));


/**
 * `<Latex>formula</Latex>`: the platform typesets the TeX; the preview shows its source as code
 * (typesetting would take a TeX engine in every render worker, for a component the 45 real sites
 * we read use only as the platform's own example).
 */
export const latex = inline(({ children }) => el("code", { className: ["latex"], title: "TeX: the preview shows the formula's source", dataComponent: "Latex" }, children()));
