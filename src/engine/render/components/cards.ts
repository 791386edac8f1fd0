import { el, text } from "../hast.js";
import { numberAttribute, stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Card title href>`: a link box (a plain box without `href`); `img` shows above the title. */
export const card = block(({ node, children }) => {
  const title = stringAttribute(node, "title");
  const href = stringAttribute(node, "href");
  const img = stringAttribute(node, "img");
  const inner = [
    ...(img !== undefined ? [el("img", { src: img, alt: "", className: ["card-image"] })] : []),
    ...(title !== undefined ? [el("div", { className: ["card-title"] }, [text(title)])] : []),
    el("div", { className: ["card-body"] }, children()),
  ];
  return href !== undefined ? el("a", { className: ["card"], href, dataComponent: "Card" }, inner) : el("div", { className: ["card"], dataComponent: "Card" }, inner);
});

/** `<CardGroup cols={2}>` and `<Columns cols={3}>`: a grid of 1 to 4 columns (2 by default). */
export const cardGrid = (name: string) =>
  block(({ node, children }) => {
    const cols = Math.min(4, Math.max(1, numberAttribute(node, "cols") ?? 2));
    return el("div", { className: ["card-grid", `cols-${cols}`], dataComponent: name }, children());
  });
