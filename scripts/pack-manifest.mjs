// The package.json the npm package ships: what an installer needs (name, version, bin, files,
// engines, the optional peer better-sqlite3), without what only a checkout uses. `npm pack` and
// `npm publish` run `prepack` (build, then `strip`), pack the files as they are on disk, then run
// `postpack` (`restore`).
//
// Why strip: npm lists a `prepare` script of a package installed from a tarball or a git URL as
// an install script "not yet covered by allowScripts" and warns on every such install, though it
// never runs it there; `prepare` builds dist/ in a checkout (`npm install`) and must stay.
// devDependencies (every library the bundle holds, and the test tools), `allowScripts` and
// `overrides` mean nothing to an installer.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const manifest = fileURLToPath(new URL("../package.json", import.meta.url));
/** The checkout's own package.json while a pack runs. */
const backup = `${manifest}.unpacked`;

/** Fields an installed package has no use for. */
const CHECKOUT_ONLY = ["scripts", "devDependencies", "allowScripts", "overrides"];

const mode = process.argv[2];
if (mode === "strip") {
  // A pack stopped before `postpack` left the checkout's manifest in the backup: start from it.
  if (existsSync(backup)) renameSync(backup, manifest);
  const text = readFileSync(manifest, "utf8");
  const pkg = JSON.parse(text);
  for (const field of CHECKOUT_ONLY) delete pkg[field];
  writeFileSync(backup, text);
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === "restore") {
  if (existsSync(backup)) renameSync(backup, manifest);
} else {
  process.stderr.write("usage: node scripts/pack-manifest.mjs strip|restore\n");
  process.exit(2);
}
