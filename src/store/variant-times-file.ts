import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { LIMITS } from "../limits.js";
import { isInsideFolder } from "./real-path.js";
import { homeDir, xdgBaseDir } from "./xdg.js";

type Env = Readonly<Record<string, string | undefined>>;

/** A scheme (`postgres://`): a state given as a URL has no folder of ours. */
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Why the variant times file could not be read or written. */
export class VariantTimesFileError extends Error {
  override readonly name = "VariantTimesFileError";
}

/**
 * Where the times of each reader class of `root`'s files with restricted parts are kept across
 * starts (`RememberedTimes`), one file per docs root (named by a hash of its path as given: a
 * deploy that retargets a `current` link keeps its memory, whose hashes of each class's bytes
 * say what still holds): in the folder `--state` (else `SVC_STATE_URL`) names, `variant-times/`;
 * else (the default folder, or a PostgreSQL state, which has no folder) in the user's state home,
 * `$XDG_STATE_HOME/svc-mcp/.variant-times/`, beside `.site-names/` and for the same reason: the
 * default state folder is named by the site's name, read by the load this file must come before.
 * Undefined inside the docs folder, whatever was given: the file holds hashes of restricted
 * texts and when each changed, one `git add -A` away from being pushed with the docs.
 */
export function variantTimesFile(root: string, options: { readonly state?: string | undefined; readonly cwd: string; readonly env: Env }): string | undefined {
  const given = options.state !== undefined && options.state !== "" ? options.state : options.env.SVC_STATE_URL;
  const name = `${createHash("sha256").update(resolve(root)).digest("hex").slice(0, 32)}.json`;
  const file =
    given !== undefined && given !== "" && !URL_LIKE.test(given)
      ? join(resolve(options.cwd, given), "variant-times", name)
      : join(xdgBaseDir(options.env, "XDG_STATE_HOME") ?? join(homeDir(options.env), ".local", "state"), "svc-mcp", ".variant-times", name);
  return isInsideFolder(file, root) ? undefined : file;
}

/**
 * The file's text; undefined when there is none. `VariantTimesFileError` when it is there but is
 * not a regular file of at most `LIMITS.variantTimes.maxBytes` (opened without following a link
 * or waiting on a pipe: a restore can make either) or cannot be read.
 */
export function readVariantTimesFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new VariantTimesFileError(code === "ELOOP" ? "a link" : (code ?? (error as Error).message));
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new VariantTimesFileError("not a regular file");
    if (stat.size > LIMITS.variantTimes.maxBytes) throw new VariantTimesFileError(`${stat.size} bytes, more than ${LIMITS.variantTimes.maxBytes}`);
    return readFileSync(fd, "utf8");
  } catch (error) {
    if (error instanceof VariantTimesFileError) throw error;
    throw new VariantTimesFileError((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** Write `text` whole (a temp file renamed over the old one: a reader never sees half), mode 0600 in a 0700 folder. */
export function writeVariantTimesFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, text, { mode: 0o600, flag: "wx" });
    // The mode is the umask's otherwise.
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    // The code and the call, not Node's message: that names the temp file, new at each write,
    // and the caller says a failure once.
    const { code, syscall } = error as NodeJS.ErrnoException;
    throw new VariantTimesFileError(code !== undefined ? `${code} on ${syscall ?? "write"}` : (error as Error).message);
  }
}

/**
 * Read the file, and write what `update` makes of its text (undefined: its text when missing,
 * unreadable or damaged; `update` returns undefined to leave it), with no other process's update
 * between: the `--workers` processes of one server each write what they know, merged with the
 * others' (`RememberedTimes.merge`), and two read-merge-write turns at once would lose one.
 * Locked by a file made exclusively beside it (`<file>.lock`, 0600), waited for up to
 * `LIMITS.variantTimes.lockWaitMs`; one older than `lockStaleMs` was left by a killed process.
 * `VariantTimesFileError` when the lock is not had or the write fails.
 */
export function updateVariantTimesFile(file: string, update: (text: string | undefined) => string | undefined): void {
  const lock = `${file}.lock`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    const { code, syscall } = error as NodeJS.ErrnoException;
    throw new VariantTimesFileError(code !== undefined ? `${code} on ${syscall ?? "mkdir"}` : (error as Error).message);
  }
  acquire(lock);
  try {
    let text: string | undefined;
    try {
      text = readVariantTimesFile(file);
    } catch {
      // Damaged or not a file: written anew (it was said at the start).
      text = undefined;
    }
    const next = update(text);
    if (next !== undefined) writeVariantTimesFile(file, next);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** A tick of the wait for the lock: a blocking sleep (the write is synchronous, and short). */
const TICK = new Int32Array(new SharedArrayBuffer(4));

function acquire(lock: string): void {
  const until = Date.now() + LIMITS.variantTimes.lockWaitMs;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw new VariantTimesFileError(`${code ?? (error as Error).message} on the lock`);
    }
    let age: number | undefined;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      // Gone meanwhile: try again.
      continue;
    }
    if (age > LIMITS.variantTimes.lockStaleMs) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > until) throw new VariantTimesFileError(`locked by another process (${lock})`);
    Atomics.wait(TICK, 0, 0, 10);
  }
}
