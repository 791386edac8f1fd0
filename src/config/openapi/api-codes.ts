/**
 * Codes of the API reference's findings, for machines (`svc-mcp check --json`) and for code that
 * must tell one finding from another without reading its words (the runtime's report on fetched
 * remote specs). docs/docs-json.md lists each with its message.
 */
export const API_CODES = {
  /** `API spec <source>: <why>`: a spec that cannot be read, parsed or validated. */
  spec: "api-spec",
  /** One problem of a spec refused as a whole (`api-spec`), at its place in the spec file. */
  specProblem: "api-spec-problem",
  /** A spec's own warnings (a dangling `$ref`, an unknown version field...). */
  specWarning: "api-spec-warning",
  /** A `$ref` outside a restricted part that points into it: left out of the pages. */
  restrictedRef: "api-restricted-ref",
  /** An `x-svc`/`x-mint` rule (`metadata.groups`) that cannot be read: the part is restricted to no reader. */
  unreadableRule: "api-unreadable-rule",
  /** An `x-svc`/`x-mint` rule written where no page is made from it (a callback's operation, a component): left out of the pages and of the spec file of readers outside its groups. */
  strayRule: "api-stray-rule",
  /** `<operation> skipped: invalid operation (...)`. */
  operationSkipped: "api-operation-skipped",
  /** A navigation whose generated API entries would pass `LIMITS.config.maxNavigationEntries`. */
  tooManyEntries: "api-too-many-entries",
  /** An operation entry under no `openapi`. */
  noSpec: "api-no-spec",
  /** An operation entry that matches no operation and names no file. */
  unmatched: "api-unmatched",
  /** Front matter `openapi` that is not a reference, matches nothing, or cannot be shown. */
  frontMatter: "api-front-matter",
  /** Front matter `openapi-schema` that is not a reference, names no schema, or cannot be shown. */
  frontMatterSchema: "api-front-matter-schema",
  /** Front matter `asyncapi` that is not a reference, matches no channel, or cannot be shown. */
  frontMatterChannel: "api-front-matter-channel",
  /** One operation with a generated page and an MDX page. */
  twoPages: "api-two-pages",
  /** A real file at a generated page's path. */
  pageTaken: "api-page-taken",
  /** A malformed `openapi` / `asyncapi` value (reported by the schema first). */
  specReference: "api-spec-reference",
  /** `api.*` settings: an unknown example language, a wrong value. */
  settings: "api-settings",
  /** A page whose schemas reach each other in more ways than its schema budget shows: cut, with a note. */
  pageCut: "api-page-cut",
} as const;

export type ApiCode = (typeof API_CODES)[keyof typeof API_CODES];
