import type { Element, ElementContent, Properties } from "hast";
import { find, html } from "property-information";
import { el, text } from "./hast.js";
import { attributeValue, type JsxElement } from "./jsx-attributes.js";

/** HTML elements that are blocks: a paragraph holding one is split around it. */
export const BLOCK_HTML = new Set(["script", "style", "div", "section", "aside", "figure", "table", "details", "video", "audio", "iframe", "ul", "ol", "pre", "blockquote", "hr", "p", "picture", "h1", "h2", "h3", "h4", "h5", "h6"]);

/**
 * An HTML element written in MDX (`<div className="x">`, `<img src="/a.png" />`), with the
 * attributes whose value is known without code; the sanitizer decides afterwards which elements
 * and attributes stay. An `<iframe>` (a video from elsewhere, say) is never loaded: it becomes a
 * link to what it would show.
 */
export function htmlElement(node: JsxElement, children: () => ElementContent[]): ElementContent {
  const name = node.name ?? "div";
  if (name === "iframe") {
    const src = attributeValue(node, "src");
    const title = attributeValue(node, "title");
    const href = typeof src === "string" ? src : "";
    return el("p", { className: ["embed"] }, [text("Embedded page (not loaded in the preview): "), el("a", { href }, [text(typeof title === "string" && title !== "" ? title : href)])]);
  }
  return el(name, propertiesOf(node), children());
}

/** The static attributes of an element as hast properties (`class` and `className` alike). */
function propertiesOf(node: JsxElement): Properties {
  const out: Properties = {};
  for (const attribute of node.attributes) {
    if (attribute.type !== "mdxJsxAttribute") continue;
    const value = attributeValue(node, attribute.name);
    if (value === undefined || value === null || value === false) continue;
    const name = attribute.name === "class" ? "className" : attribute.name;
    // Event handlers are never kept, even as text (the sanitizer would drop them too).
    if (/^on/i.test(name) || name === "style" || name === "dangerouslySetInnerHTML") continue;
    const info = find(html, name);
    if (info.property === "className") out["className"] = String(value).split(/\s+/).filter((c) => c !== "");
    else out[info.property] = value === true ? true : String(value);
  }
  return out;
}

/** Whether a hast node is an element with this tag name. */
export function isElement(node: ElementContent, tagName?: string): node is Element {
  return node.type === "element" && (tagName === undefined || node.tagName === tagName);
}
