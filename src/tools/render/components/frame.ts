import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Frame caption>`: a bordered figure around an image or video, with its caption. */
export const frame = block(({ node, children }) => {
  const caption = stringAttribute(node, "caption");
  return el("figure", { className: ["frame"], dataComponent: "Frame" }, [...children(), ...(caption !== undefined ? [el("figcaption", {}, [text(caption)])] : [])]);
});
