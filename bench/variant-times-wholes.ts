/**
 * What keeping whole files' times costs a big site (security.md row 172, adversary round 53 F2):
 * every page of a docs folder (`.md`, `.mdx`) as a served file without restricted parts, their
 * hash and time remembered: hashing them all (a first write, cold), again (a write after a save:
 * each file hashed once), the state file's text and size, its write (locked, renamed), its read
 * and parse at a start, and a merge with another process's copy (`--workers`).
 *
 *   npx tsx bench/variant-times-wholes.ts <checkout> <docs folder>
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
const src = process.argv[2] ?? new URL("..", import.meta.url).pathname;
const docs = process.argv[3];
if (docs === undefined) throw new Error("usage: variant-times-wholes.ts <checkout> <docs folder>");
const { RememberedTimes } = await import(`${src}/src/vfs/remembered-times.js`);
const { updateVariantTimesFile, readVariantTimesFile } = await import(`${src}/src/store/variant-times-file.js`);
const { makeFile } = await import(`${src}/src/vfs/site-file.js`);

type File = ReturnType<typeof makeFile>;
const files: File[] = [];
const walk = (dir: string): void => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, e.name);
    if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules") walk(abs);
    else if (e.isFile() && /\.mdx?$/i.test(e.name)) files.push(makeFile(`/${relative(docs, abs)}`, readFileSync(abs, "utf8"), {}, statSync(abs).mtime));
  }
};
walk(docs);
const present = new Map(files.map((f) => [f.path, f]));
const time = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const out = f();
  return [out, Math.round(performance.now() - t)];
};
const cache = new WeakMap();
const [mine, cold] = time(() => RememberedTimes.of(new Map(), new WeakMap(), files, cache));
const [, warm] = time(() => RememberedTimes.of(new Map(), new WeakMap(), files, cache));
const [text, serialize] = time(() => mine.serialize(docs));
const state = mkdtempSync(join(tmpdir(), "svc-wholes-"));
const file = join(state, "variant-times", "bench.json");
const [, write] = time(() => updateVariantTimesFile(file, () => text));
const [, parse] = time(() => RememberedTimes.parse(readVariantTimesFile(file) as string, docs));
const other = RememberedTimes.parse(text, docs);
const [, merge] = time(() => RememberedTimes.merge(mine, other, present).serialize(docs));
// A write after a save of one page: that page hashed again, merged with what was written, serialized.
const edited = files.map((f, i) => (i === 0 ? makeFile(f.path, `${f.text}\n`, {}, new Date()) : f));
const [, save] = time(() => RememberedTimes.merge(RememberedTimes.of(new Map(), new WeakMap(), edited, cache), mine, present).serialize(docs));
console.log(JSON.stringify({ pages: files.length, mib: Math.round(files.reduce((n, f) => n + f.size, 0) / 1048576), hashCold: cold, hashWarm: warm, serialize, write, readParse: parse, mergeOtherAndSerialize: merge, writeAfterSave: save, fileBytes: statSync(file).size, kept: mine.size }));
rmSync(state, { recursive: true, force: true });
