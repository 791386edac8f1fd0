/**
 * Security row 197 (adversary round 61 F2) through the HTTP bridge: a page restricted by `groups`
 * but saved as UTF-16 with a byte order mark was read as a page without front matter, so served to
 * everyone. `test/security/front-matter-encoding.test.ts` proves the CLI refuses it; here the
 * spawned `svc-mcp serve --http` is read as an anonymous reader reads it: `/mcp` (search, `ls`,
 * `find`, `cat`, `rg`), the HTML pages (the page itself, the home page's navigation) and the
 * paths a crawler tries (`/sitemap.xml`, `/llms.txt`: the bridge serves neither). Then a live edit
 * over HTTP: a public page and a restricted one each saved again as UTF-16 keep serving their last
 * good version, the restricted one still restricted.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/paths.js";
import { type ServedWithLines, serveWithLines } from "../helpers/serve-lines.js";
import { FS, SEARCH, mcpClient } from "./harness.js";

const MARKER = "PAYROLL-CONFIDENTIAL-7Q2";
const PAYROLL = `---\ntitle: Payroll\ngroups: [staff]\n---\n\nThe salary table is ${MARKER}.\n`;
const utf16le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, "utf16le")]);

const servers: ServedWithLines[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The demo site with `payroll.mdx` (UTF-16, restricted) in the navigation's "Internal" group. */
function site(): string {
  const dir = temp("svc-wide-site-");
  cpSync(fixture("demo"), dir, { recursive: true });
  const config = readFileSync(join(dir, "docs.json"), "utf8");
  writeFileSync(join(dir, "docs.json"), config.replace('"pages": ["internal/runbook", "partners/pricing"]', '"pages": ["internal/runbook", "partners/pricing", "payroll"]'));
  writeFileSync(join(dir, "payroll.mdx"), utf16le(PAYROLL));
  return dir;
}

async function serve(dir: string, extra: readonly string[]): Promise<ServedWithLines> {
  const args = ["--dir", dir, "--state", temp("svc-wide-state-"), "--project-id", "docs", "--no-fetch-remote", ...extra];
  // Its site cache in a folder of its own, not the user's.
  const server = await serveWithLines(args, { XDG_CACHE_HOME: temp("svc-wide-cache-") });
  servers.push(server);
  return server;
}

/** An HTML page as a browser asks for it: status, content type and text. */
async function page(origin: string, path: string): Promise<{ status: number; type: string | null; html: string }> {
  const res = await fetch(`${origin}${path}`, { headers: { accept: "text/html" } });
  return { status: res.status, type: res.headers.get("content-type"), html: await res.text() };
}

/** The 404 page of `path` with the path taken out, to compare two of them. */
const withoutPath = (html: string, path: string): string => html.split(path).join("<PATH>");

describe("a restricted page saved as UTF-16 with a byte order mark, served over HTTP", () => {
  it("reaches no anonymous reader: /mcp search and shell, the page route, the navigation, the crawler paths", async () => {
    const dir = site();
    const server = await serve(dir, ["--no-watch"]);
    const anon = await mcpClient(`${server.origin}/mcp`);
    const sh = (command: string) => anon.text(FS, { command });
    expect(await sh("ls /")).toBe("api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n");
    expect(await sh("find / -name 'payroll*' ; echo done")).toBe("done\n");
    expect(await sh("cat /payroll.mdx")).toBe("cat: /payroll.mdx: No such file or directory\n[exit code 1]");
    expect(await sh(`rg -il -e ${MARKER} -e payroll -e salary / ; echo done`)).toBe("done\n");
    expect(await anon.text(SEARCH, { query: "payroll salary table" })).toBe(
      `No results for "payroll salary table". Try other words, fewer terms, or search the files: query_docs_filesystem_nimbus_storage with \`rg -il "term" /\`.`,
    );
    await anon.close();

    // The page route answers the one 404 page an unknown path gets; the home page does not link it.
    const refused = await page(server.origin, "/payroll");
    const unknown = await page(server.origin, "/no-such-page");
    expect({ status: refused.status, type: refused.type }).toEqual({ status: 404, type: "text/html; charset=utf-8" });
    expect(withoutPath(refused.html, "/payroll")).toBe(withoutPath(unknown.html, "/no-such-page"));
    const home = await page(server.origin, "/");
    expect({ status: home.status, payroll: /payroll/i.test(home.html), marker: home.html.includes(MARKER) }).toEqual({ status: 200, payroll: false, marker: false });
    // The bridge publishes no sitemap or llms.txt: nothing there to leak from.
    for (const path of ["/sitemap.xml", "/llms.txt", "/llms-full.txt", "/payroll.md", "/payroll.mdx"]) {
      const res = await fetch(`${server.origin}${path}`);
      expect({ path, status: res.status, body: (await res.json()) as unknown }).toEqual({ path, status: 404, body: { error: { code: "not_found", message: `nothing at GET ${path}` } } });
    }
    // The start says which file it skipped; `check` says why (front-matter-encoding.test.ts).
    expect(server.lines.filter((l) => l.includes("payroll"))).toEqual([`svc-mcp: 1 warning in payroll.mdx; run \`svc-mcp check --dir ${dir}\` for details`]);
  });

  it("a live edit: a public page and a restricted one saved again as UTF-16 keep their last good versions, the restricted one restricted", async () => {
    const dir = site();
    const server = await serve(dir, []);
    const anon = await mcpClient(`${server.origin}/mcp`);
    const sh = (command: string) => anon.text(FS, { command });
    const webhooks = join(dir, "guides/webhooks.mdx");
    const runbook = join(dir, "internal/runbook.mdx");
    const good = readFileSync(webhooks, "utf8");
    const queries = ["NEW-WEBHOOKS-TEXT-4M8", "RUNBOOK-SECRET-2P6", "failing storage node runbook"];
    const searches = async () => Promise.all(queries.map((query) => anon.text(SEARCH, { query })));
    const before = {
      cat: await sh("cat /guides/webhooks.mdx"),
      html: await page(server.origin, "/guides/webhooks"),
      runbook: await sh("cat /internal/runbook.mdx"),
      runbookPage: (await page(server.origin, "/internal/runbook")).status,
      listing: await sh("ls -R / ; echo done"),
      searches: await searches(),
    };
    expect({ cat: before.cat, status: before.html.status, runbook: before.runbook, runbookPage: before.runbookPage }).toEqual({
      cat: good,
      status: 200,
      runbook: "cat: /internal/runbook.mdx: No such file or directory\n[exit code 1]",
      runbookPage: 404,
    });

    // Saved as Notepad's "Unicode": the public page with new text, the runbook with its groups kept.
    writeFileSync(webhooks, utf16le(`${good}\nNEW-WEBHOOKS-TEXT-4M8\n`));
    writeFileSync(runbook, utf16le(readFileSync(runbook, "utf8").replace("## Failing storage node", "RUNBOOK-SECRET-2P6\n\n## Failing storage node")));
    const kept = (file: string) =>
      `svc-mcp: ${file}:1 warning: skipped: invalid front matter: the file is saved as UTF-16 (its first bytes are the byte order mark FF FE or FE FF); pages are read as UTF-8: save it as UTF-8 (keeping the last good version)`;
    // Then a page whose front matter does not parse: its warning comes from the reload that read
    // the two above or from a later one, so once it is printed both edits have been applied
    // (however they were read), and a reader that did not keep them would fail here, not wait.
    writeFileSync(join(dir, "sentinel.mdx"), "---\ntitle: [unclosed\n---\n\nSentinel.\n");
    await server.printed("svc-mcp: sentinel.mdx:");
    expect(server.lines.filter((l) => /webhooks|runbook/.test(l)).sort()).toEqual([kept("guides/webhooks.mdx"), kept("internal/runbook.mdx")]);

    const after = {
      cat: await sh("cat /guides/webhooks.mdx"),
      html: await page(server.origin, "/guides/webhooks"),
      runbook: await sh("cat /internal/runbook.mdx"),
      runbookPage: (await page(server.origin, "/internal/runbook")).status,
      listing: await sh("ls -R / ; echo done"),
      searches: await searches(),
    };
    expect(after).toEqual(before);
    expect([after.listing, ...after.searches].filter((text) => /NEW-WEBHOOKS-TEXT-4M8|RUNBOOK-SECRET-2P6|runbook/i.test(text))).toEqual([]);
    expect(await sh("rg -l -e NEW-WEBHOOKS-TEXT-4M8 -e RUNBOOK-SECRET-2P6 -e 'Failing storage node' / ; echo done")).toBe("done\n");
    await anon.close();
  });
});
