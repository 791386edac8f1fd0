/**
 * Where an API description holds data written as it is, not description: examples, defaults,
 * enumerations and constants. An object there with an `x-svc` or `x-mint` key is an example of
 * one (a spec documenting this server's own rules, a payload that carries the key), never a rule:
 * read as a stray rule, it cut the example from every page and spec file (adversary round 50 F2).
 */

/** Keys whose whole value is data (JSON Schema and OpenAPI keywords). */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["example", "default", "enum", "const"]);

/**
 * Keys whose object's keys are names an author picks (a property, a response code, a component, a
 * media type), so a name `default` or `example` there is no keyword: `responses.default` is the
 * default response, `properties.example` a property's schema.
 */
const NAME_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "paths",
  "webhooks",
  "content",
  "encoding",
  "variables",
  "examples",
  "mapping",
  "scopes",
  "messages",
  "channels",
  "operations",
  "servers",
  "serverVariables",
  "correlationIds",
  "replies",
  "replyAddresses",
  "messageTraits",
  "operationTraits",
  "bindings",
  "channelBindings",
  "operationBindings",
  "messageBindings",
  "serverBindings",
]);

/**
 * Whether the value under `key` is data. `up` holds the keys above it, nearest first: the key of
 * the object holding `key`, then that object's holder's, then the next (undefined above the root).
 * Data is: a keyword's value (`example`, `default`, `enum`, `const`), an `examples` list (JSON
 * Schema's, an AsyncAPI message's), and an Example Object's `value` in an `examples` map.
 */
export function isDataValue(key: string | number, value: unknown, up: readonly [string | number | undefined, string | number | undefined, string | number | undefined]): boolean {
  if (typeof key !== "string") return false;
  const [holder, above, further] = up;
  const named = typeof holder === "string" && NAME_MAPS.has(holder);
  if (!named && DATA_KEYWORDS.has(key)) return true;
  if (!named && key === "examples" && Array.isArray(value)) return true;
  // `examples: {<name>: {value: ...}}`, the map itself in a keyword's place.
  return key === "value" && above === "examples" && !(typeof further === "string" && NAME_MAPS.has(further));
}
