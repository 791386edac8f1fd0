import { realpathSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type StdioServer, commandLine } from "../bridge/connect-options.js";
import { packageRoot } from "../package-root.js";
import { VERSION } from "../version.js";

/** How an editor starts the server: which program, and how `install` and `connect` describe it. */
export interface LaunchCommand extends StdioServer {
  /**
   * `path`: the `svc-mcp` on PATH, which is this installation; `node`: this installation's entry
   * point under the Node that runs it; `npx`: the published package of this version, via npx.
   */
  readonly kind: "path" | "node" | "npx";
}

export interface LaunchOptions {
  /** `--npx`: the published package of this version instead of this installation. */
  readonly npx: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** This installation's `bin/svc-mcp.js` (tests point elsewhere); default: found from this module. */
  readonly bin?: string;
}

/**
 * The command that serves the docs at `root` over stdio, as an editor config holds it. By default
 * it runs this installation, never a package name the registry might not have (or might give to
 * someone else): `svc-mcp` when the first `svc-mcp` on PATH is this installation's entry point
 * (readable, and it keeps working across Node upgrades), else the absolute path of the entry point
 * under the absolute path of the Node running now. `--npx` pins this version
 * (`npx -y svc-mcp@0.1.0`), for configs shared with people who have not installed svc-mcp.
 */
export function launchCommand(root: string, options: LaunchOptions): LaunchCommand {
  const serve = ["serve", "--dir", root];
  if (options.npx) return { kind: "npx", command: "npx", args: ["-y", `svc-mcp@${VERSION}`, ...serve] };
  const bin = options.bin ?? join(packageRoot(import.meta.url), "bin", "svc-mcp.js");
  if (firstOnPath("svc-mcp", options.env) === realpathOrSelf(bin)) return { kind: "path", command: "svc-mcp", args: serve };
  return { kind: "node", command: process.execPath, args: [bin, ...serve] };
}

/** What the editor will run, said in a sentence for `install`'s message. */
export function describeLaunch(launch: LaunchCommand, bin = join(packageRoot(import.meta.url), "bin", "svc-mcp.js")): string {
  switch (launch.kind) {
    case "path":
      return `the svc-mcp on its PATH (this installation, ${realpathOrSelf(bin)})`;
    case "node":
      return `this installation (${commandLine({ command: launch.command, args: launch.args.slice(0, 1) })}); run install again after moving it or removing that Node`;
    case "npx":
      return `npx, which runs svc-mcp ${VERSION} from npm's cache or downloads that version from the npm registry (it must be published there)`;
  }
}

/**
 * The real path of the first executable file named `name` in `env.PATH`, as a shell would pick it;
 * undefined when there is none. Windows is not looked at: npm installs `.cmd` wrappers there,
 * which never resolve to the entry point, so the Node form is used.
 */
function firstOnPath(name: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (process.platform === "win32") return undefined;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      const st = statSync(candidate);
      if (st.isFile() && (st.mode & 0o111) !== 0) return realpathSync(candidate);
    } catch {
      // Not here: keep looking.
    }
  }
  return undefined;
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
