import { formatDiagnostic } from "../../config/diagnostic.js";
import { formatNavTree } from "../../config/docs-json/nav-format.js";
import { findLanguage } from "../../config/languages.js";
import { readerWithGroups } from "../../vfs/access.js";
import { localContext } from "../../vfs/request-context.js";
import { siteNavigation } from "../../vfs/site-nav.js";
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
    const nav = await siteNavigation(root, {
      load: siteLoadOptions(io, root, { fetchRemote: args["fetch-remote"] }),
      ...(args.version !== undefined ? { version: args.version } : {}),
      ...(args.language !== undefined ? { language: args.language } : {}),
      // The author's view by default; `--groups` previews a reader, as `fs` and `search` do.
      ...(args.groups !== undefined ? { context: localContext(readerWithGroups(parseGroups(args.groups))) } : {}),
    });
    if (!nav.ok) {
      if (nav.reason === "missing") throw new CliError(`no docs.json in ${args.dir}: there is no navigation to show`);
      for (const d of nav.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
      throw new CliError(`docs.json cannot be read (above); \`svc-mcp check\` lists every problem`);
    }
    // A problem in one element costs that element: the rest is shown, and the problems said.
    for (const d of nav.errors) io.stderr(`${formatDiagnostic(d)}\n`);
    if (nav.errors.length > 0) io.stderr(`svc-mcp: docs.json has errors (above): what they name is shown as far as it can be read; \`svc-mcp check\` lists every problem\n`);
    // `versions` and `languages` list every one in docs.json (the reader's, with --groups), whatever the filter.
    const { tree } = nav;
    if (args.version !== undefined && !tree.versions.some((v) => v.version === args.version)) {
      throw new CliError(unknown("version", args.version, tree.versions.map((v) => v.version)), 2);
    }
    if (args.language !== undefined && findLanguage(args.language, tree.languages.map((l) => l.language)) === undefined) {
      throw new CliError(unknown("language", args.language, tree.languages.map((l) => l.language)), 2);
    }
    io.stdout(args.json ? `${JSON.stringify(tree, null, 2)}\n` : formatNavTree(tree));
    return 0;
  },
});

function unknown(kind: string, value: string, known: readonly string[]): string {
  if (known.length === 0) return `--${kind} ${value}: the site has no ${kind}s`;
  return `--${kind} ${value}: no such ${kind} (the site has ${known.join(", ")})`;
}
