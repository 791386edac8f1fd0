import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openSpecCache } from "../src/config/openapi/spec-cache.js";
import { loadSite } from "../src/vfs/load-site.js";
import { type BenchRow, type BenchSuite, percentile, timeMany } from "./bench.js";
import { userSeal } from "./user-seal.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
/** The largest shared corpus: 428 MDX pages and four OpenAPI 3.0 specs (0.4-1.2 MB of YAML) that generate 706 pages. */
const CORPUS = join(SHARED, "corpora/spree");
const LOAD_ONCE = fileURLToPath(new URL("./load-once.ts", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/svc-mcp.js", import.meta.url));
const RUNS = 7;

const run = promisify(execFile);
const p50 = (xs: number[]): number => percentile(xs, 50);

interface Once {
  importMs: number;
  loadMs: number;
  pages: number;
}

async function loadOnce(cacheDir: string, mode: "api" | "no-api" = "api"): Promise<Once> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", LOAD_ONCE, CORPUS, cacheDir, mode]);
  return JSON.parse(stdout) as Once;
}

/** Wall time of one `svc-mcp` command as a user runs it (a new process, tsx included). */
async function cliWall(args: string[], cacheHome: string): Promise<number> {
  const t = performance.now();
  await run(process.execPath, [BIN, ...args], { env: { ...process.env, XDG_CACHE_HOME: cacheHome }, maxBuffer: 64 * 1024 * 1024 }).catch((e: { code?: number }) => {
    // `check` exits 1 when it finds errors; spree has none, so any failure is the bench's.
    throw new Error(`svc-mcp ${args.join(" ")} failed (${e.code})`);
  });
  return performance.now() - t;
}

/**
 * Loading spree (`loadSite`: pages, docs.json, four OpenAPI specs, 706 generated pages): in a new
 * process with an empty spec cache (the first run after an install or a spec change), in a new
 * process with a warm cache (every later run), and again in a running process (a reload). The
 * baseline is the same load with the API reference left out: what the specs add. Then `check` +
 * `nav` as a user runs them (two processes, warm cache), beside two runs of `svc-mcp schema`,
 * which loads nothing: the start-up floor of any command.
 */
export const loadSuite: BenchSuite = {
  name: "load",
  async run(log) {
    const cacheHome = mkdtempSync(join(tmpdir(), "svc-bench-cache-"));
    const cacheDir = join(cacheHome, "svc-mcp");
    try {
      log(`corpus: ${CORPUS}; ${RUNS} new processes per figure`);
      const cold: Once[] = [];
      const warm: Once[] = [];
      const bare: Once[] = [];
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, so the three see the same machine load.
        const fresh = mkdtempSync(join(tmpdir(), "svc-bench-cold-"));
        cold.push(await loadOnce(fresh));
        rmSync(fresh, { recursive: true, force: true });
        if (i === 0) await loadOnce(cacheDir); // fill the warm cache
        warm.push(await loadOnce(cacheDir));
        bare.push(await loadOnce("-", "no-api"));
      }
      const pages = cold[0]?.pages ?? 0;
      log(`${pages} pages (${bare[0]?.pages ?? 0} without the API reference)`);

      // A running process: the spec cache is warm, the JIT too; no previous snapshot (a full load).
      const specCache = openSpecCache(cacheDir, userSeal());
      await loadSite(CORPUS, () => {}, undefined, { specCache });
      const inProcess = await timeMany(15, () => loadSite(CORPUS, () => {}, undefined, { specCache }));
      const inProcessBare = await timeMany(15, () => loadSite(CORPUS, () => {}, undefined, { apiReference: false }));

      log("svc-mcp check + nav, as a user runs them...");
      const both: number[] = [];
      const floor: number[] = [];
      const coldCheck: number[] = [];
      for (let i = 0; i < 5; i++) {
        both.push((await cliWall(["check", "--dir", CORPUS], cacheHome)) + (await cliWall(["nav", "--dir", CORPUS], cacheHome)));
        floor.push((await cliWall(["schema"], cacheHome)) * 2);
        const empty = mkdtempSync(join(tmpdir(), "svc-bench-cold-"));
        coldCheck.push(await cliWall(["check", "--dir", CORPUS], empty));
        rmSync(empty, { recursive: true, force: true });
      }

      const loadMs = (xs: Once[]) => p50(xs.map((x) => x.loadMs));
      const bareLoad = { name: "same, API reference off", value: loadMs(bare) };
      const rows: BenchRow[] = [
        { area: "load", metric: `loadSite spree (${pages} pages), new process, empty spec cache`, value: loadMs(cold), unit: "ms", baseline: bareLoad, target: "<= 600 ms", ok: loadMs(cold) <= 600 },
        { area: "load", metric: "loadSite spree, new process, warm spec cache", value: loadMs(warm), unit: "ms", baseline: bareLoad, target: "<= 600 ms", ok: loadMs(warm) <= 600 },
        { area: "load", metric: "loadSite spree again in a running process, warm cache", value: p50(inProcess), unit: "ms", baseline: { name: "same, API reference off", value: p50(inProcessBare) } },
        { area: "load", metric: "module loading before loadSite (tsx), new process", value: p50(warm.map((x) => x.importMs)), unit: "ms" },
        {
          area: "load",
          metric: "svc-mcp check + nav spree (2 processes, wall), warm cache",
          value: p50(both),
          unit: "ms",
          baseline: { name: "2 x svc-mcp schema (start-up floor)", value: p50(floor) },
        },
        { area: "load", metric: "svc-mcp check spree (wall), empty cache", value: p50(coldCheck), unit: "ms" },
      ];
      return rows;
    } finally {
      rmSync(cacheHome, { recursive: true, force: true });
    }
  },
};
