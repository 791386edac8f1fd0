import { z } from "zod";
import { PLAYGROUND_DISPLAYS } from "./docs-json/playground-displays.js";
import { type SchemaFinding, findingsFromIssues } from "./docs-json/zod-issues.js";
import type { FrontMatterData } from "./frontmatter.js";
import { lookalikeKeys } from "./rule-key-fold.js";

/** The front matter keys the service acts on. Other keys are kept (and ignored). */
export const pageFrontMatter = z.looseObject({
  title: z.union([z.string(), z.number()]).optional().describe("Page title (else derived from the file name)"),
  description: z.string().optional(),
  noindex: z.boolean().optional().describe("`true` leaves the page out of search (it stays readable)"),
  hidden: z
    .boolean()
    .optional()
    .describe("`true` leaves the page out of the navigation readers see, and out of search unless `seo.indexing` is `all` (it stays readable)"),
  openapi: z.string().optional().describe("The operation the page documents: `GET /users` or `spec.yaml GET /users`"),
  "openapi-schema": z.string().optional().describe("The data model the page documents, from `components.schemas`: `OrderItem` or `spec.yaml OrderItem`"),
  asyncapi: z.string().optional().describe("The AsyncAPI channel the page documents: `chat` or `asyncapi.yaml chat` (a channel id, else an address)"),
  playground: z.enum(PLAYGROUND_DISPLAYS).optional().describe("Playground display for this page (`auth`: signed-in readers, in `groups` when set)"),
  groups: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .describe("User groups allowed to read the page (a list, or a comma-separated string)"),
  public: z.boolean().optional().describe("`true` keeps the page readable by anyone"),
});

/** The front matter keys the service acts on, read leniently from a page's front matter. */
export interface PageMeta {
  readonly title?: string;
  readonly description?: string;
  /** `noindex: true` leaves the page out of search (it stays readable in the filesystem). */
  readonly noindex: boolean;
  /** `hidden: true`: not shown in navigation, and left out of search unless `seo.indexing: all`. */
  readonly hidden: boolean;
  /** `openapi: "GET /users"` or `"spec.yaml GET /users"`: the page documents that operation. */
  readonly openapi?: string;
  /** `openapi-schema: "OrderItem"` or `"spec.yaml OrderItem"`: the page documents that schema. */
  readonly openapiSchema?: string;
  /** `asyncapi: "chat"` or `"asyncapi.yaml chat"`: the page documents that AsyncAPI channel. */
  readonly asyncapi?: string;
  /** `playground: auth | interactive | none`. */
  readonly playground?: string;
  /** User groups allowed to read the page; undefined when unrestricted. */
  readonly groups?: readonly string[];
  /** `public: true` keeps the page readable by anyone. */
  readonly public?: boolean;
}

type Fields = typeof pageFrontMatter.shape;

/** One key checked against its schema; undefined when absent or of the wrong type. */
function field<K extends keyof Fields>(data: FrontMatterData, key: K): z.output<Fields[K]> | undefined {
  const r = (pageFrontMatter.shape[key] as z.ZodType).safeParse(data[key]);
  return r.success ? (r.data as z.output<Fields[K]>) : undefined;
}

/**
 * Read the typed keys. Wrongly typed values are dropped here rather than failing the page
 * (`svc-mcp check` warns about them); a restricted page must never become public by accident,
 * so a `groups` value of the wrong type is kept as an (unmatchable) restriction instead of being
 * ignored. The strings `"true"` are accepted for `noindex`, `hidden` and `public`, as YAML authors write them.
 */
export function readPageMeta(data: FrontMatterData): PageMeta {
  const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v : undefined);
  const rawTitle = field(data, "title");
  const title = typeof rawTitle === "number" ? String(rawTitle) : nonEmpty(rawTitle);
  const description = nonEmpty(field(data, "description"));
  const openapi = nonEmpty(field(data, "openapi"));
  const openapiSchema = nonEmpty(field(data, "openapi-schema"));
  const asyncapi = nonEmpty(field(data, "asyncapi"));
  const playground = field(data, "playground");
  const written = data.groups !== undefined ? data.groups : groupsLookalike(data)?.value;
  const groups = written === undefined ? undefined : readGroups(written);
  return {
    noindex: data.noindex === true || data.noindex === "true",
    hidden: data.hidden === true || data.hidden === "true",
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(openapi !== undefined ? { openapi } : {}),
    ...(openapiSchema !== undefined ? { openapiSchema } : {}),
    ...(asyncapi !== undefined ? { asyncapi } : {}),
    ...(playground !== undefined ? { playground } : {}),
    ...(groups !== undefined ? { groups } : {}),
    ...(data.public === true || data.public === "true" ? { public: true } : {}),
  };
}

/**
 * A key written to restrict the page but not as `groups` (`Groups`, `GROUPS`, `groups ` quoted
 * with a space, `\u200Bgroups` with an invisible character, fullwidth `ｇｒｏｕｐｓ`, `grоups` with a
 * Cyrillic о, the singular `group`; `lookalikeOf`): the platform reads only `groups`,
 * so the page would be public there, yet its author meant a rule. Read as `groups` here (fail
 * closed, adversary round 61's invisible-character class), and `check` says to rename it.
 * Undefined when the page has `groups` itself or no such key.
 */
function groupsLookalike(data: FrontMatterData): { readonly key: string; readonly value: unknown } | undefined {
  if (data.groups !== undefined) return undefined;
  const key = lookalikeKeys(data, ["groups"])[0];
  return key === undefined ? undefined : { key, value: data[key] };
}

/** Wrongly typed front matter keys, in the words `svc-mcp check` prints (path = the key). */
export function frontMatterProblems(data: FrontMatterData): SchemaFinding[] {
  const r = pageFrontMatter.safeParse(data);
  const found = r.success ? [] : findingsFromIssues(r.error.issues, data).map((f) => explained(f, data));
  const lookalike = groupsLookalike(data);
  if (lookalike !== undefined) {
    found.push({ path: lookalike.key, message: "is read as `groups` here, restricting the page to the groups it names; the platform reads only a key written exactly `groups` and would serve the page to everyone: rename the key", code: "schema" });
  }
  if (r.success && data.groups !== undefined && readGroups(data.groups)[0] === UNMATCHABLE_GROUP) {
    found.push({ path: "groups", message: NAMES_NO_GROUP, code: "type" });
  }
  return found;
}

/** `groups:` left empty, `~`, `[]`, `""`: the key is there, so the page is closed, and the author hears why. */
const NAMES_NO_GROUP = "names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)";

/** The keys `readPageMeta` reads as `true` from the string `"true"`: what the finding should say they do. */
const STRING_FLAGS: Readonly<Record<string, string>> = {
  noindex: "left out of search",
  hidden: "hidden from navigation",
  public: "readable by anyone, whatever its groups",
};

/** A finding in the words of what the page then does, where the key is read anyway (or fails closed). */
function explained(f: SchemaFinding, data: FrontMatterData): SchemaFinding {
  if (f.path === "groups" && data.groups === null) return { ...f, message: NAMES_NO_GROUP };
  if (f.path === "groups" || f.path.startsWith("groups[")) return { ...f, message: `${f.message}; the page is readable by no reader until this is fixed` };
  const effect = STRING_FLAGS[f.path];
  const value = data[f.path];
  if (effect === undefined || typeof value !== "string") return f;
  return value === "true"
    ? { ...f, message: `${f.message}; read as true: the page is ${effect}` }
    : { ...f, message: `${f.message}; read as false` };
}

/** A group that no reader can hold: restricts a page whose `groups` value is unreadable. */
export const UNMATCHABLE_GROUP = "\u0000invalid-groups";

function readGroups(value: unknown): readonly string[] {
  // The key is there: whatever it holds was meant to restrict the page. A value naming no group
  // (`groups:` or `groups: ~` left empty, `[]`, `""`, a list commented out) restricts it to no
  // reader rather than opening it: an author emptying the list while serving must not publish
  // the page, and `svc-mcp check` says so (`frontMatterProblems`).
  const parsed = pageFrontMatter.shape.groups.safeParse(value);
  const names = !parsed.success || parsed.data === undefined
    ? Array.isArray(value) ? value.filter((g): g is string => typeof g === "string") : []
    : typeof parsed.data === "string" ? parsed.data.split(",") : parsed.data;
  const groups = names.map((g) => g.trim()).filter((g) => g !== "");
  return groups.length > 0 ? groups : [UNMATCHABLE_GROUP];
}

/**
 * The title a page gives itself in its first line when front matter has none: a `# Heading`
 * before any other text (blank lines and MDX `import` lines aside), as Markdown pages without
 * front matter are written. Inline markup (emphasis, code, links) is reduced to its text.
 */
export function titleFromBody(body: string): string | undefined {
  let from = 0;
  for (let i = 0; i < 50 && from <= body.length; i++) {
    const nl = body.indexOf("\n", from);
    const line = (nl === -1 ? body.slice(from) : body.slice(from, nl)).trim();
    from = nl === -1 ? body.length + 1 : nl + 1;
    if (line === "" || /^(?:import|export)\s/.test(line)) continue;
    const m = /^#[ \t]+(.+?)(?:[ \t]+#+)?$/.exec(line);
    if (m === null) return undefined;
    const title = (m[1] as string)
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/`+|\*\*|__/g, "")
      .trim();
    return title === "" ? undefined : title;
  }
  return undefined;
}

/** A title from a page path when front matter has none: `/guides/getting-started` -> "Getting Started". */
export function titleFromPath(pagePath: string): string {
  const parts = pagePath.split("/").filter((p) => p !== "");
  let name = parts.at(-1) ?? "";
  if (name.toLowerCase() === "index") name = parts.at(-2) ?? "Home";
  return name
    .replace(/[-_]+/g, " ")
    .trim()
    .replace(/\b\p{Ll}/gu, (c) => c.toUpperCase());
}
