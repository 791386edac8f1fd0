import { GetSkillRequestParamsSchema, ListSkillsRequestParamsSchema, SKILLS_EXTENSION_ID, SKILLS_GET_METHOD, SKILLS_LIST_METHOD, type Skill as SkillEntry } from "@modelcontextprotocol/core/ext/skills";
import type { ReadResourceResult, Server, ServerContext } from "@modelcontextprotocol/server";
import { skillEntry } from "@modelcontextprotocol/server/ext/skills";
import { dump as dumpYaml } from "js-yaml";
import { parseFrontMatter } from "../config/frontmatter.js";
import type { SiteView } from "../vfs/view.js";
import type { ReaderState } from "../engine/runtime.js";
import type { DocsContext } from "../engine/use-cases/docs-context.js";
import { type PublishedSkill, publishedSkills } from "../engine/use-cases/published-skills.js";
import { inputText, invalidParams } from "./issues.js";
import { STATELESS_PROTOCOL_VERSIONS } from "./protocol-versions.js";
import { RESULT_TTL_MS } from "./provenance.js";

export { SKILLS_EXTENSION_ID };

/** Where the extension's resources live: `skill://<name>/SKILL.md` and its files beside it. */
const SKILL_SCHEME = "skill://";
/** SEP-2640's publication limit per skill: past it a skill keeps its SKILL.md only. */
const MAX_SKILL_FILES = 512;

/** One reader's skills as the extension serves them: the entries, and each file's text by URI. */
export interface ReaderSkills {
  readonly entries: readonly SkillEntry[];
  readonly files: ReadonlyMap<string, { readonly text: string; readonly mimeType: string }>;
}

/** Written once per reader state (a reload or another reader makes a new one): digests are of these exact bytes. */
const BY_STATE = new WeakMap<ReaderState, Promise<ReaderSkills>>();

/**
 * The reader's skills under the Skills extension (SEP-2640): exactly the skills `resources/list`
 * gives them as `docs://` resources (the same `publishedSkills` the Agent Skills index names), each
 * at `skill://<name>/SKILL.md`. A skill in a folder of its own (`skills/<name>/SKILL.md`) brings the
 * files beside it the reader sees; one at the root is its SKILL.md alone (its folder is the site).
 * The SKILL.md is the file's bytes where its front matter already has this `name` and a
 * `description`; otherwise its front matter is written again with them (the extension asks that
 * the name in the URI be the file's own, and Agent Skills names are `a-z0-9-`).
 */
export function readerSkills(context: DocsContext, state: ReaderState): Promise<ReaderSkills> {
  let known = BY_STATE.get(state);
  if (known === undefined) {
    known = writeSkills(publishedSkills(context), state);
    BY_STATE.set(state, known);
  }
  return known;
}

async function writeSkills(published: readonly PublishedSkill[], state: ReaderState): Promise<ReaderSkills> {
  const entries: SkillEntry[] = [];
  const files = new Map<string, { text: string; mimeType: string }>();
  for (const [i, skill] of published.entries()) {
    const file = state.skills[i]?.file;
    if (file === undefined) continue;
    const own = { "SKILL.md": skillMarkdown(skill) };
    const whole = { ...supportingFiles(state.view, file.path), ...own };
    // A supporting file the SDK refuses (a name it cannot carry) leaves the skill its SKILL.md alone.
    let served: Record<string, string> = whole;
    let entry = await entryOf(skill.name, whole);
    if (entry === undefined) {
      served = own;
      entry = await entryOf(skill.name, own);
    }
    if (entry === undefined) continue;
    entries.push(entry);
    for (const [path, text] of Object.entries(served)) {
      files.set(`${SKILL_SCHEME}${skill.name}/${path}`, { text, mimeType: path.endsWith(".md") ? "text/markdown" : "text/plain" });
    }
  }
  return { entries, files };
}

/** The SDK's entry (digests, sizes, front matter, its rule checks), or undefined for a skill it refuses. */
async function entryOf(name: string, files: Record<string, string>): Promise<SkillEntry | undefined> {
  try {
    return await skillEntry(name, files);
  } catch {
    return undefined;
  }
}

/** The SKILL.md served: the file itself when its front matter names it so, else with `name` and `description` written in. */
function skillMarkdown(skill: PublishedSkill): string {
  const parsed = parseFrontMatter(skill.text);
  const data = parsed.ok ? parsed.data : {};
  if (parsed.ok && data.name === skill.name && typeof data.description === "string" && data.description.trim() !== "") return skill.text;
  // The body after the front matter, wherever it opens (after a byte order mark or another lead: `frontMatterLead`).
  const body = parsed.ok ? parsed.body : skill.text;
  const frontMatter = { ...data, name: skill.name, description: typeof data.description === "string" && data.description.trim() !== "" ? data.description : skill.description };
  return `---\n${dumpYaml(frontMatter, { lineWidth: -1 })}---\n${body}`;
}

/** The files the reader sees in a skill's own folder (`/skills/<name>/…`), by path in it; none for a skill at the root. */
function supportingFiles(view: SiteView, skillPath: string): Record<string, string> {
  const folder = skillPath.slice(0, skillPath.lastIndexOf("/") + 1);
  if (folder === "/") return {};
  const files: Record<string, string> = {};
  let count = 1;
  for (const f of view.files) {
    if (!f.path.startsWith(folder) || f.path === skillPath) continue;
    const rel = f.path.slice(folder.length);
    if (rel.toUpperCase() === "SKILL.MD") continue;
    if (++count > MAX_SKILL_FILES) return {};
    files[rel] = f.text;
  }
  return files;
}

/** The request's context and its reader's state, as the server's handlers find them. */
export type ReaderOf = (ctx: ServerContext) => { readonly state: ReaderState; readonly docs: DocsContext };

/**
 * `skills/list` and `skills/get` on a server, each answered for the request's reader. Declared in
 * `capabilities.extensions` by the server (a client that does not implement the extension ignores
 * the declaration, never calls these, and sees the same `resources/list` as before: the
 * `skill://` resources are read by URI, not listed). A restricted skill is answered like one that
 * does not exist.
 */
export function serveSkills(server: Server, readerOf: ReaderOf): void {
  // 2026-07-28 results carry the list hints (the extension requires them, as on `resources/list`);
  // 2025 results have no such fields. Per reader: `private`.
  const hints = () => (STATELESS_PROTOCOL_VERSIONS.includes(server.getNegotiatedProtocolVersion() ?? "") ? { ttlMs: RESULT_TTL_MS, cacheScope: "private" as const } : {});
  server.setRequestHandler(SKILLS_LIST_METHOD, { params: ListSkillsRequestParamsSchema }, async (params, ctx) => {
    // One page: we never hand out a cursor.
    if (params.cursor !== undefined) throw invalidParams(`Invalid params for skills/list: cursor: not a cursor of this server (it lists everything at once and gives none) (got ${inputText(params.cursor)})`);
    const { state, docs } = readerOf(ctx);
    return { skills: [...(await readerSkills(docs, state)).entries], ...hints() };
  });
  server.setRequestHandler(SKILLS_GET_METHOD, { params: GetSkillRequestParamsSchema }, async (params, ctx) => {
    const { state, docs } = readerOf(ctx);
    const skill = (await readerSkills(docs, state)).entries.find((s) => s.uri === params.uri);
    if (skill === undefined) throw invalidParams(`No skill is served at ${params.uri}`);
    return { skill, ...hints() };
  });
}

/** `resources/read` of a `skill://` file the reader may read; undefined for any other URI (the caller answers "not found"). */
export async function readSkillFile(uri: string, docs: DocsContext, state: ReaderState): Promise<ReadResourceResult | undefined> {
  if (!uri.startsWith(SKILL_SCHEME)) return undefined;
  const file = (await readerSkills(docs, state)).files.get(uri);
  return file === undefined ? undefined : { contents: [{ uri, mimeType: file.mimeType, text: file.text }] };
}
