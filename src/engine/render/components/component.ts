import type { ElementContent } from "hast";
import type { JsxElement } from "../jsx-attributes.js";

/** What a component is rendered from: its element as written and its children, rendered. */
export interface ComponentInput {
  readonly node: JsxElement;
  /** The children as HTML (Markdown inside a component is rendered as everywhere else). */
  readonly children: () => ElementContent[];
}

/**
 * How the preview renders one component real sites use, as static HTML: no code from the
 * repository runs; the pages' own script (src/web/preview) adds what needs a click (tabs).
 */
export interface ComponentDefinition {
  readonly render: (input: ComponentInput) => ElementContent | ElementContent[];
  /** Renders as a block: a paragraph holding it is split around it (HTML has no block in `<p>`). */
  readonly block: boolean;
}

/** A block component. */
export function block(render: ComponentDefinition["render"]): ComponentDefinition {
  return { render, block: true };
}

/** An inline component (a badge, a tooltip). */
export function inline(render: ComponentDefinition["render"]): ComponentDefinition {
  return { render, block: false };
}
