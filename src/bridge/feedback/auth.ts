import { KEY_PREFIX } from "../../store/keys/api-key.js";
import type { AdminKeyInfo, AdminKeyStore } from "../../store/keys/key-store.js";
import { ApiError } from "../middleware/api-error.js";

const REALM = 'Bearer realm="svc-mcp"';

/**
 * Check `Authorization: Bearer svc_...` against the admin keys; throws a 401 ApiError with a
 * `WWW-Authenticate` challenge (RFC 6750) otherwise. A request without credentials gets the bare
 * challenge; one with a bad key gets `error="invalid_token"` and a description.
 */
export async function requireAdminKey(header: string | null, keys: AdminKeyStore, now: number): Promise<AdminKeyInfo> {
  if (header === null || header.trim() === "") {
    throw new ApiError(401, "missing_api_key", "this endpoint needs an admin API key: send Authorization: Bearer svc_... (create one with `svc-mcp keys create`)", {
      headers: { "WWW-Authenticate": REALM },
    });
  }
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) {
    throw new ApiError(401, "invalid_authorization", "Authorization must be the Bearer scheme with an admin API key: Bearer svc_...", {
      headers: { "WWW-Authenticate": REALM },
    });
  }
  const check = await keys.verify(match[1]!, now);
  if (check.ok) return check.key;
  const message =
    check.reason === "malformed"
      ? `not an admin API key: keys start with ${KEY_PREFIX} and come from \`svc-mcp keys create\``
      : check.reason === "revoked"
        ? "this API key has been revoked"
        : "this API key is not valid for this server";
  throw new ApiError(401, "invalid_api_key", message, {
    headers: { "WWW-Authenticate": `${REALM}, error="invalid_token", error_description="${message.replace(/["\\`]/g, "'")}"` },
  });
}
