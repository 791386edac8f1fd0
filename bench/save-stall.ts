/**
 * How long one page saved in the navigation holds every reader: serve a copy of the demo over stdio
 * with the official SDK client, save PAGE_KIND text of N characters as a page in the navigation,
 * and ping without pause until a search finds the page's marker word; prints the longest ping and
 * how long the page took to be searchable. Kinds: `kanji` (one unbroken run of kanji, no
 * punctuation: the segmenter's worst case), `prose` (Japanese sentences with their punctuation),
 * `table` (a Markdown table of N characters), `list` (a bulleted list), `headings` (short sections).
 *
 *   npx tsx bench/save-stall.ts [kanji|prose|table|list|headings] [N] [--bin path/to/bin/svc-mcp.js]
 */
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = process.argv.slice(2);
const binAt = args.indexOf("--bin");
const bin = binAt >= 0 ? (args[binAt + 1] as string) : new URL("../bin/svc-mcp.js", import.meta.url).pathname;
const [kind = "kanji", size = "128000"] = args.filter((a, i) => !a.startsWith("--") && (binAt < 0 || i !== binAt + 1));
const n = Number(size);

function kanji(length: number): string {
  let text = "";
  let x = 12345;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    text += String.fromCharCode(0x4e00 + (x % 0x51a5));
  }
  return text;
}
const PROSE = "東京都に住んでいる私は毎日電車で会社に通っています。ナレッジベースを作成してからドキュメントをアップロードします。";
/** `line(i)` repeated until the text has `length` characters (whole lines). */
function lines(length: number, line: (i: number) => string, head = ""): string {
  const out = [head];
  let chars = head.length;
  for (let i = 0; chars < length; i++) {
    const l = line(i);
    out.push(l);
    chars += l.length + 1;
  }
  return out.join("\n");
}
const SHAPES: Record<string, (length: number) => string> = {
  kanji,
  prose: (length) => PROSE.repeat(Math.ceil(length / PROSE.length)).slice(0, length),
  table: (length) => lines(length, (i) => `| row${i} | value ${i * 7} | the ${i % 13} column of text |`, "| Name | Value | Notes |\n| --- | --- | --- |"),
  list: (length) => lines(length, (i) => `- item ${i}: configure option${i % 97} for the bucket`),
  headings: (length) => lines(length, (i) => `## Section ${i}\n\nText of section ${i} about option${i % 89}.\n`),
};
const shape = SHAPES[kind];
if (shape === undefined) throw new Error(`unknown kind ${kind}: one of ${Object.keys(SHAPES).join(", ")}`);
const body = shape(n);

const root = mkdtempSync(join(tmpdir(), "save-stall-"));
cpSync(new URL("../fixtures/demo", import.meta.url).pathname, root, { recursive: true });
const client = new Client({ name: "save-stall", version: "1" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "serve", "--dir", root, "--state", mkdtempSync(join(tmpdir(), "save-stall-state-"))], stderr: "ignore" }));
const search = (await client.listTools()).tools.find((t) => t.name.startsWith("search"))?.name ?? "search";
await client.callTool({ name: search, arguments: { query: "upload a file to a bucket" } });

const t0 = performance.now();
writeFileSync(join(root, "quickstart.mdx"), `---\ntitle: Quickstart\n---\n\nzebramarker\n\n${body}\n`);
let worst = 0;
let pings = 0;
let found = 0;
while (found === 0 && performance.now() - t0 < 900_000) {
  const s = performance.now();
  await client.ping();
  worst = Math.max(worst, performance.now() - s);
  pings++;
  if (pings % 50 === 0) {
    const r = (await client.callTool({ name: search, arguments: { query: "zebramarker" } })) as { content: { text: string }[] };
    if (r.content[0]?.text.includes("quickstart")) found = performance.now() - t0;
  }
}
console.log(JSON.stringify({ kind, chars: n, bytes: Buffer.byteLength(body), worstPingMs: Math.round(worst), pings, searchableAfterMs: Math.round(found) }));
await client.close();
