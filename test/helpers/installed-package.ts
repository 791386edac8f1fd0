import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO } from "./paths.js";

const run = promisify(execFile);

/** What `npm pack` reads: everything else in the checkout (tests, fixtures, dist/) stays out. */
const PACKED_FROM = ["bin", "src", "scripts", "package.json", "tsconfig.json", "README.md", "LICENSE"] as const;

/** npm without its chatter about updates, funding and audits (none of which is ours to test). */
export const NPM_ENV: Readonly<Record<string, string>> = { npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };

export interface InstalledPackage {
  /** The empty prefix the tarball was installed into with `npm install -g --prefix`. */
  readonly prefix: string;
  /** `<prefix>/bin/svc-mcp`, the link npm puts on a global install's PATH. */
  readonly bin: string;
  /** `<prefix>/lib/node_modules/svc-mcp`, the installed package. */
  readonly root: string;
  /** The tarball `npm pack` made. */
  readonly tarball: string;
  /** The tarball's files, as `npm pack` listed them. */
  readonly files: readonly string[];
  /** What `npm install -g` printed. */
  readonly installOutput: { readonly stdout: string; readonly stderr: string };
  /** An npm cache of its own (empty before the install): nothing comes from the user's. */
  readonly npmCache: string;
  readonly cleanup: () => void;
}

/**
 * `npm pack` this project, then `npm install -g` the tarball into an empty prefix, as a user
 * would, offline and with an npm cache of its own: the package has no dependencies to fetch, so
 * it needs no registry. The pack runs in a copy of the checkout, so its `prepack` build never
 * replaces the dist/ that other tests are running (nor its package.json, which `prepack` strips).
 */
export async function packAndInstall(): Promise<InstalledPackage> {
  const work = mkdtempSync(join(tmpdir(), "svc-pack-"));
  const cleanup = (): void => rmSync(work, { recursive: true, force: true });
  try {
    const source = join(work, "checkout");
    for (const entry of PACKED_FROM) cpSync(join(REPO, entry), join(source, entry), { recursive: true });
    // The build (prepack) needs esbuild and the bundled libraries: the checkout's.
    symlinkSync(join(REPO, "node_modules"), join(source, "node_modules"));
    const npmCache = join(work, "npm-cache");
    const env = { ...process.env, ...NPM_ENV, npm_config_cache: npmCache };
    const packed = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: source, env, maxBuffer: 16 << 20 });
    const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    if (tarball === undefined) throw new Error(`npm pack printed no tarball: ${packed.stdout}`);
    const prefix = join(work, "prefix");
    mkdirSync(prefix);
    const file = join(work, tarball.filename);
    const installed = await run("npm", ["install", "-g", "--offline", "--prefix", prefix, file], { cwd: work, env, maxBuffer: 16 << 20 });
    return {
      prefix,
      bin: join(prefix, "bin", "svc-mcp"),
      root: join(prefix, "lib", "node_modules", "svc-mcp"),
      tarball: file,
      files: tarball.files.map((f) => f.path).sort(),
      installOutput: { stdout: installed.stdout, stderr: installed.stderr },
      npmCache,
      cleanup,
    };
  } catch (error) {
    cleanup();
    throw error;
  }
}
