/**
 * The feedback dashboard (browser code, bundled into /_svc/assets/dashboard.js with uPlot). The
 * admin API key lives only in this module's memory: never in storage or a cookie, gone with the
 * tab. Every figure comes from the analytics API, called with the key.
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

const SOURCES = ["code_snippet", "contextual", "agent", "thumbs_only"] as const;
const STATUSES = ["pending", "in_progress", "resolved", "dismissed"] as const;
const COLORS = ["#1f5fd6", "#1f7a4d", "#a05a00", "#b42318"];
/** Entries per page of the table. */
const PAGE_SIZE = 20;
/** A day in uPlot's time unit (seconds). */
const DAY_SECONDS = 86_400;

interface Entry {
  readonly id: string;
  readonly source: string;
  readonly status: string;
  readonly path: string;
  readonly comment: string;
  readonly createdAt: string;
}
interface Day {
  readonly date: string;
  readonly bySource: Record<string, number>;
  readonly byStatus: Record<string, number>;
}
interface Summary {
  readonly total: number;
  readonly days: readonly Day[];
  readonly negativePages: readonly { path: string; count: number }[];
}

const root = document.getElementById("dashboard") as HTMLElement;
const project = root.dataset.project ?? "";
const keyForm = document.getElementById("key-form") as HTMLFormElement;
const keyInput = document.getElementById("admin-key") as HTMLInputElement;
const signedIn = document.getElementById("signed-in") as HTMLElement;
const signOut = document.getElementById("sign-out") as HTMLButtonElement;
const errorBox = document.getElementById("dashboard-error") as HTMLElement;
const dataBox = document.getElementById("dashboard-data") as HTMLElement;
const filters = document.getElementById("filters") as HTMLFormElement;
const chartBox = document.getElementById("feedback-chart") as HTMLElement;
const negative = document.getElementById("negative-pages") as HTMLElement;
const rows = document.getElementById("entries") as HTMLElement;
const more = document.getElementById("more") as HTMLButtonElement;

let key: string | undefined;
let cursor: string | null = null;
let summary: Summary | undefined;
let chart: uPlot | undefined;

class ApiFailure extends Error {}

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`/v1/analytics/${encodeURIComponent(project)}/${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${key ?? ""}` },
    credentials: "omit",
  });
  const body = (await res.json()) as T & { error?: { message?: string } };
  if (!res.ok) throw new ApiFailure(body.error?.message ?? `${res.status} ${res.statusText}`);
  return body;
}

function showError(message: string | undefined): void {
  errorBox.textContent = message ?? "";
  errorBox.hidden = message === undefined;
}

keyForm.addEventListener("submit", (event) => {
  event.preventDefault();
  key = keyInput.value.trim();
  void (async () => {
    try {
      // The key is checked before anything is shown: a wrong one leaves the page empty.
      await api("feedback?limit=1");
      keyInput.value = "";
      showError(undefined);
      showSignedIn(true);
      await reload();
    } catch (error) {
      forget();
      showError((error as Error).message);
    }
  })();
});

// Signing out forgets the key (it was only ever in this variable) and everything it showed.
signOut.addEventListener("click", () => {
  forget();
  showError(undefined);
  keyInput.focus();
});

/** Signed in: the data and the sign-out; signed out: the key form alone. */
function showSignedIn(yes: boolean): void {
  keyForm.hidden = yes;
  signedIn.hidden = !yes;
  dataBox.hidden = !yes;
}

function forget(): void {
  key = undefined;
  summary = undefined;
  cursor = null;
  showSignedIn(false);
  rows.replaceChildren();
  negative.replaceChildren();
  chart?.destroy();
  chart = undefined;
}

filters.addEventListener("submit", (event) => {
  event.preventDefault();
  void reload().catch((error: Error) => showError(error.message));
});
for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="by"]')) radio.addEventListener("change", () => drawChart());
more.addEventListener("click", () => void loadPage().catch((error: Error) => showError(error.message)));

/** The filters as API query parameters; the "To" date is inclusive on the page, exclusive in the API. */
function query(): URLSearchParams {
  const q = new URLSearchParams();
  const data = new FormData(filters);
  const from = String(data.get("dateFrom") ?? "");
  const to = String(data.get("dateTo") ?? "");
  if (from !== "") q.set("dateFrom", from);
  if (to !== "") q.set("dateTo", new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
  for (const name of ["source", "status"]) {
    const v = String(data.get(name) ?? "");
    if (v !== "") q.set(name, v);
  }
  return q;
}

/** Fetches the summary and the first page, then swaps both in at once: the table never shows empty while it loads. */
async function reload(): Promise<void> {
  const q = query();
  const [fresh, first] = await Promise.all([api<Summary>(`feedback-summary?${q.toString()}`), fetchPage(null)]);
  summary = fresh;
  drawChart();
  negative.replaceChildren(
    ...summary.negativePages.map((p) => {
      const li = document.createElement("li");
      li.textContent = `${p.path} (${p.count})`;
      return li;
    }),
  );
  rows.replaceChildren();
  showPage(first);
  showError(undefined);
}

type FeedbackPage = { feedback: Entry[]; nextCursor: string | null; hasMore: boolean };

function fetchPage(after: string | null): Promise<FeedbackPage> {
  const q = query();
  q.set("limit", String(PAGE_SIZE));
  if (after !== null) q.set("cursor", after);
  return api<FeedbackPage>(`feedback?${q.toString()}`);
}

function showPage(page: FeedbackPage): void {
  for (const e of page.feedback) rows.append(row(e));
  cursor = page.nextCursor;
  more.hidden = !page.hasMore;
}

async function loadPage(): Promise<void> {
  showPage(await fetchPage(cursor));
}

function row(e: Entry): HTMLTableRowElement {
  const tr = document.createElement("tr");
  tr.dataset.testid = "feedback-row";
  tr.setAttribute("data-testid", "feedback-row");
  tr.dataset.id = e.id;
  for (const text of [e.createdAt.slice(0, 16).replace("T", " "), e.source, e.path, e.comment]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  const td = document.createElement("td");
  const select = document.createElement("select");
  select.setAttribute("data-testid", "feedback-status");
  select.setAttribute("aria-label", `Status of ${e.id}`);
  for (const s of STATUSES) select.append(new Option(s, s, false, s === e.status));
  let current = e.status;
  select.addEventListener("change", () => {
    const wanted = select.value;
    void api<Entry>(`feedback/${encodeURIComponent(e.id)}`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ status: wanted }) }).then(
      (updated) => {
        current = updated.status;
        select.dataset.saved = current;
        showError(undefined);
      },
      (error: Error) => {
        select.value = current;
        showError(error.message);
      },
    );
  });
  td.append(select);
  tr.append(td);
  return tr;
}

function drawChart(): void {
  if (summary === undefined) return;
  const by = document.querySelector<HTMLInputElement>('input[name="by"]:checked')?.value === "status" ? "status" : "source";
  const keys: readonly string[] = by === "source" ? SOURCES : STATUSES;
  // uPlot's time scale counts seconds (not JavaScript's milliseconds): each day at its UTC midnight.
  const xs = summary.days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
  const series = keys.map((k) => summary!.days.map((d) => (by === "source" ? d.bySource[k] : d.byStatus[k]) ?? 0));
  chart?.destroy();
  const width = Math.max(320, chartBox.clientWidth || 860);
  chart = new uPlot(
    {
      width,
      height: 260,
      series: [{}, ...keys.map((k, i) => ({ label: k, stroke: COLORS[i % COLORS.length] as string, width: 2, points: { show: true } }))],
      axes: [{}, { label: "entries" }],
      // From half a day before the first day to half a day after the last, from the data itself:
      // for a single day uPlot widens the range by the magnitude of the value (years of seconds).
      scales: { x: { time: true, range: (_u, min, max) => (xs.length === 0 ? [min, max] : [(xs[0] as number) - DAY_SECONDS / 2, (xs.at(-1) as number) + DAY_SECONDS / 2]) } },
      // The days are UTC days (the API counts them so): label them in UTC, not the browser's zone.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
      hooks: { setScale: [(u, scale) => scale === "x" && showRange(u)] },
    },
    [xs, ...series],
    chartBox,
  );
  chartBox.dataset.series = keys.join(",");
  chartBox.dataset.points = String(xs.length);
}

/** What the time axis spans, on the chart's element (for a test to compare with the entries' dates). */
function showRange(u: uPlot): void {
  const { min, max } = u.scales.x ?? {};
  if (min !== undefined && max !== undefined) chartBox.dataset.xRange = `${new Date(min * 1000).toISOString()}/${new Date(max * 1000).toISOString()}`;
}

keyForm.dataset.readyAt = String(Math.round(performance.now()));
keyForm.dataset.ready = "true";
