import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isInsideFolder } from "./real-path.js";
import { homeDir, xdgBaseDir } from "./xdg.js";

type Env = Readonly<Record<string, string | undefined>>;

/** Bytes of a key file; a key given in the environment is at least this many characters. */
export const CACHE_KEY_BYTES = 32;

/**
 * What vouches for a cache file: an HMAC-SHA256 under a key kept apart from the caches
 * (docs/security.md, "What is refused"). A checksum proves a file intact, not that svc-mcp
 * wrote it: whoever can put files in the cache folder (a CI job restoring `~/.cache` from a
 * fork's run) could write a site cache that serves text not in the docs, or a code cache that
 * runs as svc-mcp. The key is in the state folder, which caches are not restored into, so a
 * copied or restored cache fails its check and is rebuilt.
 */
export interface CacheSeal {
  /** The seal of the bytes given (in order, as if one). */
  seal(...parts: readonly Uint8Array[]): Buffer;
  /** Whether `mac` seals those bytes, compared in constant time. */
  verify(mac: Uint8Array, ...parts: readonly Uint8Array[]): boolean;
}

/** The seal of a key's bytes. */
export function sealWith(key: Uint8Array): CacheSeal {
  const seal = (...parts: readonly Uint8Array[]): Buffer => {
    const hmac = createHmac("sha256", key);
    for (const part of parts) hmac.update(part);
    return hmac.digest();
  };
  return {
    seal,
    verify: (mac, ...parts) => {
      const want = seal(...parts);
      return mac.length === want.length && timingSafeEqual(mac, want);
    },
  };
}

/** Where the key file is: `$XDG_STATE_HOME/svc-mcp/cache-key` (default `~/.local/state/...`), one per user. */
export function cacheKeyFile(env: Env): string {
  return join(xdgBaseDir(env, "XDG_STATE_HOME") ?? join(homeDir(env), ".local", "state"), "svc-mcp", "cache-key");
}

/**
 * The caches' seal for this user, or why there can be none (then no cache is read or written):
 * `SVC_MCP_CACHE_KEY` when set (a CI secret: a fork's jobs do not get it, and a cache shared
 * between jobs needs one key), else the key file. The key file is read when a cache is checked
 * (none yet: no cache is this user's) and made when one is first written (32 random bytes, 0600
 * in a 0700 folder), so a command that writes no cache creates nothing. It is taken only when
 * plainly ours: a regular file (not a link) of this user that no one else may read, of exactly
 * 32 bytes, not inside the docs folder; a key that cannot be had makes each write fail with why.
 */
export function cacheSeal(env: Env, docsRoot?: string): CacheSeal | string {
  const given = env.SVC_MCP_CACHE_KEY;
  if (given !== undefined && given !== "") {
    if (given.length < CACHE_KEY_BYTES) return `SVC_MCP_CACHE_KEY is shorter than ${CACHE_KEY_BYTES} characters`;
    return sealWith(createHash("sha256").update("svc-mcp cache key\u0000").update(given).digest());
  }
  const file = cacheKeyFile(env);
  if (docsRoot !== undefined && isInsideFolder(file, docsRoot)) return `its key ${file} would be inside the docs folder (set XDG_STATE_HOME or SVC_MCP_CACHE_KEY)`;
  let known: CacheSeal | undefined;
  const keyed = (make: boolean): CacheSeal | string | undefined => {
    if (known !== undefined) return known;
    const key = readKey(file) ?? (make ? makeKey(file) : undefined);
    if (typeof key === "string" || key === undefined) return key;
    known = sealWith(key);
    return known;
  };
  return {
    seal: (...parts) => {
      const seal = keyed(true);
      if (typeof seal !== "object") throw new Error(seal ?? `cannot read its key ${file}`);
      return seal.seal(...parts);
    },
    verify: (mac, ...parts) => {
      const seal = keyed(false);
      return typeof seal === "object" && seal.verify(mac, ...parts);
    },
  };
}

/** The key in `file`, undefined when there is none yet, or why it is not taken. */
function readKey(file: string): Buffer | string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? undefined : `cannot read its key ${file} (${code === "ELOOP" ? "a link" : (code ?? (error as Error).message)})`;
  }
  try {
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) return `its key ${file} is not private to this user`;
    if (st.size !== CACHE_KEY_BYTES) return `its key ${file} is not ${CACHE_KEY_BYTES} bytes`;
    const key = Buffer.alloc(CACHE_KEY_BYTES);
    return readSync(fd, key, 0, CACHE_KEY_BYTES, 0) === CACHE_KEY_BYTES ? key : `its key ${file} cannot be read`;
  } catch (error) {
    return `cannot read its key ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  } finally {
    closeSync(fd);
  }
}

/**
 * A new key in `file`: written whole to a temp file, then linked into place, so that two
 * processes starting at once (`serve --http --workers 2`) never read half a key; the one whose
 * link loses reads the other's.
 */
function makeKey(file: string): Buffer | string {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(temp, randomBytes(CACHE_KEY_BYTES), { mode: 0o600, flag: "wx" });
    linkSync(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST") return `cannot keep its key ${file} (${code ?? (error as Error).message})`;
  } finally {
    rmSync(temp, { force: true });
  }
  return readKey(file) ?? `cannot read its key ${file}`;
}
