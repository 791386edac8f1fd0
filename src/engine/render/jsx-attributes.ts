import type { MdxJsxFlowElement, MdxJsxTextElement } from "mdast-util-mdx-jsx";

/** An MDX component or HTML element as written in a page. */
export type JsxElement = MdxJsxFlowElement | MdxJsxTextElement;

/** A value written in an attribute that needs no code to know: a string, number, boolean or null. */
export type StaticValue = string | number | boolean | null;

/** The subset of ESTree an attribute expression is read through (only literals are read). */
interface EstreeNode {
  readonly type: string;
  readonly value?: unknown;
  readonly operator?: string;
  readonly argument?: EstreeNode;
  readonly expressions?: readonly unknown[];
  readonly quasis?: readonly { readonly value: { readonly cooked?: string | null } }[];
  readonly expression?: EstreeNode;
  readonly body?: readonly EstreeNode[];
}

/**
 * An attribute's value, when it can be known without running code: `title="x"`, `cols={2}`,
 * `defaultOpen` (true), `{"x"}`, `` {`x`} `` without substitutions, `{-1}`, `{null}`. Any other
 * expression (`onClick={...}`, `{props.x}`) is undefined: the preview never evaluates code from
 * the repository, so such an attribute is as if it were not written.
 */
export function attributeValue(node: JsxElement, name: string): StaticValue | undefined {
  for (const attribute of node.attributes) {
    if (attribute.type !== "mdxJsxAttribute" || attribute.name !== name) continue;
    const value = attribute.value;
    if (value === null || value === undefined) return true;
    if (typeof value === "string") return value;
    const program = value.data?.estree as EstreeNode | undefined;
    const statement = program?.body?.length === 1 ? program.body[0] : undefined;
    return statement?.type === "ExpressionStatement" && statement.expression !== undefined ? literalOf(statement.expression) : undefined;
  }
  return undefined;
}

/** A literal expression's value (see `attributeValue`); undefined for anything that is code. */
export function literalOf(node: EstreeNode): StaticValue | undefined {
  if (node.type === "Literal") {
    const v = node.value;
    return typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null ? v : undefined;
  }
  if (node.type === "TemplateLiteral" && node.expressions?.length === 0) return node.quasis?.[0]?.value.cooked ?? undefined;
  if (node.type === "UnaryExpression" && node.operator === "-" && node.argument !== undefined) {
    const v = literalOf(node.argument);
    return typeof v === "number" ? -v : undefined;
  }
  return undefined;
}

/** The first of `names` written with a string or number value, as a string. */
export function stringAttribute(node: JsxElement, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = attributeValue(node, name);
    if (typeof v === "string") return v;
    if (typeof v === "number") return String(v);
  }
  return undefined;
}

/** Whether a flag is on: written bare (`defaultOpen`), `={true}`, or `="true"`. */
export function flagAttribute(node: JsxElement, name: string): boolean {
  const v = attributeValue(node, name);
  return v === true || v === "true";
}

/** A whole number written as `cols={2}` or `cols="2"`, else undefined. */
export function numberAttribute(node: JsxElement, name: string): number | undefined {
  const v = attributeValue(node, name);
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : undefined;
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}
