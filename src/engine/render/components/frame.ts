import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<Frame caption>`: a bordered figure around an image or video, with its caption. */
export const frame = block(({ node, children }) => {
  const caption = stringAttribute(node, "caption");
  return el("figure", { className: ["frame"], dataComponent: "Frame" }, [...children(), ...(caption !== undefined ? [el("figcaption", {}, [text(caption)])] : [])]);
});

/** `<Panel>`: content the hosted platform shows beside the page; here an aside in the page's flow. */
export const panel = block(({ children }) => el("aside", { className: ["panel"], dataComponent: "Panel" }, children()));
