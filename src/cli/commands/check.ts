import { cappedFindingLines } from "../../config/capped-findings.js";
import { formatDiagnostic } from "../../config/diagnostic.js";
import { checkDocs } from "../../engine/use-cases/check-docs.js";
import { defineCommand } from "../command.js";
import { plural } from "../diagnostics-summary.js";
import { folderAsNamed, siteLoadOptions } from "../load-options.js";
import { resolveDir, withDir, withFetchRemote, withJson } from "../options.js";

/** `svc-mcp check`: every problem of docs.json and the pages at once; exit 1 on errors. */
export const checkCommand = defineCommand({
  command: "check",
  describe: "Validate docs.json (and its $ref files) against the pages on disk; exit 1 on errors",
  builder: (y) => withFetchRemote(withJson(withDir(y))),
  run: async (args, io) => {
    const root = resolveDir(io, args.dir);
    const report = await checkDocs({ root, load: siteLoadOptions(io, root, { fetchRemote: args["fetch-remote"] }), named: folderAsNamed(args.dir) });
    if (args.json) {
      const out = {
        errors: report.errors,
        warnings: report.warnings,
        files: report.files,
        pages: report.pages,
        generatedPages: report.generatedPages,
        diagnostics: report.diagnostics,
      };
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      for (const line of cappedFindingLines(report.diagnostics, formatDiagnostic, "(`svc-mcp check --json` lists every one)")) io.stdout(`${line}\n`);
      // A mint.json's list holds docs.json too (created later, it is read instead): not a $ref.
      const refs = report.files.filter((f) => f !== report.configFile && f !== "docs.json").length;
      const pageCount = `${plural(report.pages, "page")}${report.generatedPages > 0 ? ` (+${report.generatedPages} generated from API specs)` : ""}`;
      const what = !report.docsJson ? `checked ${pageCount} (no docs.json)` : `checked ${report.configFile}${refs > 0 ? ` (+${plural(refs, "$ref file")})` : ""} and ${pageCount}`;
      const verdict = report.errors === 0 && report.warnings === 0 ? "no problems" : `${plural(report.errors, "error")}, ${plural(report.warnings, "warning")}`;
      io.stdout(`${what}: ${verdict}\n`);
    }
    return report.errors > 0 ? 1 : 0;
  },
});
