import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SiteView } from "../../src/vfs/view.js";

/** What a real command printed, with the temp-dir prefix mapped back to `/`. */
export interface RealResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/**
 * A copy on disk of exactly the files one view shows (same bytes, mtime and mode), for running
 * the real GNU tools and ripgrep over the same tree the docs shell sees.
 */
export class DiskCopy {
  private constructor(readonly dir: string) {}

  static of(view: SiteView): DiskCopy {
    // A short, fixed-shape prefix keeps the path mapping unambiguous.
    const dir = mkdtempSync(join(tmpdir(), "svc-fid-"));
    const dirs = new Set<string>();
    // Times are set with touch: utimes() takes float seconds and would turn .116 into .115999.
    // One touch per distinct time (a checkout has few), files before their folders.
    const fileTimes = new Map<string, string[]>();
    const dirTimes = new Map<string, string[]>();
    let stamps = fileTimes;
    const touch = (path: string, mtime: Date) => {
      const ms = mtime.getTime();
      const stamp = `@${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, "0")}`;
      const list = stamps.get(stamp) ?? [];
      list.push(`'${path.replace(/'/g, "'\\''")}'`);
      stamps.set(stamp, list);
    };
    for (const file of view.files) {
      const target = join(dir, file.path);
      const parent = target.slice(0, target.lastIndexOf("/"));
      mkdirSync(parent, { recursive: true });
      writeFileSync(target, file.text);
      chmodSync(target, 0o444);
      touch(target, file.mtime);
      for (let p = file.path; p.lastIndexOf("/") > 0; ) {
        p = p.slice(0, p.lastIndexOf("/"));
        dirs.add(p);
      }
    }
    dirs.add("/");
    stamps = dirTimes;
    for (const d of dirs) {
      const target = join(dir, d);
      chmodSync(target, 0o555);
      touch(target, view.mtimeOf(d));
    }
    const script = [...fileTimes, ...dirTimes].map(([stamp, paths]) => `touch -h -d '${stamp}' ${paths.join(" ")}`);
    const r = spawnSync("bash", ["-e"], { input: script.join("\n"), encoding: "utf8" });
    if (r.status !== 0) throw new Error(`setting times on the disk copy failed: ${r.stderr}`);
    return new DiskCopy(dir);
  }

  /**
   * Run a command line under real bash with absolute paths moved into the copy. Words outside
   * quotes that start with `/` are paths (except /dev/null); quoted text (sed scripts, patterns)
   * is left alone.
   */
  run(command: string): RealResult {
    const r = spawnSync("bash", ["-c", this.mapCommand(command)], {
      cwd: this.dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: this.env(),
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout: this.unmap(r.stdout), stderr: this.unmap(r.stderr), exitCode: r.status ?? -1 };
  }

  /** Like `run`, without blocking (for running many commands concurrently). */
  runAsync(command: string): Promise<RealResult> {
    return new Promise((resolve, reject) => {
      const child = spawn("bash", ["-c", this.mapCommand(command)], { cwd: this.dir, stdio: ["ignore", "pipe", "pipe"], env: this.env() });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => err.push(b));
      child.on("error", reject);
      child.on("close", (code) => {
        resolve({
          stdout: this.unmap(Buffer.concat(out).toString("utf8")),
          stderr: this.unmap(Buffer.concat(err).toString("utf8")),
          exitCode: code ?? -1,
        });
      });
    });
  }

  /** The real tools run in the C.UTF-8 locale and UTC, as the docs shell reports. */
  private env(): NodeJS.ProcessEnv {
    return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: this.dir, LC_ALL: "C.UTF-8", TZ: "UTC", TERM: "dumb" };
  }

  mapCommand(command: string): string {
    let out = "";
    let quote: "'" | '"' | undefined;
    for (let i = 0; i < command.length; i++) {
      const c = command[i] as string;
      if (quote !== undefined) {
        if (c === quote) quote = undefined;
        else if (c === "\\" && quote === '"') {
          out += c + (command[i + 1] ?? "");
          i++;
          continue;
        }
        out += c;
        continue;
      }
      if (c === "'" || c === '"') {
        quote = c;
        out += c;
        continue;
      }
      const prev = i === 0 ? " " : (command[i - 1] as string);
      if (c === "/" && /[\s|;&(<>=]/.test(prev) && !command.startsWith("/dev/null", i)) out += this.dir;
      out += c;
    }
    return out;
  }

  private unmap(text: string): string {
    return text.split(this.dir).join("");
  }

  cleanup(): void {
    spawnSync("chmod", ["-R", "u+w", this.dir]);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
