import { formatDiagnostic } from "../../config/diagnostic.js";
import { checkSite } from "../../vfs/check-site.js";
import { defineCommand } from "../command.js";
import { plural } from "../diagnostics-summary.js";
import { siteLoadOptions } from "../load-options.js";
import { resolveDir, withDir, withFetchRemote, withJson } from "../options.js";


/** `svc-mcp check`: every problem of docs.json and the pages at once; exit 1 on errors. */
export const checkCommand = defineCommand({
  command: "check",
  describe: "Validate docs.json (and its $ref files) against the pages on disk; exit 1 on errors",
  builder: (y) => withFetchRemote(withJson(withDir(y))),
  run: async (args, io) => {
    const root = resolveDir(io, args.dir);
    const result = await checkSite(root, { load: siteLoadOptions(io, root, { fetchRemote: args["fetch-remote"] }) });
    const all = [...result.loaded.site.pages.values()];
    const pages = all.filter((p) => !p.generated).length;
    const generated = all.length - pages;
    if (args.json) {
      const out = {
        errors: result.errors,
        warnings: result.warnings,
        files: result.docs.files,
        pages,
        generatedPages: generated,
        diagnostics: result.diagnostics,
      };
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      for (const d of result.diagnostics) io.stdout(`${formatDiagnostic(d)}\n`);
      const refs = result.docs.files.length - 1;
      const pageCount = `${plural(pages, "page")}${generated > 0 ? ` (+${generated} generated from API specs)` : ""}`;
      const what =
        result.docs.config?.present === false
          ? `checked ${pageCount} (no docs.json)`
          : `checked docs.json${refs > 0 ? ` (+${plural(refs, "$ref file")})` : ""} and ${pageCount}`;
      const verdict = result.errors === 0 && result.warnings === 0 ? "no problems" : `${plural(result.errors, "error")}, ${plural(result.warnings, "warning")}`;
      io.stdout(`${what}: ${verdict}\n`);
    }
    return result.errors > 0 ? 1 : 0;
  },
});
