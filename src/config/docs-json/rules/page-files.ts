import { ignoredWhy } from "../../ignore-rules.js";
import { toPagePath } from "../../site-config.js";
import { entryScope } from "../entries.js";
import type { Rule } from "./rule.js";

/**
 * Every navigation entry is an API operation or a page whose file exists. Whether an entry is an
 * operation is the `resolveEntry` hook's call (the OpenAPI engine plugs in there).
 *
 * A page whose file is absent (or left out by the ignore file) is a warning: the hosted platform
 * builds the site all the same, logging `"x" is referenced in the docs.json navigation but the
 * file does not exist` and listing the entry under a title made from its path. So is a file that
 * is there but skipped (front matter that is not YAML, a link leading out of the docs folder, a
 * page over the size limit): deployed sites carry such files (a French page's `'l\'API'`, a
 * monorepo's `security.mdx -> ../SECURITY.md`) and the platform builds them, so an error there
 * would fail a site the platform accepts; the file's own `page-skipped` warning says why. An
 * entry that looks like a mistyped operation stays an error.
 */
export const pageFilesRule: Rule = {
  codes: ["page-file", "operation"],
  needsFiles: true,
  check({ model, files, resolveEntry, report }) {
    if (files === undefined) return;
    for (const e of model.entries) {
      if (e.entry.trim() === "") continue; // the schema reports empty entries
      const resolution = resolveEntry(e.entry, entryScope(e.context, e.path));
      if (resolution.kind === "operation") continue;
      const pagePath = toPagePath(e.entry);
      if (files.fileOf(pagePath) !== undefined) continue;
      if (resolution.kind === "file" && resolution.reported === true) continue;
      if (resolution.kind === "unmatched") {
        report({ path: e.path, code: "operation", message: `"${e.entry}" matches no API operation: ${resolution.hint}` });
        continue;
      }
      const rel = pagePath.slice(1);
      const ignored = files.ignoredFileOf?.(pagePath);
      const skipped = ignored === undefined ? files.skippedFileOf?.(pagePath) : undefined;
      const why =
        ignored !== undefined
          ? ignoredWhy(ignored.file, ignored.by)
          : skipped !== undefined
            ? `${skipped.file} is skipped (${skipped.why})`
            : `no ${rel}.mdx or ${rel}.md`;
      const hint = resolution.hint !== undefined ? `; ${resolution.hint}` : "";
      const accepted = resolution.hint === undefined;
      report({ path: e.path, code: "page-file", message: `page "${e.entry}" not found: ${why}${hint}`, ...(accepted ? { severity: "warning" } : {}) });
    }
  },
};
