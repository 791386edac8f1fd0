import fc from "fast-check";

/**
 * fast-check settings shared by property tests: a fixed seed by default, so a run is repeatable
 * and a failure in CI is the failure a developer gets locally; `SVC_PROPERTY_SEED=<int>` runs
 * another sample (or replays a reported one). A failure names the seed and how to replay it.
 */
const DEFAULT_SEED = 20261124;

/** The seed property tests run with: `SVC_PROPERTY_SEED` when set, else a fixed one. */
export function propertySeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_PROPERTY_SEED;
  if (raw === undefined || raw.trim() === "") return DEFAULT_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`SVC_PROPERTY_SEED must be an integer (got ${JSON.stringify(raw)})`);
  return seed;
}

/** `fc.assert` parameters: the seed, the number of runs, and a failure message naming the seed. */
export function propertyParams<Ts>(numRuns: number): fc.Parameters<Ts> {
  const seed = propertySeed();
  return {
    seed,
    numRuns,
    reporter: (details) => {
      if (!details.failed) return;
      throw new Error(`${fc.defaultReportMessage(details) ?? "property failed"}\nReplay: SVC_PROPERTY_SEED=${details.seed} npx vitest run <this test file>`, {
        cause: details.errorInstance,
      });
    },
  };
}
