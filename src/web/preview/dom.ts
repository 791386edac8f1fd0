/** An element with attributes and text (text is always set as text, never parsed as markup). */
export function el(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** What the server wrote for the page's script (`<script type="application/json" id="svc-preview">`). */
export interface PreviewData {
  readonly page?: string;
  readonly file?: string;
  readonly version?: string;
  readonly language?: string;
}

/** The page's data block. */
export function previewData(): PreviewData {
  const node = document.getElementById("svc-preview");
  return node === null ? {} : (JSON.parse(node.textContent ?? "{}") as PreviewData);
}

/** A JSON call to this server; an error answer becomes an Error with its message. */
export async function getJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { credentials: "same-origin", ...init, headers: { Accept: "application/json", ...(init.headers ?? {}) } });
  const body = (await res.json()) as T & { error?: { message?: string } };
  if (!res.ok) throw new Error(body.error?.message ?? `${res.status} ${res.statusText}`);
  return body;
}

/** The preview's calls (src/bridge/web/preview/preview-api.ts). */
export const PATHS = { search: "/_svc/preview/search", agent: "/_svc/preview/agent", shell: "/_svc/preview/shell", events: "/_svc/preview/events" } as const;
