// `npm run inspector -- <url or command> --method tools/list ...`: the official MCP Inspector CLI
// (@modelcontextprotocol/inspector-cli, a pinned devDependency; the same program as
// `npx @modelcontextprotocol/inspector --cli`, whose package wants Node >= 22.7.5 and 260 more
// packages), runnable from any folder.
//
// Run on its own, inspector-cli fails with "Cannot find module .../package.json": to name itself
// it tests `fs.existsSync("../package.json")` (relative to the working folder) but then imports
// "../package.json" relative to its own file, so it works only where the working folder's parent
// happens to hold a package.json. Here that one check answers for the path it means; the rest of
// the program is untouched, and it runs in this process with the caller's working folder.
import fs from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";

const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/build/index.js");
const existsSync = fs.existsSync;
fs.existsSync = (path) => path === "../package.json" || existsSync(path);
// It imports `* as fs`: the named exports follow the patched object only once synced.
syncBuiltinESMExports();
// `--cli` selects the CLI in the inspector's launcher; this is the CLI itself.
process.argv = [process.argv[0], entry, ...process.argv.slice(2).filter((a) => a !== "--cli")];
await import(entry);
