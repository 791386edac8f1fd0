import { createHash } from "node:crypto";
import type { Skill } from "../skills.js";
import { type DocsContext, readerStateOf } from "./docs-context.js";

/** A skill as discovery documents publish it: a URL-safe name, its text and the text's digest. */
export interface PublishedSkill {
  /** Agent Skills name rules (1-64 of `a-z0-9-`, no leading, trailing or double hyphen), unique in the list. */
  readonly name: string;
  readonly description: string;
  /** The MCP resource it also is (`docs://<site>/<path>`). */
  readonly uri: string;
  readonly text: string;
  /** Hex SHA-256 of `text` as UTF-8: what a client checks the file it fetched against. */
  readonly sha256: string;
}

const MAX_NAME = 64;

/**
 * The skills the context's reader may read, as discovery publishes them: exactly the skills MCP
 * lists as resources for that reader (a restricted skill file is never among them), in the same
 * order, each under a name a URL and the Agent Skills rules accept.
 */
export function publishedSkills(context: DocsContext): PublishedSkill[] {
  const taken = new Set<string>();
  return readerStateOf(context).skills.map((skill) => {
    const name = uniqueName(skillName(skill), taken);
    taken.add(name);
    return { name, description: skill.description, uri: skill.uri, text: skill.file.text, sha256: createHash("sha256").update(skill.file.text, "utf8").digest("hex") };
  });
}

/** `Nimbus_Storage` -> `nimbus-storage`; a name with nothing usable is `skill`. */
function skillName(skill: Skill): string {
  const name = skill.name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_NAME)
    .replace(/^-+|-+$/g, "");
  return name === "" ? "skill" : name;
}

/** The name, or `name-2`, `name-3`... when an earlier skill has it (two folders may share a front-matter name). */
function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, MAX_NAME - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
