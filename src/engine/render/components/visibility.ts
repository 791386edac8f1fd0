import { attributeValue } from "../jsx-attributes.js";
import { inline } from "./component.js";

/**
 * `<Visibility for="humans|agents">` (issue 24, `config/visibility.ts`): the preview is the
 * people's view, so `for="agents"` content is left out and any other is its children, with no
 * element of its own (a `for` missing or unknown shows to both, as `check` says). Not a block:
 * it wraps a word inside a sentence as well as whole sections.
 */
export const visibility = inline(({ node, children }) => (attributeValue(node, "for") === "agents" ? [] : children()));
