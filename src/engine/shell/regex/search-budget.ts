import { AsyncLocalStorage } from "node:async_hooks";
import * as re2js from "re2js";
import type { Chargeable } from "../work-budget.js";

/**
 * What a search on the linear-time engine (`LinearRegExp`) is charged to: the call's work budget,
 * as the command running it (`grep:regex`). Held for each of our commands while it runs
 * (`docsCommand`), through its awaits: a regex is compiled before a command reads its files and
 * searched after, and in the process's own thread (`svc-mcp fs`, the preview) several calls'
 * commands may interleave at their awaits, each with its own budget.
 */
export interface SearchBudget {
  readonly budget: Chargeable;
  readonly feature: string;
  /** Units of work not yet charged (less than a step's worth). */
  carry: number;
}

export const searchBudget = new AsyncLocalStorage<SearchBudget>();

/** re2js's count of its engines' work and the limit that stops a search inside them (re2js-work-patches.mjs). */
interface Re2Work {
  n: number;
  lim: number;
  on: (() => void) | null;
}

/** The count, as the patched re2js exports it; a re2js loaded without the patch counts nothing (test/shell/regex-work.test.ts checks it is there). */
const WORK: Re2Work = (re2js as unknown as { RE2JS_WORK?: Re2Work }).RE2JS_WORK ?? { n: 0, lim: Infinity, on: null };

/**
 * Units of re2js's work (a thread stepped or added by the NFA, a position the backtracker visits)
 * in one step of the budget, a step being about a jq node (~0.7 µs): CPU time, one process,
 * `(a?){1000}a{1000}z` over 20,000 a's in the NFA (docs/shell.md, "Regular expressions").
 */
export const UNITS_PER_STEP = 32;

/**
 * Runs `search` (one synchronous search of re2js) charged to the running command's budget:
 * armed with what is left of it, so that a search whose work passes it throws the work limit
 * from inside the engine, and charged what it did once it returns. Without a budget (tests of
 * a command alone), it just runs.
 */
export function chargedSearch<T>(search: () => T): T {
  const meter = searchBudget.getStore();
  if (meter === undefined) return search();
  const before = WORK.n;
  const charge = (): void => {
    const units = meter.carry + WORK.n - before;
    meter.carry = units % UNITS_PER_STEP;
    meter.budget.charge(meter.feature, Math.floor(units / UNITS_PER_STEP));
  };
  WORK.lim = before + Math.max(0, meter.budget.left + 1) * UNITS_PER_STEP - meter.carry;
  WORK.on = () => {
    WORK.lim = Infinity;
    WORK.on = null;
    charge();
  };
  let result: T;
  try {
    result = search();
  } finally {
    WORK.lim = Infinity;
    WORK.on = null;
  }
  charge();
  return result;
}

/** What the counted backtracking machine has done since its last charge, per budget (less than a step's worth). */
const backtrackCarry = new WeakMap<SearchBudget, number>();

/**
 * How the counted backtracking machine (counted.ts) charges its work: `units` at a time, at
 * `unitsPerStep` a step, to the running command's budget, which throws the work limit when it is
 * spent. Undefined without a budget (tests of a command alone): the search just runs.
 */
export function chargeUnits(unitsPerStep: number): ((units: number) => void) | undefined {
  const meter = searchBudget.getStore();
  if (meter === undefined) return undefined;
  return (units) => {
    const total = (backtrackCarry.get(meter) ?? 0) + units;
    backtrackCarry.set(meter, total % unitsPerStep);
    meter.budget.charge(meter.feature, Math.floor(total / unitsPerStep));
  };
}
