import { LIMITS } from "../limits.js";
import { costlyMarkup } from "./markup-cost.js";
import { deepMarkup } from "./markup-depth.js";

/** Why a text is not parsed at all: the `check` code, what (as a reader reads it) and its 1-based line. */
export interface MarkupProblem {
  readonly code: "markup-too-deep" | "markup-too-costly";
  readonly what: string;
  readonly line: number;
}

/** The guards a page's MDX passes before it is parsed (`deepMarkup`, then `costlyMarkup`), for any other Markdown the preview parses (API descriptions). */
export function markupProblem(text: string): MarkupProblem | undefined {
  const deep = deepMarkup(text);
  if (deep !== undefined) return { code: "markup-too-deep", what: `${deep.what} nest more than ${LIMITS.preview.maxMarkupNesting} levels deep`, line: deep.line };
  const costly = costlyMarkup(text, "markdown");
  return costly === undefined ? undefined : { code: "markup-too-costly", what: costly.what, line: costly.line };
}
