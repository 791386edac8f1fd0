import { PATHS, type PreviewData } from "./dom.js";

/** Where the page was scrolled, kept across a live reload. */
const SCROLL_KEY = "svc-preview-scroll";

/**
 * Live reload: on every change of the docs the server says so on an event stream; the page asks
 * for itself again and reloads when its answer differs (another status, or another digest of its
 * body: `<meta name="svc-digest">`), keeping where it was scrolled.
 */
export function wireLiveReload(data: PreviewData): void {
  const kept = sessionStorage.getItem(SCROLL_KEY);
  if (kept !== null) {
    sessionStorage.removeItem(SCROLL_KEY);
    const [path, y] = kept.split("\n");
    if (path === location.pathname) window.scrollTo(0, Number(y));
  }
  const mine = digestOf(document);
  // A page that is none (the 404 page) has no page path.
  const found = data.page !== undefined;
  const events = new EventSource(PATHS.events);
  let checking = false;
  events.addEventListener("change", () => {
    if (checking) return;
    checking = true;
    void fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" })
      .then(async (res) => {
        const doc = new DOMParser().parseFromString(await res.text(), "text/html");
        if (res.ok === found && digestOf(doc) === mine) return;
        sessionStorage.setItem(SCROLL_KEY, `${location.pathname}\n${window.scrollY}`);
        location.reload();
      })
      .finally(() => {
        checking = false;
      });
  });
  document.body.dataset["live"] = "connecting";
  events.addEventListener("ready", () => {
    document.body.dataset["live"] = "ready";
  });
}

function digestOf(doc: Document): string | null {
  return doc.querySelector('meta[name="svc-digest"]')?.getAttribute("content") ?? null;
}
