import { randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isInsideFolder, realPath } from "../store/real-path.js";

/** A config file we will not edit (outside the project, not a file, unparsable...); it was left unchanged. */
export class EditorConfigError extends Error {}

/**
 * An editor config file and where it really is. It is read and written there: through a link the
 * link's target is edited and the link kept (a dotfiles manager's link in the home folder goes on
 * working), never replaced by a file.
 */
export interface ConfigFile {
  /** The file as named: `<project>/.vscode/mcp.json`, `~/.claude.json`. */
  readonly file: string;
  /** Its real path, where it is read and written. */
  readonly real: string;
  /** The link's target when the file itself is a link, to say so. */
  readonly linkTo: string | undefined;
}

/**
 * Where an editor config is, refused when it leads outside `inside` (the project folder; none for
 * the user-wide config): a repository's `.vscode/mcp.json` linked to a credentials file outside it
 * had that file read and its content written into the repository (adversary round 11, F6). The
 * real paths on both sides are compared, so a link at any depth (`.vscode` itself) counts, and a
 * link that leads nowhere counts where it leads (a write would create the file there).
 */
export function locateConfig(file: string, inside: string | undefined): ConfigFile {
  const real = realPath(file);
  const asNamed = join(realPath(dirname(file)), basename(file));
  const linkTo = real !== asNamed ? real : undefined;
  if (inside !== undefined && !isInsideFolder(real, inside)) {
    const how = linkTo !== undefined ? `is a link to ${real}` : `leads to ${real} through a linked folder`;
    throw new EditorConfigError(`${file} ${how}, outside ${inside}: svc-mcp neither reads nor writes a project's editor config outside the project; it was left unchanged`);
  }
  return { file, real, linkTo };
}

/** The config's text, undefined when there is none yet. Only a regular file is read (a pipe would hang). */
export function readConfig(config: ConfigFile): string | undefined {
  let fd: number;
  try {
    // O_NOFOLLOW: the real path has no link in its last part, and none was put there since.
    fd = openSync(config.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new EditorConfigError(`cannot read ${config.file}: ${(error as Error).message}; it was left unchanged`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new EditorConfigError(`${config.file} is not a regular file; it was left unchanged`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Replace the config's text atomically at its real path: a new file (created, never opened
 * through a link) with the old file's mode, flushed, then renamed over it, so that a crash leaves
 * the old config or the new one, and a config holding tokens (`~/.claude.json`) stays private.
 */
export function writeConfig(config: ConfigFile, text: string): void {
  const dir = dirname(config.real);
  mkdirSync(dir, { recursive: true });
  let mode: number | undefined;
  try {
    const st = lstatSync(config.real);
    if (st.isFile()) mode = st.mode & 0o777;
  } catch {
    mode = undefined;
  }
  const tmp = join(dir, `.${basename(config.real)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o666);
  try {
    // The mode given to open is cut by the umask; the old file's is kept as it was.
    if (mode !== undefined) fchmodSync(fd, mode);
    writeFileSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, config.real);
}
