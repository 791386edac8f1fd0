import type { FrontMatterData } from "./frontmatter.js";

/** The front matter keys the service acts on, read leniently from a page's front matter. */
export interface PageMeta {
  readonly title?: string;
  readonly description?: string;
  /** `noindex: true` leaves the page out of search (it stays readable in the filesystem). */
  readonly noindex: boolean;
  /** `openapi: "GET /users"` or `"spec.yaml GET /users"`: the page documents that operation. */
  readonly openapi?: string;
  /** `playground: auth | interactive | none`. */
  readonly playground?: string;
  /** User groups allowed to read the page; undefined when unrestricted. */
  readonly groups?: readonly string[];
  /** `public: true` keeps the page readable by anyone. */
  readonly public?: boolean;
}

/**
 * Read the typed keys. Wrongly typed values are dropped here rather than failing the page; a
 * restricted page must never become public by accident, so a `groups` value of the wrong type
 * is kept as an (unmatchable) restriction instead of being ignored.
 */
export function readPageMeta(data: FrontMatterData): PageMeta {
  const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);
  const title = str(data.title) ?? (typeof data.title === "number" ? String(data.title) : undefined);
  const description = str(data.description);
  const openapi = str(data.openapi);
  const playground = str(data.playground);
  const groups = readGroups(data.groups);
  return {
    noindex: data.noindex === true || data.noindex === "true",
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(openapi !== undefined ? { openapi } : {}),
    ...(playground !== undefined ? { playground } : {}),
    ...(groups !== undefined ? { groups } : {}),
    ...(data.public === true || data.public === "true" ? { public: true } : {}),
  };
}

/** A group that no reader can hold: restricts a page whose `groups` value is unreadable. */
export const UNMATCHABLE_GROUP = "\u0000invalid-groups";

function readGroups(value: unknown): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    const parts = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
    return parts.length > 0 ? parts : undefined;
  }
  if (Array.isArray(value)) {
    const groups = value.filter((g): g is string => typeof g === "string" && g.trim() !== "").map((g) => g.trim());
    if (groups.length === 0 && value.length === 0) return undefined;
    return groups.length > 0 ? groups : [UNMATCHABLE_GROUP];
  }
  return [UNMATCHABLE_GROUP];
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
