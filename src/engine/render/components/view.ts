import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/**
 * `<View title icon>`: one of a page's alternative views (a language, a framework), which the
 * platform switches with a menu at the top of the page. Here every view shows, each under its
 * title, so nothing the page holds is out of sight.
 */
export const view = block(({ node, children }) => {
  const title = stringAttribute(node, "title");
  return el("section", { className: ["view"], dataComponent: "View" }, [...(title !== undefined ? [el("div", { className: ["view-title"] }, [text(title)])] : []), ...children()]);
});

/** `<Prompt description>`: a prompt to copy into an AI tool, its description above it. */
export const prompt = block(({ node, children }) => {
  const description = stringAttribute(node, "description");
  return el("div", { className: ["prompt"], dataComponent: "Prompt" }, [
    ...(description !== undefined ? [el("div", { className: ["prompt-description"] }, [text(description)])] : []),
    el("div", { className: ["prompt-body"] }, children()),
  ]);
});
