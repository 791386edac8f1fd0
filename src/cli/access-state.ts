import { existsSync } from "node:fs";
import { join } from "node:path";
import { STATE_DB_FILE, type SqliteStateStore, openStateStore } from "../store/state/sqlite-state-store.js";
import type { SiteSettings } from "../store/state/state-store.js";
import { type Project, type ProjectArgs, resolveProject } from "./project.js";
import type { CliIO } from "./io.js";

/**
 * Run `fn` with the project's access state (`<state dir>/access.db`: settings, redirect
 * domains, credentials, accounts, tokens), closing it afterwards. Safe while a server runs:
 * SQLite WAL lets both write, and the server reads current rows on every request.
 */
export async function withAccessState<T>(io: CliIO, args: ProjectArgs, fn: (state: SqliteStateStore, project: Project) => Promise<T>): Promise<T> {
  const project = await resolveProject(io, args);
  const state = openStateStore(project.stateDir);
  try {
    return await fn(state, project);
  } finally {
    await state.close();
  }
}

/** The stored settings without creating a state file (read-only commands leave no trace). */
export async function readSettings(project: Project): Promise<SiteSettings> {
  if (!existsSync(join(project.stateDir, STATE_DB_FILE))) return { authMode: "public", mcp: undefined };
  const state = openStateStore(project.stateDir);
  try {
    return await state.settings();
  } finally {
    await state.close();
  }
}
