import { formatDiagnostic } from "../../config/diagnostic.js";
import { formatNavTree } from "../../config/docs-json/nav-format.js";
import { readerWithGroups } from "../../vfs/access.js";
import { localContext } from "../../vfs/request-context.js";
import { navigateDocs } from "../../engine/use-cases/navigate-docs.js";
import { defineCommand } from "../command.js";
import { siteLoadOptions } from "../load-options.js";
import { CliError } from "../io.js";
import { parseGroups, resolveDir, withDir, withFetchRemote, withJson } from "../options.js";

/** `svc-mcp nav`: the resolved navigation tree (titles, inherited settings, versions, breadcrumbs). */
export const navCommand = defineCommand({
  command: "nav",
  describe: "Print the resolved navigation: titles, versions, languages, breadcrumbs, inherited settings",
  builder: (y) =>
    withFetchRemote(withJson(withDir(y)))
      .option("version", { type: "string", describe: "Show only this version (and what sits under no version)" })
      .option("language", { type: "string", describe: "Show only this language (and what sits under no language)" })
      .option("groups", {
        type: "string",
        describe: "Show only what a reader in these comma-separated user groups sees; --groups alone: an anonymous reader (default: everything)",
      }),
  run: async (args, io) => {
    const root = resolveDir(io, args.dir);
    const answer = await navigateDocs(
      {
        root,
        load: siteLoadOptions(io, root, { fetchRemote: args["fetch-remote"] }),
        // The author's view by default; `--groups` previews a reader, as `fs` and `search` do.
        ...(args.groups !== undefined ? { request: localContext(readerWithGroups(parseGroups(args.groups))) } : {}),
      },
      { ...(args.version !== undefined ? { version: args.version } : {}), ...(args.language !== undefined ? { language: args.language } : {}) },
    );
    // `--version v9: no such version (the site has v1, v2)`: the option, then what is wrong with its value.
    if (!answer.ok) throw new CliError(answer.issues.map((i) => (i.argument !== undefined ? `--${i.argument} ${i.message}` : i.message)).join("; "), 2);
    const nav = answer.value;
    if (!nav.ok) {
      if (nav.reason === "missing") throw new CliError(`no docs.json in ${args.dir}: there is no navigation to show`);
      for (const d of nav.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
      throw new CliError(`docs.json cannot be read (above); \`svc-mcp check\` lists every problem`);
    }
    // A problem in one element costs that element: the rest is shown, and the problems said.
    for (const d of nav.errors) io.stderr(`${formatDiagnostic(d)}\n`);
    if (nav.errors.length > 0) io.stderr(`svc-mcp: docs.json has errors (above): what they name is shown as far as it can be read; \`svc-mcp check\` lists every problem\n`);
    io.stdout(args.json ? `${JSON.stringify(nav.tree, null, 2)}\n` : formatNavTree(nav.tree));
    return 0;
  },
});
