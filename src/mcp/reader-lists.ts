import type { Resource } from "@modelcontextprotocol/server";
import type { RequestContext } from "../vfs/request-context.js";
import type { DocsRuntime, ReaderState } from "../engine/runtime.js";
import { listTools } from "./tool-calls.js";
import type { DocsTool, ToolText } from "./tool.js";
import { appResources } from "./ui-extension.js";

/** What tool titles and descriptions are written from, for one reader. */
export function toolText(runtime: DocsRuntime, state: ReaderState): ToolText {
  return { siteName: runtime.site.config.name, names: runtime.names, outline: state.outline };
}

/** `resources/list`: the reader's skills, in the site's order. */
export function listResources(state: ReaderState): Resource[] {
  return state.skills.map((s) => ({
    uri: s.uri,
    name: s.name,
    title: s.name,
    description: s.description,
    mimeType: "text/markdown",
    size: s.file.size,
  }));
}

/**
 * What one reader's `tools/list` and `resources/list` answer, as text to compare: after a site
 * change a reader is told `list_changed` for a list only when its own answer changed (a page
 * edit that changes no tool text and no skill tells nobody; a restricted skill tells only the
 * readers who see it).
 */
export interface ListFingerprints {
  readonly tools: string;
  readonly resources: string;
}

export function listFingerprints(runtime: DocsRuntime, tools: readonly DocsTool[], context: RequestContext, apps = false): ListFingerprints {
  const state = runtime.readerState(context);
  // `apps`: the client renders MCP Apps, so its lists hold the reader's apps and their tool too.
  const resources = apps ? [...listResources(state), ...appResources(runtime, context)] : listResources(state);
  return { tools: JSON.stringify(listTools(tools, toolText(runtime, state), apps)), resources: JSON.stringify(resources) };
}

/** Which of a reader's lists differ between two fingerprints. */
export function changedLists(before: ListFingerprints, after: ListFingerprints): { readonly tools: boolean; readonly resources: boolean } {
  return { tools: before.tools !== after.tools, resources: before.resources !== after.resources };
}
