import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { StateLocationError } from "./errors.js";
import { isInsideFolder, realPath } from "./real-path.js";
import { resolveStateDir } from "./state-dir.js";

/**
 * Where a project's service state lives: a folder of SQLite files (the embedded default), or a
 * PostgreSQL database that several processes and machines share. Only `src/store` looks inside;
 * everything above passes it to `openStores` and shows `label`.
 */
export type StateLocation =
  | { readonly kind: "folder"; readonly path: string; readonly label: string }
  | { readonly kind: "postgres"; readonly url: string; readonly label: string };

/** A value with a scheme (`xyz://`): meant as a URL, never as a folder name. */
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const POSTGRES_SCHEMES = new Set(["postgres:", "postgresql:"]);

/**
 * The state location from `--state` (else `SVC_STATE_URL`, else the default folder
 * `$XDG_STATE_HOME/svc-mcp/<projectId>`, `~/.local/state/svc-mcp/<projectId>` without it).
 * Throws `StateLocationError` for a URL we do not support, and for a default folder inside
 * `docsRoot` (the docs folder, when the command has one): its files hold password hashes and
 * tokens, one `git add -A` away from being pushed with the docs (adversary round 11, F5). A folder
 * the user named there is theirs to choose, but `warn` is told. Folders are otherwise checked by
 * `checkStateOption`.
 */
export function resolveStateLocation(
  projectId: string,
  options: {
    state?: string | undefined;
    cwd: string;
    env: Readonly<Record<string, string | undefined>>;
    docsRoot?: string | undefined;
    warn?: (message: string) => void;
  },
): StateLocation {
  const [source, given] = options.state !== undefined && options.state !== "" ? ["--state", options.state] : ["SVC_STATE_URL", options.env.SVC_STATE_URL];
  const { docsRoot } = options;
  if (given !== undefined && given !== "") {
    let location: StateLocation;
    try {
      location = parseStateLocation(given, options.cwd);
    } catch (error) {
      if (error instanceof StateLocationError) throw new StateLocationError(`${source} ${redactUrl(given)}: ${error.message}`);
      throw error;
    }
    if (location.kind === "folder" && docsRoot !== undefined && isInsideFolder(location.path, docsRoot)) {
      options.warn?.(`the state folder ${where(location.path)} (${source}) is inside the docs folder ${docsRoot}: keep it out of version control, its files hold password hashes and tokens`);
    }
    return location;
  }
  const path = resolveStateDir(projectId, { cwd: options.cwd, env: options.env });
  if (docsRoot !== undefined && isInsideFolder(path, docsRoot)) {
    throw new StateLocationError(
      `the default state folder ${where(path)} is inside the docs folder ${docsRoot}, where its files (password hashes, tokens) could be committed with the docs; ` +
        "choose a folder outside it with --state DIR (or SVC_STATE_URL), or set XDG_STATE_HOME to one",
    );
  }
  return { kind: "folder", path, label: path };
}

/** A folder as written, and where it really is when a link leads elsewhere. */
function where(path: string): string {
  const real = realPath(path);
  return real === path ? path : `${path} (through a link: ${real})`;
}

/**
 * Whether the state named by `--state` (else `SVC_STATE_URL`) is kept in SQLite (a folder, the
 * default) rather than a database server, known before the project is: a value that does not
 * parse answers false, its error left to `resolveStateLocation`.
 */
export function stateInSqlite(state: string | undefined, cwd: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const given = state !== undefined && state !== "" ? state : env.SVC_STATE_URL;
  if (given === undefined || given === "") return true;
  try {
    return parseStateLocation(given, cwd).kind === "folder";
  } catch (error) {
    if (error instanceof StateLocationError) return false;
    throw error;
  }
}

/** A folder (relative to `cwd`) or a `postgres://` / `postgresql://` URL. */
export function parseStateLocation(value: string, cwd: string): StateLocation {
  if (!URL_LIKE.test(value)) {
    const path = resolve(cwd, value);
    return { kind: "folder", path, label: path };
  }
  const scheme = value.slice(0, value.indexOf(":") + 1).toLowerCase();
  if (!POSTGRES_SCHEMES.has(scheme)) {
    throw new StateLocationError(`unsupported state URL scheme "${scheme}//"; give a folder, or a PostgreSQL URL such as postgres://user@host:5432/db`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StateLocationError("not a valid URL; a PostgreSQL URL looks like postgres://user@host:5432/db");
  }
  if (url.hostname === "" || url.pathname.length <= 1) {
    throw new StateLocationError("a PostgreSQL URL names a host and a database: postgres://user@host:5432/db");
  }
  return { kind: "postgres", url: value, label: redactUrl(value) };
}

/**
 * `--state` given on the command line: a folder must exist (a typo would start a second, empty
 * state beside the real one; the default folder is created when first needed), a URL must be
 * one we support. Returns an error message naming what is wrong, or undefined.
 */
export async function checkStateOption(value: string, cwd: string): Promise<string | undefined> {
  let location: StateLocation;
  try {
    location = parseStateLocation(value, cwd);
  } catch (error) {
    if (error instanceof StateLocationError) return error.message;
    throw error;
  }
  if (location.kind !== "folder") return undefined;
  try {
    if (!(await stat(location.path)).isDirectory()) return "not a folder";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return (error as Error).message;
    return "no such folder (create it first, or leave --state out for the default state folder)";
  }
  return undefined;
}

/** The URL without its password, for logs and messages. */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return value.replace(/:[^:@/]*@/, ":***@");
  }
}
