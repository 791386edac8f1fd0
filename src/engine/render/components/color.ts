import { el, text } from "../hast.js";
import { attributeValue, stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Color>`: a palette; `<Color.Row title>` one named row of it. */
export const colors = block(({ children }) => el("div", { className: ["colors"], dataComponent: "Color" }, children()));
export const colorRow = block(({ node, children }) => {
  const title = stringAttribute(node, "title");
  return el("div", { className: ["color-row"], dataComponent: "Color.Row" }, [...(title !== undefined ? [el("div", { className: ["color-row-title"] }, [text(title)])] : []), ...children()]);
});

/**
 * `<Color.Item name value>`: a named colour and its value as text. A `value={{ light, dark }}`
 * is an object expression, code the preview does not evaluate: the item then shows its name.
 * No swatch: the page's Content-Security-Policy allows no inline style to paint one.
 */
export const colorItem = block(({ node }) => {
  const name = stringAttribute(node, "name");
  const value = attributeValue(node, "value");
  return el("div", { className: ["color-item"], dataComponent: "Color.Item" }, [
    ...(name !== undefined ? [el("span", { className: ["color-name"] }, [text(name)])] : []),
    ...(typeof value === "string" ? [el("code", { className: ["color-value"] }, [text(value)])] : []),
  ]);
});
