import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Links followed at most while resolving one path (as the kernel's ELOOP limit). */
const MAX_LINKS = 40;

/**
 * Where a path really is, also when it does not exist yet: its deepest existing part resolved
 * through links, the rest as written; a link that leads nowhere yet counts where it leads (a
 * folder created through it would be made there).
 */
export function realPath(path: string, links = 0): string {
  const rest: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      return join(realpathSync.native(at), ...rest.reverse());
    } catch {
      const target = linkTarget(at);
      if (target !== undefined && links < MAX_LINKS) return join(realPath(resolve(dirname(at), target), links + 1), ...rest.reverse());
      const up = dirname(at);
      if (up === at) return join(at, ...rest.reverse());
      rest.push(basename(at));
      at = up;
    }
  }
}

/**
 * Whether `path` is `folder` or inside it, both compared where they really are (`realPath`): a
 * link on either side, or a name such as `..cache`, decides nothing.
 */
export function isInsideFolder(path: string, folder: string): boolean {
  const rel = relative(realPath(folder), realPath(path));
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
