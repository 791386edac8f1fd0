import type { FeedbackStore } from "../store/feedback/store.js";
import { createFeedbackTool } from "./feedback-tool.js";
import { filesystemTool } from "./filesystem-tool.js";
import { searchTool } from "./search-tool.js";
import type { DocsTool } from "./tool.js";

/** The tools every docs server offers, in the order `tools/list` gives them. */
export const CORE_TOOLS: readonly DocsTool[] = [searchTool, filesystemTool];

/** The stores the tools that keep something need (each tool is left out when its store is). */
export interface ToolStores {
  readonly feedback?: { readonly store: FeedbackStore; readonly projectId: string };
}

/**
 * The tools a server offers with these stores: the core tools, then `submit_feedback` where
 * feedback can be kept. The one table both transports (`serve`, `serve --http`) wire from.
 */
export function docsTools(stores: ToolStores): DocsTool[] {
  return [...CORE_TOOLS, ...(stores.feedback !== undefined ? [createFeedbackTool(stores.feedback)] : [])];
}
