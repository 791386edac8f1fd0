import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isInsideFolder, realPath } from "./real-path.js";
import { homeDir, xdgBaseDir } from "./xdg.js";

/**
 * The name each docs folder was last served under, kept in the user's state home
 * (`$XDG_STATE_HOME/svc-mcp/.site-names/<hash of the folder's real path>`; the dot keeps it apart
 * from every project's state folder, whose ID never starts with one). Why (adversary round 38,
 * F1): the docs.json `name` names the project, and so its default state folder and its tools; a
 * docs.json whose name cannot be read (removed, empty, not a string, a file that does not parse)
 * made a restart take the folder's name: a new, empty state (auth public, MCP enabled), the site's
 * accounts and settings left behind, pages meant for signed-in readers open to anyone. With the
 * name kept here, such a start serves under the name it had.
 *
 * A memory aid, never a condition: a folder it cannot read or write is as if empty.
 */
type Env = Readonly<Record<string, string | undefined>>;

function fileOf(env: Env, root: string): string {
  const base = xdgBaseDir(env, "XDG_STATE_HOME") ?? join(homeDir(env), ".local", "state");
  const key = createHash("sha256").update(realPath(root)).digest("hex").slice(0, 32);
  return join(base, "svc-mcp", ".site-names", key);
}

/** The name `root` was last served under by a docs.json that named it, if known. */
export function knownSiteName(env: Env, root: string): string | undefined {
  try {
    const kept = JSON.parse(readSmallFile(fileOf(env, root))) as { root?: unknown; name?: unknown };
    return kept.root === realPath(root) && typeof kept.name === "string" && kept.name.trim() !== "" ? kept.name : undefined;
  } catch {
    return undefined;
  }
}

/** Keep `name` as `root`'s (when it changed): a file of its own, 0600, written whole. */
export function rememberSiteName(env: Env, root: string, name: string): void {
  const file = fileOf(env, root);
  // Never inside the docs folder, as the default state folder (`resolveStateLocation`): a state
  // home there is refused by every state command, and nothing may be written into it.
  if (isInsideFolder(file, root)) return;
  if (knownSiteName(env, root) === name) return;
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, `${JSON.stringify({ root: realPath(root), name })}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** A regular file's text, never waiting on a pipe nor following a link (a tar restore makes
 *  either: adversary round 37 F2 hung starts on a FIFO in the cache folder). */
function readSmallFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > 64 * 1024) throw new Error("not a small regular file");
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}
