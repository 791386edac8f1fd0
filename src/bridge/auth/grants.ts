import type { Grant } from "./grant.js";
import { AUTHORIZATION_CODE } from "./grant-authorization-code.js";
import { CLIENT_CREDENTIALS } from "./grant-client-credentials.js";
import { REFRESH_TOKEN } from "./grant-refresh-token.js";

/**
 * Every grant the token endpoint serves, in the order the metadata lists them. The token
 * endpoint dispatches on it, the RFC 8414 metadata and the MCP capabilities are written from it,
 * and registration and metadata documents accept the `registrable` ones in `grant_types`.
 */
export const GRANTS: readonly Grant[] = [AUTHORIZATION_CODE, REFRESH_TOKEN, CLIENT_CREDENTIALS];

/** The grant named `name`, if we serve it. */
export function grantNamed(name: string): Grant | undefined {
  return GRANTS.find((g) => g.name === name);
}

/** The grant types a client may list in its metadata, in table order. */
export const REGISTRABLE_GRANT_TYPES: readonly string[] = GRANTS.filter((g) => g.registrable).map((g) => g.name);

/** `capabilities.extensions` of the authenticated MCP endpoint: the extensions our grants implement. */
export function grantExtensions(): Record<string, Record<string, never>> {
  const out: Record<string, Record<string, never>> = {};
  for (const g of GRANTS) if (g.extension !== undefined) out[g.extension] = {};
  return out;
}

/** `a, b or c`. */
export function grantList(names: readonly string[] = GRANTS.map((g) => g.name)): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1) as string}`;
}
