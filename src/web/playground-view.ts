/**
 * What the API page's playground and its MCP App share (browser code): the form read into a
 * request, the relay's answer, and the answer view by content type. Text from the API is put on
 * the page as text, never markup.
 */

export interface PlaygroundData {
  readonly page: string;
  readonly method: string;
  readonly path: string;
  readonly transport: "proxy" | "direct";
  readonly relay: string;
  readonly bodyType?: string;
  /** In an MCP App: the tool its Send calls through the host. */
  readonly tool?: string;
}

/** The relay's answer (src/bridge/playground/relay-request.ts `RelayResponse`). */
export interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType: string | null;
  /** The body as a `data:` or `blob:` URL for media; as text otherwise. */
  readonly media?: string;
  readonly text?: string;
  readonly ms: number;
}

export class UserError extends Error {}

export interface OutgoingRequest {
  readonly method: string;
  /** Without the query string. */
  readonly url: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
}

export function readForm(data: PlaygroundData, form: HTMLFormElement): OutgoingRequest {
  const server = form.querySelector<HTMLSelectElement>('select[name="server"]')?.value ?? "";
  if (server === "") throw new UserError("The spec declares no server URL to send this request to.");
  let path = data.path;
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const input of form.querySelectorAll<HTMLInputElement>("input[data-in]")) {
    const value = input.value;
    const where = input.dataset.in;
    if (value === "") {
      if (input.required) throw new UserError(`${input.name} is required.`);
      continue;
    }
    if (where === "path") path = path.split(`{${input.name}}`).join(encodeURIComponent(value));
    else if (where === "query") query[input.name] = value;
    else if (where === "header") headers[input.name] = value;
  }
  for (const input of form.querySelectorAll<HTMLInputElement>("input[data-auth]")) {
    if (input.value === "") continue;
    const key = input.dataset.key ?? "Authorization";
    const value = input.dataset.auth === "basic" ? `Basic ${btoa(input.value)}` : input.dataset.auth === "bearer" ? `Bearer ${input.value}` : input.value;
    if (input.dataset.where === "query") query[key] = value;
    else headers[key] = value;
  }
  const textarea = form.querySelector<HTMLTextAreaElement>('textarea[name="body"]');
  let body: unknown;
  if (textarea !== null && textarea.value.trim() !== "" && data.method !== "GET" && data.method !== "HEAD") {
    const type = data.bodyType ?? "application/json";
    headers["Content-Type"] = type;
    if (/json/i.test(type)) {
      try {
        body = JSON.parse(textarea.value);
      } catch (error) {
        throw new UserError(`The body is not valid JSON: ${(error as Error).message}`);
      }
    } else {
      body = textarea.value;
    }
  }
  return { method: data.method, url: `${server}${path}`, query, headers, ...(body !== undefined ? { body } : {}) };
}

/** The relay's JSON body of one request (`POST /_svc/api/request`, or the MCP App's tool). */
export function relayBody(data: PlaygroundData, r: OutgoingRequest): Record<string, unknown> {
  return { page: data.page, method: r.method, url: r.url, query: r.query, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) };
}

/** The relay's answer (its HTTP status, its JSON) as the view shows it; a refusal is an error with the relay's reason. */
export function relayAnswer(relayStatus: number, relayStatusText: string, json: RelayJson, ms: number): Answer {
  if (relayStatus !== 200) throw new UserError(`The relay refused the request (${relayStatus}): ${json.error?.message ?? relayStatusText}`);
  const contentType = json.contentType ?? null;
  const base = { status: json.status ?? 0, statusText: json.statusText ?? "", headers: json.headers ?? {}, contentType, ms };
  if (json.encoding === "base64") {
    return mediaKind(contentType) !== undefined ? { ...base, media: `data:${contentType};base64,${json.body ?? ""}` } : { ...base, text: `(${atob(json.body ?? "").length} bytes of ${contentType ?? "binary data"})` };
  }
  return { ...base, text: json.body ?? "" };
}

/** The relay's JSON answer, as far as the view reads it. */
export type RelayJson = { error?: { message?: string } } & Partial<{ status: number; statusText: string; headers: Record<string, string>; contentType: string | null; body: string; encoding: string }>;

/** Run one Send: the button off meanwhile, "Sending...", then the answer or the error. */
export async function sendForm(form: HTMLFormElement, out: HTMLElement, answer: () => Promise<Answer>): Promise<void> {
  const send = form.querySelector<HTMLButtonElement>('[data-testid="playground-send"]');
  if (send !== null) send.disabled = true;
  out.replaceChildren(el("p", { class: "pending" }, "Sending..."));
  try {
    show(out, await answer());
  } catch (error) {
    out.replaceChildren(el("p", { class: "error", role: "alert", "data-testid": "playground-error" }, (error as Error).message));
  } finally {
    if (send !== null) send.disabled = false;
  }
}

export function mediaKind(contentType: string | null): "img" | "audio" | "video" | undefined {
  const t = (contentType ?? "").trim().toLowerCase();
  if (t.startsWith("image/")) return "img";
  if (t.startsWith("audio/")) return "audio";
  if (t.startsWith("video/")) return "video";
  return undefined;
}

/** Status, time, headers, then the body: `<img>`, `<audio controls>`, `<video controls>` or a `<pre>` (JSON pretty-printed). */
export function show(out: HTMLElement, a: Answer): void {
  const status = el("p", { class: `status s${String(a.status).charAt(0)}xx` });
  status.append(el("strong", { "data-testid": "response-status" }, `${a.status} ${a.statusText}`.trim()), ` · ${Math.round(a.ms)} ms`);
  const headers = el("details", { class: "headers" });
  headers.append(el("summary", {}, `Headers (${Object.keys(a.headers).length})`));
  const table = el("table", {});
  for (const [k, v] of Object.entries(a.headers)) {
    const row = el("tr", {});
    row.append(el("th", {}, k), el("td", {}, v));
    table.append(row);
  }
  headers.append(table);
  let body: HTMLElement;
  const kind = mediaKind(a.contentType);
  if (kind !== undefined && a.media !== undefined) {
    body = el(kind, { src: a.media, "data-testid": "response-body", ...(kind === "img" ? { alt: "Response image" } : { controls: "" }) });
  } else {
    body = el("pre", { "data-testid": "response-body" });
    body.append(el("code", {}, pretty(a.text ?? "", a.contentType)));
  }
  out.replaceChildren(status, headers, body);
}

function pretty(text: string, contentType: string | null): string {
  if (!/json/i.test(contentType ?? "")) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function el(tag: string, attrs: Record<string, string>, text?: string): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
