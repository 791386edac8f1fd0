import { listSpecReferences } from "../spec-references.js";
import type { Rule } from "./rule.js";

/** A local spec file named by `openapi` / `asyncapi` must exist (URLs are not fetched here). */
export const specFilesRule: Rule = {
  codes: ["spec-file"],
  needsFiles: true,
  check({ doc, model, files, report }) {
    if (files === undefined) return;
    for (const ref of listSpecReferences(doc, model)) {
      for (const s of ref.sources) {
        if (s.remote || files.exists(s.source)) continue;
        report({ path: s.path, code: "spec-file", message: `${ref.kind} file "${s.source}" not found` });
      }
    }
  },
};
