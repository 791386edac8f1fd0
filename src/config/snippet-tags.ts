import { posix } from "node:path";
import { codeRanges, insideRanges } from "./code-ranges.js";

/**
 * The platform's older way to reuse a snippet, still written by real sites (upstash: 90 uses,
 * mem0) and still read by the platform (its CLI checks "links inside `<Snippet>` components"):
 *
 *     <Snippet file="get-help.mdx" />
 *
 * names a file under `/_snippets/` (or `/snippets/`) and shows its text there, as a default import of it would
 * (`engine/search/includes.ts`); other string attributes fill its `{name}`s. Without an
 * extension (`file="redis/note"`) the `.mdx`, then `.md`, file of that name. Only `.md`/`.mdx`
 * files are snippets, as only their default imports are inlined: a spec or any other file a tag
 * names is shown by nothing (a spec's text is each reader's own copy, `vfs/spec-variants.ts`,
 * which no page text may carry past them: adversary round 55 F1).
 */
export const SNIPPET_TAG_RE = /<Snippet((?:\s[^<>]*?)?)(?:\/>|>[\s\S]*?<\/Snippet\s*>)/g;

/** Whether a text may hold a `<Snippet>` tag (the quick test before `SNIPPET_TAG_RE`). */
export function mayHaveSnippetTag(text: string): boolean {
  return text.includes("<Snippet");
}

/** The `file` attribute of a tag's attributes (`file="x"`, `file='x'`, `file={"x"}`), if any. */
export function snippetFileOf(attributes: string): string | undefined {
  const m = /(?:^|\s)file=(?:"([^"]*)"|'([^']*)'|\{"([^"]*)"\}|\{'([^']*)'\})/.exec(attributes);
  const file = m === null ? undefined : (m[1] ?? m[2] ?? m[3] ?? m[4]);
  return file === undefined || file.trim() === "" ? undefined : file.trim();
}

/**
 * The site paths a `file` may name, in the order tried: under `/_snippets/` (where the platform's
 * older sites keep the files this tag names: upstash, mem0), then `/snippets/`; a name not ending
 * in `.md`/`.mdx`, the `.mdx` then `.md` file of that name. None for a URL or a path that leaves both.
 */
export function snippetPaths(file: string): string[] {
  if (/^[a-z][\w+.-]*:/i.test(file)) return [];
  const rest = file.replace(/^\/*(?:_?snippets\/)?/, "");
  return SNIPPET_FOLDERS.flatMap((folder) => {
    const path = posix.normalize(`${folder}${rest}`);
    if (!path.startsWith(folder) || path === folder) return [];
    return /\.mdx?$/i.test(path) ? [path] : [`${path}.mdx`, `${path}.md`];
  });
}

const SNIPPET_FOLDERS = ["/_snippets/", "/snippets/"];

/** A `<Snippet>` tag of a text: where it stands and its attributes. */
export interface SnippetTag {
  readonly start: number;
  readonly end: number;
  readonly attributes: string;
}

/**
 * The `<Snippet>` tags of `text` from `from` on (after a page's front matter), in order: the one
 * reading of which tags are snippets, for search's text, the reader's copy and the HTML page
 * (`vfs/snippet-target.ts` and its callers). A tag written as code, in a code span
 * (`` `<Snippet file="a.mdx" />` ``) or a fenced block (`codeRanges`), is no tag: the page shows
 * it as text, as the platform does, so it is never included, nor cut from a reader's copy.
 */
export function snippetTags(text: string, from = 0): SnippetTag[] {
  if (!mayHaveSnippetTag(text)) return [];
  const out: SnippetTag[] = [];
  let code: ReturnType<typeof codeRanges> | undefined;
  const re = new RegExp(SNIPPET_TAG_RE.source, "g");
  re.lastIndex = from;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    code ??= codeRanges(text, from);
    if (insideRanges(code, m.index)) {
      // A tag's text in code may hold the start of a real tag after the span ends: read on from
      // just after this `<`, not after the whole match.
      re.lastIndex = m.index + 1;
      continue;
    }
    out.push({ start: m.index, end: m.index + m[0].length, attributes: m[1] ?? "" });
  }
  return out;
}
