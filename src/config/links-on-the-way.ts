import { lstatSync, readlinkSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { realRoot } from "./inside-root.js";

/** As many links as the system follows on one path (Linux's `MAXSYMLINKS`): a loop stops here. */
const MAX_LINKS = 40;

/**
 * Every link met while resolving `rel` under the root, as `realpath` meets them (a folder link
 * among its parents, each link of a chain, the path itself when it is one), each by the
 * repository-relative path where the link itself is (its folders resolved): where the watcher
 * sees it change. A configuration file read through any of them changes when one is retargeted
 * (issue 25, adversary round 11 F1: `.svcignore -> cfg/main.txt` with `cfg -> cfgA` retargeted
 * to `cfgB` reloaded nothing). Links outside the root are not looked at (nothing there is read),
 * and the walk stops where nothing is (a missing file is the load's to report). A path that leaves the root and comes back (`../docs/x`) is followed through.
 */
export function linksOnTheWay(root: string, rel: string): string[] {
  let base: string;
  try {
    base = realRoot(root);
  } catch {
    return [];
  }
  const met: string[] = [];
  let at = base;
  let rest = rel.split("/");
  let hops = 0;
  while (rest.length > 0) {
    const part = rest[0] as string;
    rest = rest.slice(1);
    if (part === "" || part === ".") continue;
    if (part === "..") {
      at = dirname(at);
      continue;
    }
    const next = join(at, part);
    const inside = relative(base, next);
    const outside = inside.startsWith("..") || isAbsolute(inside);
    let target: string;
    try {
      if (!lstatSync(next).isSymbolicLink()) {
        at = next;
        continue;
      }
      target = readlinkSync(next);
    } catch {
      break;
    }
    // A link outside the root: what it leads to is never read.
    if (outside) break;
    met.push(inside.split(sep).join("/"));
    if (++hops > MAX_LINKS) break;
    if (isAbsolute(target)) at = "/";
    rest = [...target.split("/"), ...rest];
  }
  return met;
}
