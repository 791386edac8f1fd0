/** One counter to add to: `units` more, as long as it stays at or under `limit`. */
export interface CounterCharge {
  readonly key: string;
  readonly units: number;
  readonly limit: number;
}

/**
 * Fixed-window counters kept where every process serving the site sees them (the state
 * database), so limits hold across processes and instances. A window is a number
 * (`floor(time / window length)`); counters of past windows are dropped.
 */
export interface WindowCounters {
  /**
   * Add to every counter, or to none when one would pass its limit: returns the index (in
   * `charges`) of the first refused, or -1 when all were added. Atomic across instances: of
   * concurrent calls, exactly as many pass as the limits allow.
   */
  take(window: number, charges: readonly CounterCharge[]): Promise<number>;
  /** Take back units added in `window` (never below zero). */
  refund(window: number, charges: readonly Omit<CounterCharge, "limit">[]): Promise<void>;
}
