import { filesystemTool } from "./filesystem-tool.js";
import { searchTool } from "./search-tool.js";
import type { DocsTool } from "./tool.js";

/** The tools every docs server offers. Others (e.g. `submit_feedback`) are added by the caller. */
export const CORE_TOOLS: readonly DocsTool[] = [searchTool, filesystemTool];
