import type { SiteSettings, StateStore } from "../store/state/state-store.js";
import { type Project, type ProjectArgs, projectStores, resolveProject } from "./project.js";
import type { CliIO } from "./io.js";

/**
 * Run `fn` with the project's access state (settings, redirect domains, credentials, accounts,
 * tokens), closing it afterwards. Safe while servers run: they read current rows on every request.
 */
export async function withAccessState<T>(io: CliIO, args: ProjectArgs, fn: (state: StateStore, project: Project) => Promise<T>): Promise<T> {
  const project = await resolveProject(io, args);
  const stores = projectStores(project);
  try {
    return await fn(await stores.state(), project);
  } finally {
    await stores.close();
  }
}

/** The stored settings without creating a state file (read-only commands leave no trace). */
export async function readSettings(project: Project): Promise<SiteSettings> {
  const stores = projectStores(project);
  try {
    if (!stores.has("state")) return { authMode: "public", mcp: undefined };
    return await (await stores.state()).settings();
  } finally {
    await stores.close();
  }
}
