import type { Diagnostic } from "../diagnostic.js";
import { markupProblem } from "../markup-problem.js";
import type { ApiOperation } from "./model.js";

/**
 * `check`'s warnings for a spec's Markdown the API reference page would not parse (adversary
 * finding 41: an operation whose description was 20,000 `[a](` took 6.5 s to render): the same
 * guards as a page's (`markupProblem`), at the spec and the JSON path of the text
 * (`paths./bad.get.description`). The page shows such a text as plain text (`parseMarkdown`).
 */
export function descriptionFindings(source: string, operations: readonly ApiOperation[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const op of operations) {
    const base = op.pointer
      .slice(1)
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .join(".");
    const texts: [string, string | undefined][] = [
      ["description", op.description],
      ["x-svc.content", op.extension?.content],
      ["requestBody.description", op.requestBody?.description],
      ...op.parameters.map((p, i): [string, string | undefined] => [`parameters[${i}].description`, p.description]),
      ...op.responses.map((r): [string, string | undefined] => [`responses.${r.status}.description`, r.description]),
    ];
    for (const [path, text] of texts) {
      if (text === undefined) continue;
      const problem = markupProblem(text);
      if (problem === undefined) continue;
      out.push({
        severity: "warning",
        file: source,
        path: `${base}.${path}`,
        code: problem.code,
        message: `its ${problem.what} (line ${problem.line} of the text): the API reference shows it as plain text`,
      });
    }
  }
  return out;
}
