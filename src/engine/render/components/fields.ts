import { el, text } from "../hast.js";
import { attributeValue, flagAttribute, type JsxElement, stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** Where a `<ParamField>` sits, by the attribute that names it (`<ParamField query="limit">`). */
const LOCATIONS = ["path", "query", "body", "header", "cookie", "param"] as const;

/**
 * A field's anchor as the hosted platform writes it: where it is and its name, dots and other
 * punctuation as dashes (`body` `user.email` -> `body-user-email`), so a link to a field of a
 * page lands on it here too.
 */
export function fieldAnchor(location: string, name: string): string {
  return `${location}-${name}`.replace(/[^\p{L}\p{N}_-]+/gu, "-").replace(/-+$/, "");
}

/** `<ParamField query="limit" type="integer" required default="10">`: name, type, flags, description. */
export const paramField = block(({ node, children }) => {
  const location = LOCATIONS.find((l) => stringAttribute(node, l) !== undefined) ?? "param";
  return field(node, location, stringAttribute(node, location) ?? "", children());
});

/** `<ResponseField name="id" type="string" required>`. */
export const responseField = block(({ node, children }) => field(node, "response", stringAttribute(node, "name") ?? "", children()));

function field(node: JsxElement, location: string, name: string, body: ReturnType<typeof el>["children"]) {
  const type = stringAttribute(node, "type");
  const fallback = attributeValue(node, "default");
  const flags = [
    ...(type !== undefined ? [el("span", { className: ["field-type"] }, [text(type)])] : []),
    ...(flagAttribute(node, "required") ? [el("span", { className: ["field-required"] }, [text("required")])] : []),
    ...(flagAttribute(node, "deprecated") ? [el("span", { className: ["field-deprecated"] }, [text("deprecated")])] : []),
    ...(fallback !== undefined && fallback !== true ? [el("span", { className: ["field-default"] }, [text(`default: ${String(fallback)}`)])] : []),
  ];
  const anchor = fieldAnchor(location, name);
  return el("div", { className: ["field"], id: anchor, dataComponent: location === "response" ? "ResponseField" : "ParamField" }, [
    el("div", { className: ["field-head"] }, [el("a", { className: ["field-name"], href: `#${anchor}` }, [el("code", {}, [text(name)])]), ...flags]),
    el("div", { className: ["field-body"] }, body),
  ]);
}
