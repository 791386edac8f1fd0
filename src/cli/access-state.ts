import { rememberSiteName } from "../store/site-names.js";
import type { SiteSettings } from "../store/state/state-store.js";
import type { Refusal, StateOutcome } from "../engine/use-cases/outcome.js";
import type { StateContext } from "../engine/use-cases/state-context.js";
import { localContext } from "../vfs/request-context.js";
import { CliError, type CliIO } from "./io.js";
import { type Project, type ProjectArgs, projectStores, resolveProject } from "./project.js";

/**
 * Run `fn` with the context of a state command (the owner on their machine, the project's
 * stores, opened as the use case reaches them), closing the stores afterwards. Safe while
 * servers run: they read current rows on every request.
 */
export async function withStateContext<T>(io: CliIO, args: ProjectArgs, fn: (context: StateContext, project: Project) => Promise<T>): Promise<T> {
  const project = await resolveProject(io, args);
  const stores = projectStores(project);
  try {
    const value = await fn({ request: localContext(), stores }, project);
    // The state is in use: a start whose docs.json names no site keeps to it (site-names.ts).
    if (project.named !== undefined) rememberSiteName(io.env, project.named.root, project.named.name);
    return value;
  } finally {
    await stores.close();
  }
}

/**
 * A state use case's value, or the CLI error it means: its issues in the command's words
 * (`usage`; exit 2, a mistake in the command line), its refusal by its message and `hint`
 * (exit 1: the command was right, the state says no).
 */
export function commandValue<T, R extends Refusal, I extends { readonly message: string }>(
  outcome: StateOutcome<T, R, I>,
  usage: (issues: readonly I[]) => string = (issues) => issues.map((i) => i.message).join("; "),
  hint = "",
): T {
  if (outcome.ok) return outcome.value;
  if ("issues" in outcome) throw new CliError(usage(outcome.issues), 2);
  throw new CliError(`${outcome.refusal.message}${hint}`, 1);
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
