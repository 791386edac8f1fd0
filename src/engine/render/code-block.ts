import type { Element, ElementContent } from "hast";
import { common, createLowlight } from "lowlight";
import { el, text } from "./hast.js";

/**
 * Fenced code, highlighted on the server by lowlight (highlight.js grammars of the 37 common
 * languages, bundled): the page gets plain `<span class="hljs-...">` and a style sheet of ours,
 * and no highlighter runs in the browser or is fetched from anywhere. Made on first use: a
 * process that renders no page (a stdio server, `check`) never registers the grammars.
 */
let lowlight: ReturnType<typeof createLowlight> | undefined;

/** Names sites write that the common grammars know under another name. */
const ALIASES: Readonly<Record<string, string>> = { mdx: "markdown", vue: "xml", svelte: "xml", html: "xml", dockerfile: "bash", env: "ini", jsonc: "json", json5: "json" };

/** Words of a code block's meta that are options of the hosted platform's blocks, not a title. */
const META_FLAGS = new Set(["lines", "wrap", "expandable", "twoslash", "highlight", "focus", "copy", "showLineNumbers"]);

/** The title a code block's meta gives it: `title="x"`, or its first plain word (```` ```bash npm ````). */
export function codeTitle(meta: string | null | undefined): string | undefined {
  if (meta === null || meta === undefined) return undefined;
  const quoted = /(?:^|\s)title=(?:"([^"]*)"|'([^']*)')/.exec(meta);
  if (quoted !== null) return quoted[1] ?? quoted[2];
  // Drop `{1,3-5}` line ranges and `key=value` / `key={...}` options, keep the rest as the title.
  const words = meta
    .replace(/\b[\w-]+=(?:\{[^}]*\}|"[^"]*"|'[^']*'|\S+)/g, " ")
    .replace(/\{[^}]*\}/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "" && !META_FLAGS.has(w));
  return words.length > 0 ? words.join(" ") : undefined;
}

/** A code block: `<figure class="code-block">` with its title, and the code highlighted when its language is known. */
export function codeBlock(value: string, lang: string | null | undefined, meta: string | null | undefined): Element {
  const language = (lang ?? "").toLowerCase();
  const grammar = ALIASES[language] ?? language;
  const title = codeTitle(meta);
  let code: ElementContent[] = [text(value)];
  if (grammar !== "") {
    lowlight ??= createLowlight(common);
    if (lowlight.registered(grammar)) code = lowlight.highlight(grammar, value).children as ElementContent[];
  }
  const className = ["hljs", ...(language !== "" ? [`language-${language}`] : [])];
  return el("figure", { className: ["code-block"], ...(language !== "" ? { dataLang: language } : {}), ...(title !== undefined ? { dataTitle: title } : {}) }, [
    ...(title !== undefined ? [el("figcaption", {}, [text(title)])] : []),
    el("pre", {}, [el("code", { className }, code)]),
  ]);
}
