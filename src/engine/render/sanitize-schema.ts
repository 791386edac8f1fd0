import type { Schema } from "hast-util-sanitize";

const ARIA = ["ariaLabel", "ariaHidden", "ariaSelected", "ariaControls", "ariaExpanded", "ariaDescribedBy", "ariaLabelledBy", "ariaCurrent"];

/**
 * What a rendered page may hold: text markup, tables, media, `<details>`, and the elements our
 * components write; classes, ids, titles, ARIA and `data-*` attributes. No script, style,
 * iframe, object, form or event handler gets through, whatever a page writes; links and media
 * only with http(s), mailto or tel URLs or paths on this site (`javascript:` is dropped).
 */
export const SANITIZE_SCHEMA: Schema = {
  // Ids stay as written (headings and fields must match the links search and other pages give);
  // the page's script never reads elements by a global name, so clobbering has nothing to hit.
  clobber: [],
  clobberPrefix: "",
  allowComments: false,
  allowDoctypes: false,
  strip: ["script", "style", "template", "iframe", "object", "embed", "noscript", "textarea", "select", "title"],
  // prettier-ignore
  tagNames: [
    "a", "abbr", "aside", "audio", "b", "blockquote", "br", "button", "caption", "code", "col", "colgroup", "dd", "del", "details", "div", "dl", "dt",
    "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark", "ol", "p", "picture", "pre",
    "q", "s", "samp", "section", "small", "source", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead",
    "time", "tr", "u", "ul", "var", "video", "wbr",
  ],
  attributes: {
    "*": ["className", "id", "title", "role", "hidden", "lang", "dir", "tabIndex", "data*", ...ARIA],
    a: ["href", "rel", ["target", "_blank"]],
    img: ["src", "alt", "width", "height", ["loading", "lazy", "eager"]],
    video: ["src", "poster", "controls", "width", "height", "muted", "loop", "playsInline"],
    audio: ["src", "controls", "loop", "muted"],
    source: ["src", "type", "media"],
    td: ["align", "colSpan", "rowSpan"],
    th: ["align", "colSpan", "rowSpan", "scope"],
    ol: ["start", "reversed"],
    li: ["value"],
    input: [["type", "checkbox"], ["disabled", true], "checked"],
    details: ["open"],
    button: [["type", "button"]],
    blockquote: ["cite"],
    q: ["cite"],
    time: ["dateTime"],
  },
  required: { input: { type: "checkbox", disabled: true }, button: { type: "button" } },
  protocols: {
    href: ["http", "https", "mailto", "tel"],
    src: ["http", "https"],
    poster: ["http", "https"],
    cite: ["http", "https"],
  },
};
