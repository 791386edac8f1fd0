import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO } from "./paths.js";

const run = promisify(execFile);

/** What `npm pack` reads: everything else in the checkout (tests, fixtures, dist/) stays out. */
const PACKED_FROM = ["bin", "src", "scripts", "package.json", "README.md", "LICENSE"] as const;

export interface InstalledPackage {
  /** The folder the package was installed into (an empty project). */
  readonly dir: string;
  /** `node_modules/.bin/svc-mcp`, what `npx svc-mcp` runs there. */
  readonly bin: string;
  /** The tarball's files, as `npm pack` listed them. */
  readonly files: readonly string[];
  readonly cleanup: () => void;
}

/**
 * `npm pack` this project and `npm install` the tarball into an empty folder, as a user would
 * (dependencies from the npm cache when it has them, else the registry). The pack runs in a copy
 * of the checkout, so its `prepack` build never replaces the dist/ that other tests are running.
 * `omitOptional` leaves out better-sqlite3 (and just-bash's native extras): an install where no
 * native module could be built, and no compiler time spent.
 */
export async function packAndInstall(options: { omitOptional: boolean }): Promise<InstalledPackage> {
  const work = mkdtempSync(join(tmpdir(), "svc-pack-"));
  const cleanup = (): void => rmSync(work, { recursive: true, force: true });
  try {
    const source = join(work, "checkout");
    for (const entry of PACKED_FROM) cpSync(join(REPO, entry), join(source, entry), { recursive: true });
    // The build (prepack) needs esbuild; the copy uses the checkout's dependencies.
    symlinkSync(join(REPO, "node_modules"), join(source, "node_modules"));
    const npmEnv = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
    const packed = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: source, env: npmEnv, maxBuffer: 16 << 20 });
    const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    if (tarball === undefined) throw new Error(`npm pack printed no tarball: ${packed.stdout}`);
    const dir = join(work, "project");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "svc-mcp-user", private: true })}\n`);
    await run("npm", ["install", "--prefer-offline", ...(options.omitOptional ? ["--omit=optional"] : []), join(work, tarball.filename)], {
      cwd: dir,
      env: npmEnv,
      maxBuffer: 16 << 20,
    });
    return { dir, bin: join(dir, "node_modules", ".bin", "svc-mcp"), files: tarball.files.map((f) => f.path).sort(), cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
