import type { StateStore } from "../../store/state/state-store.js";

/**
 * The redirect-domain list as last read from the state store, for answers that may not wait on
 * the store (the per-IP 429, given before the Origin check: a round trip to PostgreSQL per
 * refused request would put the store in front of a flood). Every Origin check that reads the
 * list refreshes it; a refusal finding it older than `maxAgeMs` starts one read in the
 * background (never more than one at a time) and answers with what it has. So a web-based AI
 * tool on the list reads its 429's `Retry-After` once any of its requests was allowed, or
 * `maxAgeMs` after a refusal started the read; an origin removed from the list may get CORS
 * headers on a 429 until then, which tells it nothing but that it is limited.
 */
export class RedirectDomainSnapshot {
  #domains: readonly string[] = [];
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<void> | undefined;

  constructor(
    private readonly state: Pick<StateStore, "redirectDomains">,
    private readonly now: () => number,
    private readonly maxAgeMs: number,
  ) {}

  /** The store's list, read now (the Origin check's path); remembered for `known`. */
  async read(): Promise<readonly string[]> {
    const domains = await this.state.redirectDomains();
    this.#remember(domains);
    return domains;
  }

  /** What the store last said, without waiting; starts a background read when that is stale. */
  known(): readonly string[] {
    if (this.now() - this.#readAt >= this.maxAgeMs && this.#reading === undefined) {
      this.#reading = this.state
        .redirectDomains()
        .then((domains) => this.#remember(domains))
        // A store that cannot answer leaves the last list; the next stale refusal tries again.
        .catch(() => {})
        .finally(() => {
          this.#reading = undefined;
        });
    }
    return this.#domains;
  }

  #remember(domains: readonly string[]): void {
    this.#domains = domains;
    this.#readAt = this.now();
  }
}
