import type { Site } from "../vfs/site.js";
import type { SiteFile } from "../vfs/site-file.js";
import { pagePathOf } from "../vfs/site.js";
import { pageOfFile } from "../vfs/page-routes.js";
import { makeFile } from "../vfs/site-file.js";
import type { SiteOutline } from "../vfs/outline.js";
import type { SiteView } from "../vfs/view.js";
import { versionList } from "./instructions.js";
import { productName, type ToolNames } from "./tool-names.js";

/** A skill file exposed as an MCP resource. */
export interface Skill {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly file: SiteFile;
  readonly generated: boolean;
}

const SKILL_FILE_RE = /(^|\/)skill\.md$/i;

/** The generated skill's path, used only when the repository has no skill file of its own. */
export const GENERATED_SKILL_PATH = "/skill.md";

/** Whether a file is a skill: a `skill.md` / `SKILL.md` anywhere (root, `skills/<name>/SKILL.md`). */
export function isSkillFile(path: string): boolean {
  return SKILL_FILE_RE.test(path);
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** A stable resource URI for a skill file: `docs://<site>/skills/<path>`. */
export function skillUri(siteSlug: string, path: string): string {
  return `docs://${siteSlug}${path.startsWith("/") ? "" : "/"}${path}`;
}

/** The skills one reader may see (the view already hides restricted skill files). */
export function listSkills(view: SiteView, siteSlug: string): Skill[] {
  const skills: Skill[] = [];
  for (const file of view.files) {
    if (!isSkillFile(file.path)) continue;
    // This file's own front matter (a `skill.mdx` beside it is another page of the same path).
    const fm = pageOfFile(view.site, pagePathOf(file.path), file.path)?.frontMatter ?? {};
    const atRoot = file.path.lastIndexOf("/") === 0;
    const folder = file.path.split("/").at(-2);
    const name = text(fm.name) ?? (atRoot || folder === undefined ? siteSlug : folder);
    const description = text(fm.description) ?? `Skill file ${file.path.slice(1)}`;
    skills.push({ uri: skillUri(siteSlug, file.path), name, description, file, generated: false });
  }
  return skills;
}

/**
 * The skill a site without any skill file gets: what the site covers (its top navigation
 * sections) and how to use the two tools on it. Written for one reader: it names only the
 * sections and versions in their outline, never pages; `mtime` is the newest of their files.
 */
export function generatedSkill(site: Site, names: ToolNames, outline: SiteOutline, mtime: Date): Skill {
  const lines: string[] = [];
  const name = productName(site.config.name);
  lines.push("---");
  lines.push(`name: ${names.slug}`);
  lines.push(`description: Answer questions about ${name} from its documentation, using the ${names.search} and ${names.filesystem} tools.`);
  lines.push("---", "", `# ${name} documentation`, "");
  if (site.config.description !== undefined) lines.push(site.config.description, "");
  if (outline.sections.length > 0) {
    lines.push("## What the documentation covers", "");
    for (const title of outline.sections) lines.push(`- ${title}`);
    lines.push("");
  }
  if (outline.versions.length > 0) {
    lines.push(`Versions: ${versionList(outline)}. Pass \`version\` to ${names.search} to search one.`, "");
  }
  lines.push(
    "## How to work with these docs",
    "",
    `1. Start with \`${names.search}\` for a question in plain words; each hit has a title, a link and a snippet.`,
    `2. Read pages with \`${names.filesystem}\`. It is a read-only shell over the docs: every page is a file, the link \`/a/b\` is the file \`/a/b.mdx\`.`,
    "   - Orient yourself: `tree / -L 2`, `ls /guides`.",
    "   - Find text: `rg -il \"rate limit\" /`, `rg -n -C 3 \"webhook\" /api`.",
    "   - Read several pages in one call: `head -80 /a.mdx /b.mdx`, `cat /a.mdx /b.mdx`.",
    "   - Read one section: `sed -n '/^## Setup/,/^## /p' /guides/install.mdx`.",
    "3. Cite the page links you used.",
    "",
  );
  const file = makeFile(GENERATED_SKILL_PATH, lines.join("\n"), {}, mtime);
  return {
    uri: skillUri(names.slug, GENERATED_SKILL_PATH),
    name: names.slug,
    description: `How to use the ${name} documentation tools (generated)`,
    file,
    generated: true,
  };
}
