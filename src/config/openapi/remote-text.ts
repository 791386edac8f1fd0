import { LIMITS } from "../../limits.js";

/** A fetch function (the global `fetch`, or a stand-in in tests). */
export type FetchLike = (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<Response>;

/** A remote file's text, or why there is none (phrased to follow `API spec <source>: `). */
export type RemoteText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/**
 * Fetch one remote file under the remote spec limits (time, bytes): the spec docs.json names by
 * URL, and the files its relative `$ref`s name on the same host. The one place both are fetched.
 */
export async function fetchRemoteText(url: string, fetch: FetchLike, timeoutMs: number = LIMITS.api.fetchTimeoutMs): Promise<RemoteText> {
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "application/json, application/yaml;q=0.9, */*;q=0.5" },
    });
    if (!res.ok) return { ok: false, message: `unreachable: HTTP ${res.status}` };
    const length = Number(res.headers.get("content-length") ?? "0");
    if (length > LIMITS.api.maxRemoteSpecBytes) {
      return { ok: false, message: `${length} bytes is over the ${LIMITS.api.maxRemoteSpecBytes}-byte spec limit` };
    }
    const body = await res.arrayBuffer();
    if (body.byteLength > LIMITS.api.maxRemoteSpecBytes) {
      return { ok: false, message: `${body.byteLength} bytes is over the ${LIMITS.api.maxRemoteSpecBytes}-byte spec limit` };
    }
    return { ok: true, text: new TextDecoder().decode(body) };
  } catch (error) {
    const err = error as Error & { cause?: { code?: string } };
    if (err.name === "TimeoutError" || err.name === "AbortError") return { ok: false, message: `unreachable: no answer within ${timeoutMs} ms` };
    return { ok: false, message: `unreachable: ${err.cause?.code ?? err.message}` };
  }
}
