import { el, getJson, PATHS, type PreviewData } from "./dom.js";

/** One result, as the search tool gives it, with its link on this server. */
interface Result {
  readonly title: string;
  readonly section: string;
  readonly href: string;
  readonly snippet: string;
  readonly file: string;
}

/** A pause in typing before a search is sent: one request per word typed, not per key. */
const TYPING_PAUSE_MS = 150;

/**
 * The search box: the same search as the MCP tool, as this reader, in the page's version and
 * language; results show title, section and snippet and link to the section. Enter opens the first.
 */
export function wireSearch(data: PreviewData): void {
  const form = document.querySelector<HTMLFormElement>('[data-testid="search-form"]');
  const input = form?.querySelector<HTMLInputElement>('input[name="query"]');
  const box = form?.querySelector<HTMLElement>('[data-testid="search-results"]');
  if (form == null || input == null || box == null) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | undefined;
  let first: string | undefined;
  const run = async (query: string): Promise<void> => {
    pending?.abort();
    const abort = new AbortController();
    pending = abort;
    const params = new URLSearchParams({ query, pageSize: "8" });
    if (data.version !== undefined) params.set("version", data.version);
    if (data.language !== undefined) params.set("language", data.language);
    try {
      const { results } = await getJson<{ results: Result[] }>(`${PATHS.search}?${params.toString()}`, { signal: abort.signal });
      first = results[0]?.href;
      box.replaceChildren(
        ...(results.length === 0
          ? [el("p", { class: "empty" }, `No results for "${query}".`)]
          : results.map((r) =>
              el(
                "a",
                { class: "result", href: r.href, "data-testid": "search-result" },
                el("span", { class: "result-title" }, r.section !== "" && r.section !== r.title ? `${r.title} › ${r.section}` : r.title),
                el("span", { class: "result-snippet" }, r.snippet),
              ),
            )),
      );
    } catch (error) {
      if (abort.signal.aborted) return;
      box.replaceChildren(el("p", { class: "error", role: "alert" }, (error as Error).message));
    }
    box.hidden = false;
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query === "") {
      box.hidden = true;
      return;
    }
    timer = setTimeout(() => void run(query), TYPING_PAUSE_MS);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (first !== undefined) location.assign(first);
    else if (input.value.trim() !== "") void run(input.value.trim());
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") box.hidden = true;
  });
}
