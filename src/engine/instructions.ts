import type { SiteOutline } from "../vfs/outline.js";
import type { Site } from "../vfs/site.js";
import { productName, type ToolNames } from "./tool-names.js";

/**
 * The MCP server instructions for one reader: what the site covers (the sections and versions
 * of their outline, nothing they may not read) and how to use the tools on it.
 */
export function serverInstructions(site: Site, names: ToolNames, baseUrl: string, outline: SiteOutline): string {
  const { config } = site;
  const sections = outline.sections.slice(0, 12);
  const lines = [
    // Descriptions usually end with a period already.
    `Documentation for ${productName(config.name)}${config.description !== undefined ? `: ${config.description.replace(/[.\s]+$/, "")}` : ""}.`,
    sections.length > 0 ? `It covers: ${sections.join(", ")}.` : "",
    outline.versions.length > 0 ? `Versions: ${versionList(outline)}.` : "",
    `Use ${names.search} to find pages for a question, then ${names.filesystem} to read them (pages are files: /a/b.mdx is the page at ${baseUrl}/a/b).`,
    "Cite page links in answers.",
  ];
  return lines.filter((l) => l !== "").join(" ");
}

/** `v2, v1 (default v2)`: the versions a reader is shown, as instructions, skill and tools say them. */
export function versionList(outline: SiteOutline): string {
  const { versions, defaultVersion } = outline;
  return `${versions.join(", ")}${versions.length > 1 && defaultVersion !== undefined ? ` (default ${defaultVersion})` : ""}`;
}
