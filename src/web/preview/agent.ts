import { el, getJson, PATHS, type PreviewData } from "./dom.js";

/** The agent's view of the page (src/engine/use-cases/agent-view.ts). */
interface AgentView {
  readonly file: string;
  readonly command: string;
  readonly cat: { readonly stdout: string; readonly stderr: string; readonly exitCode: number; readonly truncated: boolean };
  readonly indexed: boolean;
  readonly sections: readonly { readonly heading: string; readonly parents: readonly string[]; readonly anchor: string; readonly text: string }[];
}

/**
 * The agent panel: what an agent gets of this page, as this reader. `cat` of the page as the
 * docs shell prints it, the sections search holds of it, and a box that runs a search or a shell
 * command through the same use cases as the MCP tools, showing the text they answer. Opened by
 * the "Agent view" button or `?agent` in the URL (kept there, so a reload keeps it open).
 */
export function wireAgent(data: PreviewData): void {
  const panel = document.querySelector<HTMLElement>('[data-testid="agent-panel"]');
  const toggle = document.querySelector<HTMLButtonElement>('[data-testid="agent-toggle"]');
  if (panel === null || toggle === null) return;
  let loaded = false;
  const show = (open: boolean): void => {
    // Below the top bar, however tall it wrapped.
    panel.style.setProperty("--top", `${document.querySelector("header.top")?.getBoundingClientRect().bottom ?? 58}px`);
    panel.hidden = !open;
    toggle.setAttribute("aria-pressed", String(open));
    document.body.classList.toggle("agent-open", open);
    const url = new URL(location.href);
    if (open) url.searchParams.set("agent", "");
    else url.searchParams.delete("agent");
    history.replaceState(history.state, "", url.toString().replace(/([?&])agent=(?=&|#|$)/, "$1agent"));
    if (open && !loaded) {
      loaded = true;
      void fill(panel, data);
    }
  };
  toggle.addEventListener("click", () => show(panel.hidden));
  if (new URL(location.href).searchParams.has("agent")) show(true);
}

async function fill(panel: HTMLElement, data: PreviewData): Promise<void> {
  panel.replaceChildren(el("h2", {}, "What an agent gets"), runBox());
  if (data.page === undefined) return;
  const status = el("p", { class: "pending" }, "Reading the page as an agent...");
  panel.insertBefore(status, panel.lastChild);
  try {
    const view = await getJson<AgentView>(`${PATHS.agent}?${new URLSearchParams({ page: data.page }).toString()}`);
    const cat = el("section", { class: "agent-cat" }, el("h3", {}, el("code", {}, view.command)), el("pre", { "data-testid": "agent-cat" }, view.cat.stdout));
    if (view.cat.truncated) cat.append(el("p", { class: "notice" }, "The output was cut at the filesystem tool's output limit, as an agent gets it."));
    if (view.cat.stderr !== "") cat.append(el("pre", { class: "error" }, view.cat.stderr));
    const sections = el("section", { class: "agent-sections" }, el("h3", {}, view.indexed ? `Search sections (${view.sections.length})` : "Search sections"));
    if (!view.indexed) sections.append(el("p", { class: "notice", "data-testid": "agent-not-indexed" }, "Search does not index this page (noindex, hidden, or outside navigation)."));
    else {
      sections.append(
        el(
          "ol",
          { "data-testid": "agent-sections" },
          ...view.sections.map((s) =>
            el(
              "li",
              {},
              el("div", { class: "section-head" }, el("strong", {}, [...s.parents, s.heading || "(opening)"].join(" › ")), s.anchor !== "" ? el("code", {}, ` #${s.anchor}`) : ""),
              el("pre", {}, s.text),
            ),
          ),
        ),
      );
    }
    status.replaceWith(cat, sections);
  } catch (error) {
    status.replaceWith(el("p", { class: "error", role: "alert" }, (error as Error).message));
  }
}

/** The box that runs a search or a shell command as this reader, showing the tool's text. */
function runBox(): HTMLElement {
  const tool = el("select", { name: "tool", "data-testid": "agent-tool", "aria-label": "Tool" }, el("option", { value: "search" }, "search"), el("option", { value: "shell" }, "shell")) as HTMLSelectElement;
  const input = el("input", { name: "input", "data-testid": "agent-input", "aria-label": "Query or command", placeholder: "rate limits   |   rg -il webhook /" }) as HTMLInputElement;
  const output = el("pre", { "data-testid": "agent-output" });
  const form = el("form", { class: "agent-run", "data-testid": "agent-run" }, tool, input, el("button", { type: "submit" }, "Run"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = input.value;
    if (value.trim() === "") return;
    output.textContent = "...";
    const answer =
      tool.value === "search"
        ? getJson<{ text: string }>(`${PATHS.search}?${new URLSearchParams({ query: value }).toString()}`)
        : getJson<{ text: string }>(PATHS.shell, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ command: value }) });
    answer.then(
      (a) => (output.textContent = a.text),
      (error: Error) => (output.textContent = error.message),
    );
  });
  return el("section", { class: "agent-box" }, el("h3", {}, "Run as this reader"), form, output);
}
