import { existsSync } from "node:fs";
import { join } from "node:path";
import { DOCS_JSON, loadDocsJson } from "../config/load-docs-json.js";
import { MINT_JSON } from "../config/mint-json/upgrade-mint-json.js";
import { terminalText } from "../config/visible-text.js";
import { StateLocationError } from "../store/errors.js";
import { resolveStateLocation, type StateLocation } from "../store/location.js";
import { knownSiteName } from "../store/site-names.js";
import { legacyProjectIdFromName, projectIdFromName, resolveStateDir } from "../store/state-dir.js";
import { openStores, type OpenStoresOptions, type Stores } from "../store/stores.js";
import { CliError, type CliIO } from "./io.js";
import { resolveDir } from "./options.js";

/** The project a command works on, and where its state lives. */
export interface Project {
  readonly id: string;
  /** Where its state lives (`--state`, `SVC_STATE_URL`, or the default folder). */
  readonly state: StateLocation;
  /** How the ID was chosen, for the line `serve` prints at start. */
  readonly from: "--project-id" | "site name";
  /** The docs folder and the name its docs.json gives, for a state command to keep once it has
   *  used the state (`rememberSiteName`): not before, so a command that fails creates nothing. */
  readonly named?: { readonly root: string; readonly name: string };
}

/** Flags every state-using command shares (`withDir` and `withState`). */
export interface ProjectArgs {
  readonly dir?: string | undefined;
  readonly state?: string | undefined;
  readonly "project-id"?: string | undefined;
}

/** `--project-id`: it appears in URLs and names the default state folder, so a safe path segment. */
const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Resolve `--project-id` (default: derived from the docs.json `name`, else the folder name) and
 * the state folder, never by default inside the docs folder (`resolveStateLocation`). `serve`
 * passes the name of the site it loaded; other commands read docs.json.
 */
export async function resolveProject(io: CliIO, args: ProjectArgs, siteName?: string): Promise<Project> {
  const flag = args["project-id"];
  let id: string;
  let from: Project["from"];
  let legacy: string | undefined;
  let named: Project["named"];
  if (flag !== undefined) {
    if (!PROJECT_ID.test(flag)) {
      throw new CliError(`--project-id must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit; got ${JSON.stringify(flag)}`, 2);
    }
    id = flag;
    from = "--project-id";
  } else {
    let name = siteName;
    if (name === undefined) {
      const read = await siteNameOf(io, args.dir);
      name = read.name;
      if (read.named) named = { root: resolveDir(io, args.dir), name };
    }
    id = projectIdFromName(name);
    from = "site name";
    legacy = legacyProjectIdFromName(name);
  }
  const warn = (message: string): void => io.stderr(`svc-mcp: warning: ${terminalText(message)}\n`);
  try {
    const state = resolveStateLocation(id, { state: args.state, cwd: io.cwd, env: io.env, docsRoot: docsFolder(io, args, siteName), warn });
    // A name without an ASCII form had its state under a shared ID until 2026-12-02: say where,
    // never move it (it may be another such site's).
    if (legacy !== undefined && legacy !== id && state.kind === "folder" && !existsSync(state.path)) {
      const before = resolveStateDir(legacy, { cwd: io.cwd, env: io.env });
      if (existsSync(before)) warn(`this site's state is now kept in ${state.path}; before, every site whose name has no ASCII spelling kept it in ${before}: if that is this site's, move it there`);
    }
    return { id, from, state, ...(named !== undefined ? { named } : {}) };
  } catch (error) {
    if (error instanceof StateLocationError) throw new CliError(error.message, 2);
    throw error;
  }
}

/** `project "nimbus-storage" (from the site name; set --project-id to change it); state in /x`. */
export function describeProject(p: Project): string {
  const how = p.from === "--project-id" ? "from --project-id" : "from the site name; set --project-id to change it";
  return `project "${p.id}" (${how}); state in ${p.state.label}`;
}

/** The project's stores (opened as used); the caller closes them. */
export function projectStores(p: Project, options: OpenStoresOptions = {}): Stores {
  return openStores(p.state, options);
}

/**
 * The docs folder of the command: the folder `serve` loaded, else `--dir` (default: the current
 * folder) when it holds a docs.json (or a mint.json). A state command run elsewhere with `--project-id` (from the
 * home folder, which holds `~/.local/state`) has none.
 */
function docsFolder(io: CliIO, args: ProjectArgs, siteName: string | undefined): string | undefined {
  const root = resolveDir(io, args.dir);
  return siteName !== undefined || existsSync(join(root, DOCS_JSON)) || existsSync(join(root, MINT_JSON)) ? root : undefined;
}

async function siteNameOf(io: CliIO, dir: string | undefined): Promise<{ name: string; named: boolean }> {
  const root = resolveDir(io, dir);
  const docs = await loadDocsJson(root);
  if (docs.config === undefined) {
    throw new CliError(`cannot read the site name from ${root}/docs.json (${docs.diagnostics.map((d) => d.message).join("; ")}); pass --project-id`, 1);
  }
  // The name the folder was last served under stands in for one docs.json does not give (site-names.ts).
  if (docs.config.named !== true) return { name: knownSiteName(io.env, root) ?? docs.config.name, named: false };
  return { name: docs.config.name, named: true };
}
