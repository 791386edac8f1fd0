import { posix } from "node:path";
import type { Diagnostic } from "../../config/diagnostic.js";
import { mdxImports } from "../../config/mdx-imports.js";
import { LIMITS } from "../../limits.js";
import { isKnownComponent } from "./components/index.js";
import { costlyMarkup } from "../../config/markup-cost.js";
import { deepMarkup } from "../../config/markup-depth.js";
import { snippetFileOf, snippetPaths } from "../../config/snippet-tags.js";
import { visibilityTags } from "../../config/visibility.js";

/** Codes of the findings about how pages render in the preview (listed in docs/docs-json.md). */
export const RENDER_CODES = ["unknown-component", "visibility-for", "markup-too-deep", "markup-too-costly"] as const;

/** Where a name a page uses as a component comes from. */
type Origin =
  | { readonly kind: "snippet"; readonly file: string }
  | { readonly kind: "missing"; readonly file: string }
  | { readonly kind: "import"; readonly source: string }
  | { readonly kind: "export" };

/** `<Name` or `<Name.Part` opening a component (not `</Name>`, not `\<Name`). */
const TAG_RE = /(?<![\\\w])<([A-Z][\w$]*(?:\.[\w$]+)*)(?=[\s/>]|$)/g;
/** A fence, at any indentation: inside a component (`<Step>`) code blocks are indented with it. */
const FENCE_RE = /^[ \t]*(`{3,}|~{3,})/;
/** `export const Name`, `export function Name`: a component defined in the page's code. */
const EXPORT_RE = /^export\s+(?:default\s+)?(?:const|let|var|function\*?|class)\s+([A-Z][\w$]*)/;

/**
 * The components a page uses that the preview does not know, each shown there as its children:
 * one defined in code (imported from a `.jsx`/`.mdx` module by name, or exported by the page),
 * a snippet whose file the site does not serve, or a name it has never heard of. A default
 * import of an MDX file that exists is a snippet, inlined as search inlines it. One finding per
 * name and file, at its first use. A scan of the text outside fenced code and code spans, not a
 * parse: `check` reads every page of a site of a thousand in milliseconds, where parsing MDX
 * takes seconds (docs/preview.md). `exists` says whether a site file exists at an absolute path.
 * First, markup nested deeper than the preview parses (`markup-too-deep`) or costing its parser
 * far more than the page's length (`markup-too-costly`): the page shows as text.
 */
export function renderFindings(file: string, body: string, bodyLine: number, exists: (path: string) => boolean): Diagnostic[] {
  const deep = deepMarkup(body);
  const tooDeep: Diagnostic[] =
    deep === undefined
      ? []
      : [
          {
            severity: "warning",
            file,
            line: deep.line + bodyLine - 1,
            code: "markup-too-deep",
            message: `the page's ${deep.what} nest more than ${LIMITS.preview.maxMarkupNesting} levels deep: the preview shows it as plain text`,
          },
        ];
  const costly = deep === undefined ? costlyMarkup(body) : undefined;
  const tooCostly: Diagnostic[] =
    costly === undefined
      ? []
      : [{ severity: "warning", file, line: costly.line + bodyLine - 1, code: "markup-too-costly", message: `the page's ${costly.what}: the preview shows it as plain text` }];
  return [...tooDeep, ...tooCostly, ...componentFindings(file, body, bodyLine, exists), ...visibilityFindings(file, body, bodyLine)];
}

/** `unknown-component` findings: see `renderFindings`. */
function componentFindings(file: string, body: string, bodyLine: number, exists: (path: string) => boolean): Diagnostic[] {
  if (!body.includes("<")) return [];
  const origins = originsOf(body, posix.dirname(`/${file}`), exists);
  const uses = new Map<string, { line: number; column: number; count: number }>();
  const snippets: Diagnostic[] = [];
  // `<Snippet file>` (`config/snippet-tags.ts`): shown as its file's text, or said why not. The
  // attributes are read on the tag's line (the platform's examples write it on one).
  const snippetUse = (line: string, after: number, lineNo: number, column: number): void => {
    const attributes = /^[^<>]*/.exec(line.slice(after))?.[0] ?? "";
    const named = snippetFileOf(attributes);
    if (named !== undefined && snippetPaths(named).some(exists)) return;
    // A spec or other file of that name: only Markdown is a snippet (`snippetPaths`).
    const notMarkdown = named !== undefined && !/\.mdx?$/i.test(named) && snippetPaths(`${named}.mdx`).some((p) => exists(p.slice(0, -".mdx".length)));
    const why =
      named === undefined
        ? 'names no file (`file="name.mdx"`, under /_snippets/ or /snippets/)'
        : notMarkdown
          ? `names ${named}, which is not a .md or .mdx file (only Markdown is a snippet)`
          : `names ${named}, no file the site serves under /_snippets/ or /snippets/ (missing, ignored or unreadable)`;
    snippets.push({ severity: "warning", file, line: lineNo, column, code: "unknown-component", message: `<Snippet> ${why}: nothing is shown in its place` });
  };
  let fence: string | undefined;
  body.split("\n").forEach((line, i) => {
    const f = FENCE_RE.exec(line);
    if (f !== null) {
      const marker = f[1] as string;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker.trim()) fence = undefined;
      return;
    }
    if (fence !== undefined || !line.includes("<")) return;
    // Code spans hide their text, keeping the columns of the rest.
    const text = line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));
    for (const m of text.matchAll(TAG_RE)) {
      const name = m[1] as string;
      if (name === "Snippet") {
        snippetUse(text, (m.index ?? 0) + m[0].length, i + bodyLine, (m.index ?? 0) + 1);
        continue;
      }
      if (isKnownComponent(name) || origins.get(name.split(".")[0] as string)?.kind === "snippet") continue;
      const seen = uses.get(name);
      if (seen !== undefined) seen.count++;
      else uses.set(name, { line: i + bodyLine, column: (m.index ?? 0) + 1, count: 1 });
    }
  });
  return [...snippets, ...[...uses].map(([name, use]): Diagnostic => {
    const origin = origins.get(name.split(".")[0] as string);
    const times = use.count === 1 ? "" : ` (used ${use.count} times)`;
    const why =
      origin?.kind === "missing"
        ? `comes from ${origin.file}, which the site does not serve (missing, ignored or unreadable)`
        : origin?.kind === "import"
          ? `comes from ${origin.source}, code the preview does not run`
          : origin?.kind === "export"
            ? "is defined in this page's code, which the preview does not run"
            : "is not a component the preview knows";
    return { severity: "warning", file, line: use.line, column: use.column, code: "unknown-component", message: `<${name}>${times} ${why}: it shows the element's children` };
  })];
}

/** Names the page's ESM binds: snippets (default imports of MDX files that exist), other imports, exports. */
function originsOf(body: string, dir: string, exists: (path: string) => boolean): Map<string, Origin> {
  const out = new Map<string, Origin>();
  for (const statement of mdxImports(body)) {
    const source = statement.source;
    const mdx = /\.mdx?$/i.test(source) && !/^[a-z][\w+.-]*:/i.test(source);
    const path = source.startsWith("/") ? posix.normalize(source) : posix.join(dir, source);
    const text = body.slice(statement.start, statement.end);
    // `import Name from` binds the default export: an MDX file's default export is its text.
    const defaultName = /^\s*import\s+([\p{ID_Start}$][\p{ID_Continue}$]*)\s*(?:,|from\b)/u.exec(text)?.[1];
    for (const name of statement.names) {
      out.set(name, mdx && name === defaultName ? (exists(path) ? { kind: "snippet", file: path } : { kind: "missing", file: path }) : { kind: "import", source });
    }
  }
  for (const line of body.split("\n")) {
    const m = EXPORT_RE.exec(line);
    if (m !== null) out.set(m[1] as string, { kind: "export" });
  }
  return out;
}

/**
 * `visibility-for` findings: a `<Visibility>` whose `for` is missing or not `humans` / `agents`
 * (Mintlify requires one of the two). Its content is then shown to both, people and agents
 * (`config/visibility.ts`): nothing is lost, and the author learns which it was meant for.
 */
function visibilityFindings(file: string, body: string, bodyLine: number): Diagnostic[] {
  return visibilityTags(body).flatMap(({ line, column, value }): Diagnostic[] => {
    if (value.kind === "audience") return [];
    const what = value.kind === "missing" ? "has no `for`" : `has for=${value.written}`;
    return [{ severity: "warning", file, line: line + bodyLine - 1, column, code: "visibility-for", message: `<Visibility> ${what}, not "humans" or "agents": its content is shown to both, people and agents` }];
  });
}
