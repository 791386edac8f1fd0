import { dump as dumpYaml } from "js-yaml";
import { cutMembers } from "../text-cut/cut-members.js";
import { UnsupportedSource } from "../text-cut/source-nodes.js";
import { parseDocument } from "./parse-document.js";
import { pruneSpec, type Segments } from "./prune-spec.js";
import { notShownMarker } from "./security-not-shown.js";

/**
 * A spec file's text without `parts` (and what only they used, see `pruneSpec`), written as the
 * author wrote the rest: the removed members are cut out of the original text (comments,
 * quoting, key order and blank lines elsewhere stay as they are), and the result is parsed back
 * and compared with the pruned document. Where the cut cannot be made or does not read back the
 * same (YAML anchors, merge keys, explicit keys...), the pruned document is written out instead:
 * JSON with the file's indentation, YAML in block style. Correct first, then faithful.
 */
export function prunedSpecText(text: string, document: Record<string, unknown>, parts: readonly Segments[]): string {
  const plan = pruneSpec(document, parts);
  if (plan.deletions.length === 0) return text;
  const replace = plan.notShown.map((at) => {
    const marker = notShownMarker(at);
    return { at, key: marker.key, value: JSON.stringify(marker.value) };
  });
  try {
    const cut = cutMembers(text, plan.deletions, { replace });
    if (readsBack(cut, plan.value)) return cut;
    // The blank lines above a last member removed go with it, unless they were a kept value's
    // (a `|+` block scalar ending just above): then the cut that leaves them reads back right.
    const leavingBlankLines = cutMembers(text, plan.deletions, { blankLinesAboveLast: false, replace });
    if (leavingBlankLines !== cut && readsBack(leavingBlankLines, plan.value)) return leavingBlankLines;
  } catch (error) {
    if (!(error instanceof UnsupportedSource)) throw error;
  }
  return writeOut(text, plan.value);
}

function readsBack(text: string, value: unknown): boolean {
  const back = parseDocument(text);
  return back.ok && sameJson(back.document, value);
}

function writeOut(text: string, value: unknown): string {
  const newline = text.endsWith("\n") ? "\n" : "";
  if (text.trimStart().startsWith("{")) {
    const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
    return JSON.stringify(value, null, indent) + newline;
  }
  return dumpYaml(value, { lineWidth: -1, noRefs: true });
}

/** Deep equality of two parsed JSON/YAML values (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameJson(v, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(ob, k) && sameJson((a as Record<string, unknown>)[k], ob[k]));
}
