import type { PublishedSkill } from "../../engine/use-cases/published-skills.js";
import type { BridgeUrls } from "../urls.js";

/** The discovery format's schema (Agent Skills discovery 0.2.0). */
export const AGENT_SKILLS_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

export interface AgentSkillsIndex {
  readonly $schema: string;
  readonly skills: readonly { name: string; type: "skill-md"; description: string; url: string; digest: string }[];
}

/**
 * `/.well-known/agent-skills/index.json` for one reader: each skill they may read, with the URL of
 * its `SKILL.md` and the SHA-256 of exactly the bytes that URL serves them.
 */
export function agentSkillsIndex(skills: readonly PublishedSkill[], urls: BridgeUrls): AgentSkillsIndex {
  return {
    $schema: AGENT_SKILLS_SCHEMA,
    skills: skills.map((s) => ({ name: s.name, type: "skill-md", description: s.description, url: urls.agentSkill(s.name), digest: `sha256:${s.sha256}` })),
  };
}
