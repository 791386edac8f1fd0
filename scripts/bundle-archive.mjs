// The npm package ships the bundle as one brotli archive, dist/svc-mcp-<hash>.br, which
// bin/svc-mcp.js unpacks beside itself on the first run (`prepack` runs this after the build).
//
// Why: `npx --package <tgz> svc-mcp` extracts the whole tarball three times on every run, before
// our code starts (npm reads the package's manifest by extracting it, twice, and reinstalls it: a
// tarball spec never matches what its npx cache holds), and extracting costs by the file and by
// the byte that node-tar streams through: ~130 ms of CPU for 96 files / 7 MB against ~45 ms for
// one 1.4 MB file (docs/measurements.md). Brotli packs the chunks 20 % tighter than the tarball's
// gzip, and unpacking all of them takes ~30 ms, once per installation.
//
// Format (read by `unpackBundle` in bin/svc-mcp.js): brotli of the line `svc-mcp-bundle 1`, a line
// of JSON `[[path, bytes], ...]` (paths relative to dist/, `/`-separated), then the files' bytes
// one after another in that order.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";

/** The first line of an archive; bin/svc-mcp.js refuses any other. */
export const ARCHIVE_FORMAT = "svc-mcp-bundle 1";

/** What the installed package runs: the chunks, serve's CommonJS script (scripts/serve-script.mjs), jq.wasm and the pages' assets, not the source maps nor esbuild's metafile. */
function shipped(path) {
  return path.endsWith(".mjs") || /^cli-[0-9a-f]{16}\.cjs$/.test(path) || path === "jq.wasm" || path.startsWith(`web${sep}`);
}

/** Write dist/svc-mcp-<hash>.br from the build in `dist`; returns its file name. */
export function writeArchive(dist) {
  for (const old of readdirSync(dist).filter((f) => /^svc-mcp-[0-9a-f]+\.br$/.test(f))) rmSync(join(dist, old));
  const paths = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dist, join(e.parentPath, e.name)))
    .filter(shipped)
    .sort();
  const files = paths.map((p) => readFileSync(join(dist, p)));
  const header = `${ARCHIVE_FORMAT}\n${JSON.stringify(paths.map((p, i) => [p.split(sep).join("/"), files[i].length]))}\n`;
  const raw = Buffer.concat([Buffer.from(header), ...files]);
  // Quality 9 with a 16 MB window: 1.46 MB, in ~1.5 s; 11 saves another 0.14 MB in ~20 s of
  // every pack, for a few milliseconds less to extract.
  const packed = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  const name = `svc-mcp-${createHash("sha256").update(packed).digest("hex").slice(0, 16)}.br`;
  writeFileSync(join(dist, name), packed);
  return name;
}

// `node scripts/bundle-archive.mjs [dist]`
if (process.argv[1] === fileURLToPath(import.meta.url)) writeArchive(process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url)));
