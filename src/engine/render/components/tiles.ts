import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Tile href title description>`: a link box whose children are its picture, then its title and description. */
export const tile = block(({ node, children }) => {
  const title = stringAttribute(node, "title");
  const description = stringAttribute(node, "description");
  const href = stringAttribute(node, "href");
  const inner = [
    el("div", { className: ["tile-preview"] }, children()),
    ...(title !== undefined ? [el("div", { className: ["card-title"] }, [text(title)])] : []),
    ...(description !== undefined ? [el("div", { className: ["card-body"] }, [text(description)])] : []),
  ];
  return href !== undefined ? el("a", { className: ["card", "tile"], href, dataComponent: "Tile" }, inner) : el("div", { className: ["card", "tile"], dataComponent: "Tile" }, inner);
});

/** `<Column>`: one cell of `<Columns>`. */
export const column = block(({ children }) => el("div", { className: ["column"], dataComponent: "Column" }, children()));
