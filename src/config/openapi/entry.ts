import { HTTP_METHODS, WEBHOOK } from "./model.js";

/** A navigation or front matter reference to an operation: `[<spec file>] <METHOD> <path>`. */
export interface OperationEntry {
  /** The text as written. */
  readonly raw: string;
  /** The spec file named before the method, when there is one. */
  readonly file?: string;
  /** The method exactly as written (matching is case-sensitive), but `WEBHOOK` in any case read
   *  as `WEBHOOK`. */
  readonly method: string;
  readonly path: string;
}

const METHODS = new Set<string>([...HTTP_METHODS, WEBHOOK]);

/**
 * Read an entry that looks like an operation reference (its method, in any case, is an HTTP
 * method or `WEBHOOK`, followed by a path). Anything else is a page path and returns undefined.
 * An HTTP method's case is kept: `get /users` parses, and matching then explains why it does not
 * match (the spec: operation matching is case-sensitive). `webhook` is no HTTP method but the
 * platform's keyword, and the platform's own docs and real sites write it in lower case
 * (`webhook customer.state_changed`: Polar's 77 webhook pages): read as `WEBHOOK` in any case.
 */
export function parseOperationEntry(entry: string): OperationEntry | undefined {
  const parts = entry.trim().split(/\s+/);
  if (parts.length < 2 || parts.length > 3) return undefined;
  const [a, b, c] = parts as [string, string, string | undefined];
  const [file, method, path] = c === undefined ? [undefined, a, b] : [a, b, c];
  const upper = method.toUpperCase();
  if (!METHODS.has(upper)) return undefined;
  // HTTP operations name a path; webhooks name a key of `webhooks`.
  if (upper !== WEBHOOK && !path.startsWith("/")) return undefined;
  return { raw: entry, ...(file !== undefined ? { file } : {}), method: upper === WEBHOOK ? WEBHOOK : method, path };
}

/** `/users/` and `/users` are the same operation path (the spec's trailing-slash rule). */
export function normalizeOperationPath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
