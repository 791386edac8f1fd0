/**
 * The API page's playground (browser code, bundled into /_svc/assets/playground.js): reads the
 * form, sends the request through the relay (or straight to the API with `proxy: false`), and
 * shows the answer by content type (`playground-view.ts`, shared with the MCP App).
 */
import { type Answer, type OutgoingRequest, type PlaygroundData, type RelayJson, UserError, mediaKind, readForm, relayAnswer, relayBody, sendForm } from "./playground-view.js";

const dataNode = document.getElementById("svc-operation");
const form = document.getElementById("playground-form") as HTMLFormElement | null;
const out = document.querySelector<HTMLElement>('[data-testid="playground-response"]');
if (dataNode !== null && form !== null && out !== null) {
  const data = JSON.parse(dataNode.textContent ?? "{}") as PlaygroundData;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void sendForm(form, out, () => {
      const request = readForm(data, form);
      return data.transport === "proxy" ? viaRelay(data, request) : direct(request);
    });
  });
  // When the form became usable, in ms since navigation started (`npm run bench -- pages` reads it).
  form.dataset.readyAt = String(Math.round(performance.now()));
  form.dataset.ready = "true";
}

async function viaRelay(data: PlaygroundData, r: OutgoingRequest): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(data.relay, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(relayBody(data, r)),
  });
  const ms = performance.now() - started;
  const json = (await res.json()) as RelayJson;
  return relayAnswer(res.status, res.statusText, json, ms);
}

async function direct(r: OutgoingRequest): Promise<Answer> {
  const url = new URL(r.url);
  for (const [k, v] of Object.entries(r.query)) url.searchParams.append(k, v);
  const started = performance.now();
  const res = await fetch(url, {
    method: r.method,
    headers: r.headers,
    credentials: "omit",
    ...(r.body !== undefined ? { body: typeof r.body === "string" ? r.body : JSON.stringify(r.body) } : {}),
  }).catch((error: Error) => {
    throw new UserError(`The API could not be reached from the browser (it must allow this page's origin by CORS): ${error.message}`);
  });
  const blob = await res.blob();
  const ms = performance.now() - started;
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const contentType = res.headers.get("content-type");
  const base = { status: res.status, statusText: res.statusText, headers, contentType, ms };
  return mediaKind(contentType) !== undefined ? { ...base, media: URL.createObjectURL(blob) } : { ...base, text: await blob.text() };
}

