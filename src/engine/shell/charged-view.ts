import type { SiteFile } from "../../vfs/site-file.js";
import type { SiteView } from "../../vfs/view.js";
import { type Chargeable, stepsForBytes } from "./work-budget.js";

/** The view's methods that hand out a file's contents to just-bash's commands. */
const READS: ReadonlySet<PropertyKey> = new Set(["readFile", "readFileBuffer", "readFileBytes"]);

/**
 * The reader's view as one call's commands see it: reading a file's contents charges the call's
 * work budget for its bytes (`stepsForBytes`), so a command's work over files is counted as its
 * loops are, the same on any machine (issue 25: `rg -il checkout /` over 50,000 pages, or
 * `cat $(find /)` in a loop, was bounded only by the clock).
 *
 * Why a wrapper per command and not the view: a view serves every call of its reader, several
 * at once in this thread, and each call has its own budget. What is charged: a file record's
 * contents when a command first reads them (`text`, or `stored`, the bytes a search reads
 * undecoded; in this thread a file holds no `stored`, and reading that it has none costs the
 * same, so a command costs the same in a shell worker and here), and each read through
 * just-bash's filesystem calls (its own commands: `nl`, `tac`, `comm`...). Looking files up,
 * listing folders and their sizes cost nothing: they read no contents.
 */
export function chargedView(view: SiteView, budget: Chargeable, command: string): SiteView {
  const feature = `${command}:read`;
  const charge = (bytes: number): void => budget.charge(feature, stepsForBytes(bytes));
  // Each method made once per command, not per use: a walk asks `isDir` and `fileAt` of every
  // file, and made a bound function or closure each time (issue 22: a walk of 10,000 files
  // 50-90 ms of CPU either way at load 40, within the noise). The view's methods never change.
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(view, {
    get(target, key) {
      const made = methods.get(key);
      if (made !== undefined) return made;
      let method: unknown;
      if (key === "fileAt") {
        method = (path: string): SiteFile | undefined => {
          const file = target.fileAt(path);
          return file === undefined ? undefined : chargedFile(file, charge);
        };
      } else {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        method = !READS.has(key)
          ? value.bind(target)
          : async (path: string, ...rest: unknown[]): Promise<unknown> => {
              const read: unknown = await value.call(target, path, ...rest);
              charge(typeof read === "string" ? read.length : read instanceof Uint8Array ? read.length : 0);
              return read;
            };
      }
      methods.set(key, method);
      return method;
    },
  });
}

/** A file record whose contents charge `charge` once, when first read. */
function chargedFile(file: SiteFile, charge: (bytes: number) => void): SiteFile {
  let charged = false;
  const once = (): void => {
    if (charged) return;
    charged = true;
    charge(file.size);
  };
  return {
    path: file.path,
    size: file.size,
    mtime: file.mtime,
    access: file.access,
    get text() {
      once();
      return file.text;
    },
    get stored() {
      once();
      return file.stored;
    },
  };
}
