/**
 * Tabs and code groups: the server writes the buttons and hides every panel but the first; a
 * click shows its panel. Delegated from the document, so panels added later work too.
 */
export function wireTabs(): void {
  document.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>("[data-tabs] > .tab-list > button.tab");
    if (button == null) return;
    select(button);
  });
}

/** Show the panel of a tab button, hide its siblings'. */
export function select(button: HTMLButtonElement): void {
  const group = button.closest("[data-tabs]");
  if (group === null) return;
  const index = button.dataset["index"];
  for (const b of group.querySelectorAll<HTMLButtonElement>(":scope > .tab-list > button.tab")) b.setAttribute("aria-selected", b === button ? "true" : "false");
  for (const panel of group.querySelectorAll<HTMLElement>(":scope > [data-index]")) {
    if (panel.tagName === "BUTTON") continue;
    panel.hidden = panel.dataset["index"] !== index;
  }
}

/**
 * Make an element reachable: open the `<details>` around it (an accordion, a folded schema
 * field) and show the tab panels it is in, so a link to `#body-user-email` lands on it.
 */
export function reveal(target: Element): void {
  for (let node: Element | null = target; node !== null; node = node.parentElement) {
    if (node instanceof HTMLDetailsElement) node.open = true;
    const group = node.parentElement;
    if (node instanceof HTMLElement && node.hidden && group?.hasAttribute("data-tabs") === true) {
      const button = group.querySelector<HTMLButtonElement>(`:scope > .tab-list > button.tab[data-index="${node.dataset["index"] ?? ""}"]`);
      if (button !== null) select(button);
    }
  }
}

/** Reveal the element the URL's fragment names, now and on every change of it. */
export function wireTargets(): void {
  const go = (): void => {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id === "" ? null : document.getElementById(id);
    if (target === null) return;
    reveal(target);
    target.scrollIntoView();
  };
  window.addEventListener("hashchange", go);
  go();
}

/** A copy button on every code block. */
export function wireCopy(): void {
  for (const figure of document.querySelectorAll<HTMLElement>("figure.code-block")) {
    const code = figure.querySelector("pre code");
    if (code === null) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.addEventListener("click", () => {
      void navigator.clipboard?.writeText(code.textContent ?? "").then(() => {
        button.textContent = "Copied";
      });
    });
    figure.prepend(button);
  }
}
