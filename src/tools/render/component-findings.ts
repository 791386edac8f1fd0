import { posix } from "node:path";
import type { Nodes, Root } from "mdast";
import type { Diagnostic } from "../../config/diagnostic.js";
import { isKnownComponent } from "./components/index.js";
import { parseMdx } from "./parse-mdx.js";

/** Codes of the findings about how pages render (listed in docs/docs-json.md). */
export const RENDER_CODES = ["unknown-component", "mdx-syntax"] as const;

/** Where a name a page uses as a component comes from. */
type Origin = { readonly kind: "snippet"; readonly file: string } | { readonly kind: "import"; readonly source: string } | { readonly kind: "export" };

/** The subset of ESTree read from ESM blocks: import and export declarations and the names they bind. */
interface EsmNode {
  readonly type: string;
  readonly source?: { readonly value?: unknown } | null;
  readonly specifiers?: readonly { readonly type: string; readonly local?: { readonly name?: string } }[];
  readonly declaration?: { readonly type: string; readonly id?: { readonly name?: string } | null; readonly declarations?: readonly { readonly id?: { readonly name?: string } }[] } | null;
}

/**
 * What the preview cannot show of a page as the hosted platform would: text MDX refuses (shown
 * as Markdown, without components), and each component it does not know (shown as its
 * children: one defined in code, imported or exported, or a name it has never heard of). A
 * default import of an MDX file that exists is a snippet, inlined as search inlines it.
 * `exists` says whether a site file exists at an absolute path.
 */
export function renderFindings(file: string, body: string, bodyLine: number, exists: (path: string) => boolean): Diagnostic[] {
  const parsed = parseMdx(body);
  const out: Diagnostic[] = [];
  const lineOf = (line: number | undefined): { line?: number } => (line !== undefined ? { line: line + bodyLine - 1 } : {});
  if (parsed.problem !== undefined) {
    const p = parsed.problem;
    out.push({
      severity: "warning",
      file,
      ...lineOf(p.line),
      ...(p.column !== undefined ? { column: p.column } : {}),
      code: "mdx-syntax",
      message: `not valid MDX (${p.message}): the preview shows the page as Markdown, without its components`,
    });
    return out;
  }
  const origins = esmOrigins(parsed.tree, posix.dirname(`/${file}`), exists);
  const uses = new Map<string, { line: number | undefined; column: number | undefined; count: number }>();
  const visit = (node: Nodes): void => {
    if ((node.type === "mdxJsxFlowElement" || node.type === "mdxJsxTextElement") && typeof node.name === "string" && /^[A-Z]/.test(node.name)) {
      const name = node.name.split(".")[0] as string;
      if (!isKnownComponent(node.name) && origins.get(name)?.kind !== "snippet") {
        const seen = uses.get(node.name);
        if (seen !== undefined) seen.count++;
        else uses.set(node.name, { line: node.position?.start.line, column: node.position?.start.column, count: 1 });
      }
    }
    if ("children" in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(parsed.tree);
  for (const [name, use] of uses) {
    const origin = origins.get(name.split(".")[0] as string);
    const times = use.count === 1 ? "" : ` (used ${use.count} times)`;
    const why =
      origin?.kind === "import"
        ? `comes from ${origin.source}, code the preview does not run`
        : origin?.kind === "export"
          ? "is defined in this page's code, which the preview does not run"
          : "is not a component the preview knows";
    out.push({
      severity: "warning",
      file,
      ...lineOf(use.line),
      ...(use.column !== undefined ? { column: use.column } : {}),
      code: "unknown-component",
      message: `<${name}>${times} ${why}: it shows the element's children`,
    });
  }
  return out;
}

/** Names the page's ESM binds: snippets (default imports of MDX files that exist), other imports, exports. */
function esmOrigins(tree: Root, dir: string, exists: (path: string) => boolean): Map<string, Origin> {
  const out = new Map<string, Origin>();
  for (const node of tree.children) {
    if (node.type !== "mdxjsEsm") continue;
    for (const statement of ((node.data?.estree?.body ?? []) as unknown as EsmNode[])) {
      if (statement.type === "ImportDeclaration") {
        const source = typeof statement.source?.value === "string" ? statement.source.value : "";
        for (const s of statement.specifiers ?? []) {
          const local = s.local?.name;
          if (local === undefined) continue;
          const file = /\.mdx?$/i.test(source) && !/^[a-z][\w+.-]*:/i.test(source) ? (source.startsWith("/") ? posix.normalize(source) : posix.join(dir, source)) : undefined;
          out.set(local, s.type === "ImportDefaultSpecifier" && file !== undefined && exists(file) ? { kind: "snippet", file } : { kind: "import", source });
        }
      } else if (statement.type === "ExportNamedDeclaration" || statement.type === "ExportDefaultDeclaration") {
        const d = statement.declaration;
        for (const name of [d?.id?.name, ...(d?.declarations ?? []).map((x) => x.id?.name)]) if (name !== undefined) out.set(name, { kind: "export" });
      }
    }
  }
  return out;
}
