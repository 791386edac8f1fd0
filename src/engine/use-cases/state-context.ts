import type { Stores } from "../../store/stores.js";
import type { RequestContext } from "../../vfs/request-context.js";

/**
 * What a use case over the hosted server's state works from (accounts, client credentials,
 * admin keys, site settings, redirect domains): who asks and when (`request`; its clock dates
 * what is stored), and the project's stores. Each store opens when a use case first reaches it,
 * after the input was checked, so a refused input creates no state.
 */
export interface StateContext {
  readonly request: RequestContext;
  readonly stores: Pick<Stores, "state" | "keys">;
}
