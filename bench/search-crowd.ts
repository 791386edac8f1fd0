/**
 * How long a cheap search from one caller waits behind expensive searches of many other callers
 * (adversary round 51 F1, docs/security.md row 167), in one process: the runtime of a checkout
 * loads SITE, then each round CALLERS callers (distinct addresses) each send one unfiltered
 * `pageSize: 50` search of a distinct question at once, and another caller sends one cheap
 * search (`pageSize: 3`, filtered to one version and language) right after; printed per round:
 * the cheap search's latency alone and in the crowd, and when the last expensive one ended.
 * Several checkouts are run in one process, alternating round by round, so that the machine's
 * load falls on all alike. It measures the searches' turns (`CallerTurns`) and their cost, not
 * HTTP: the shell's wait behind them is the event loop's, which this process does not probe.
 *
 *   npx tsx bench/search-crowd.ts SITE [--rounds N] [--callers N] [--repo DIR]... [--fresh] [--profile N]
 *
 * `--fresh`: every round's callers, the cheap one's included, are addresses never seen before
 * (the cheap search alone is sent from yet another), so that no charge tells them apart
 * (`CallerTurns` charges each the mean of those seen): as when nobody has searched yet, or an
 * adversary sends each search from a new address (round 52 F3).
 * `--repo`: the checkouts to compare (default this one); `--profile N`: instead, run N expensive
 * searches one after another on this checkout (for `node --cpu-prof`), and print each one's wall
 * and CPU milliseconds (the first prepares the reader's twin tables).
 *
 * SITE: `npx tsx bench/large-site.ts versioned OUT --corpus ../shared/corpora/spree` (24,920 pages).
 */
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { QueryStream } from "./query-stream.js";

const args = process.argv.slice(2);
const site = args[0];
if (site === undefined || site.startsWith("--")) throw new Error("usage: search-crowd.ts SITE [--rounds N] [--callers N] [--repo DIR]...");
const option = (name: string): string | undefined => args.find((_, i) => args[i - 1] === name);
const rounds = Number(option("--rounds") ?? 5);
const callers = Number(option("--callers") ?? 10);
const profile = option("--profile");
const fresh = args.includes("--fresh");
const repos = args.flatMap((a, i) => (args[i - 1] === "--repo" ? [resolve(a)] : []));
if (repos.length === 0) repos.push(resolve(import.meta.dirname, ".."));

interface Side {
  readonly repo: string;
  readonly runtime: { search: unknown; close(): Promise<void>; whenIndexed(): Promise<void> };
  readonly searchDocs: (context: unknown, input: Record<string, unknown>) => Promise<{ ok: boolean }>;
  readonly context: (caller: string) => unknown;
}

async function side(repo: string): Promise<Side> {
  const { DocsRuntime } = await import(`${repo}/src/engine/runtime.ts`);
  const { searchDocs } = await import(`${repo}/src/engine/use-cases/search-docs.ts`);
  const { ANONYMOUS } = await import(`${repo}/src/vfs/access.ts`);
  const { requestContext } = await import(`${repo}/src/vfs/request-context.ts`);
  // No answer cache: every expensive question is distinct anyway, and the cheap one must be searched.
  const runtime = await DocsRuntime.load({ root: site, log: () => {}, searchCache: 0 });
  await runtime.whenIndexed();
  return { repo, runtime, searchDocs, context: (caller: string) => ({ runtime, request: requestContext(ANONYMOUS, "public", Date.now, caller), signal: new AbortController().signal }) };
}

const stream = new QueryStream();
let asked = 0;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const sides: Side[] = [];
for (const repo of repos) sides.push(await side(repo));
const first = sides[0] as Side;

/** One expensive search alone: wall and CPU milliseconds. */
async function expensive(s: Side, caller: string): Promise<{ ms: number; cpu: number }> {
  const t = performance.now();
  const c = cpuMs();
  const found = await s.searchDocs(s.context(caller), { query: stream.at(asked++), pageSize: 50 });
  if (!found.ok) throw new Error("an expensive search failed");
  return { ms: performance.now() - t, cpu: cpuMs() - c };
}

async function cheap(s: Side, caller: string): Promise<number> {
  const t = performance.now();
  const found = await s.searchDocs(s.context(caller), { query: `install ${asked++}`, pageSize: 3, version: "v1.35.0", language: "en" });
  if (!found.ok) throw new Error("the cheap search failed");
  return performance.now() - t;
}

if (profile !== undefined) {
  const times: { ms: number; cpu: number }[] = [];
  for (let i = 0; i < Number(profile); i++) times.push(await expensive(first, "203.0.113.1"));
  console.log(JSON.stringify({ site, wallMs: times.map((t) => Math.round(t.ms)), cpuMs: times.map((t) => Math.round(t.cpu)), load: loadavg().map((l) => l.toFixed(2)) }));
} else {
  // Warm-up: the first search of a reader prepares its branches and twin tables.
  for (const s of sides) for (let i = 0; i < 3; i++) await expensive(s, "198.51.100.1");
  const out: Record<string, unknown>[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternated: the side that goes first changes every round.
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      // Fresh: the round's own addresses (each side has its runtime, so its own history).
      const victimAddress = fresh ? `192.0.${round + 2}.99` : "192.0.2.99";
      const alone = await cheap(s, fresh ? `198.18.${round}.1` : victimAddress);
      const flood = Array.from({ length: callers }, (_, i) => expensive(s, fresh ? `203.${round}.113.${i + 1}` : `203.0.113.${i + 1}`));
      // Sent right after the flood's, as the victim's request read in the same turn.
      const victim = cheap(s, victimAddress);
      const [ms, done] = await Promise.all([victim, Promise.all(flood)]);
      out.push({ round, repo: s.repo, cheapAloneMs: Math.round(alone), cheapInCrowdMs: Math.round(ms), expensiveMaxMs: Math.round(Math.max(...done.map((d) => d.ms))) });
      console.log(JSON.stringify(out[out.length - 1]));
    }
  }
  console.log(JSON.stringify({ site, callers, fresh, load: loadavg().map((l) => l.toFixed(2)), cores: cpus().length }));
}
for (const s of sides) await s.runtime.close();
