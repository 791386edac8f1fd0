import { formatDiagnostic } from "../../config/diagnostic.js";
import { formatNavTree } from "../../config/docs-json/nav-format.js";
import { siteNavigation } from "../../vfs/site-nav.js";
import { defineCommand } from "../command.js";
import { siteLoadOptions } from "../load-options.js";
import { CliError } from "../io.js";
import { withDir, withFetchRemote, withJson } from "../options.js";
import { requireFolder } from "./check.js";

/** `svc-mcp nav`: the resolved navigation tree (titles, inherited settings, versions, breadcrumbs). */
export const navCommand = defineCommand({
  command: "nav",
  describe: "Print the resolved navigation: titles, versions, languages, breadcrumbs, inherited settings",
  builder: (y) =>
    withFetchRemote(withJson(withDir(y)))
      .option("version", { type: "string", describe: "Show only this version (and what sits under no version)" })
      .option("language", { type: "string", describe: "Show only this language (and what sits under no language)" }),
  run: async (args, io) => {
    const root = await requireFolder(io, args.dir);
    const nav = await siteNavigation(root, {
      load: siteLoadOptions(io, root, { fetchRemote: args["fetch-remote"] }),
      ...(args.version !== undefined ? { version: args.version } : {}),
      ...(args.language !== undefined ? { language: args.language } : {}),
    });
    if (!nav.ok) {
      if (nav.reason === "missing") throw new CliError(`no docs.json in ${args.dir}: there is no navigation to show`);
      for (const d of nav.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
      throw new CliError(`docs.json has errors (above); \`svc-mcp check\` lists every problem`);
    }
    // `versions` and `languages` list every one in docs.json, whatever the filter.
    const { tree } = nav;
    if (args.version !== undefined && !tree.versions.some((v) => v.version === args.version)) {
      throw new CliError(unknown("version", args.version, tree.versions.map((v) => v.version)), 2);
    }
    if (args.language !== undefined && !tree.languages.some((l) => l.language === args.language)) {
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
