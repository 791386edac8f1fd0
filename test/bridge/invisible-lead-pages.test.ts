/**
 * Security row 207 (adversary round 63 F2) through the HTTP bridge: the demo's restricted runbook
 * with a zero-width space before its opening `---`, and a restricted SKILL.md after U+00A0, were
 * every reader's. `test/security/front-matter-invisible-lead.test.ts` covers each character; here
 * the spawned `svc-mcp serve --http` is read as an anonymous reader reads it: `/mcp` (shell,
 * search), the HTML page and the home page's navigation, the Agent Skills index; staff's token-less
 * view is not needed (the CLI test reads staff).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/paths.js";
import { type ServedWithLines, serveWithLines } from "../helpers/serve-lines.js";
import { FS, SEARCH, mcpClient } from "./harness.js";

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

/** The demo site, its runbook after U+200B, and a restricted skill after U+00A0. */
function site(): string {
  const dir = temp("svc-lead-site-");
  cpSync(fixture("demo"), dir, { recursive: true });
  const runbook = join(dir, "internal/runbook.mdx");
  writeFileSync(runbook, `\u200B${readFileSync(runbook, "utf8")}`);
  mkdirSync(join(dir, "skills/oncall"), { recursive: true });
  writeFileSync(join(dir, "skills/oncall/SKILL.md"), "\u00A0---\nname: oncall\ndescription: On-call procedures.\ngroups: [staff]\n---\n\nONCALL-SKILL-SECRET steps.\n");
  return dir;
}

async function page(origin: string, path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${origin}${path}`, { headers: { accept: "text/html" } });
  return { status: res.status, html: await res.text() };
}

const withoutPath = (html: string, path: string): string => html.split(path).join("<PATH>");

describe("a restricted page and skill after an invisible lead, served over HTTP", () => {
  it("reach no anonymous reader: /mcp, the page route, the navigation, the Agent Skills index", async () => {
    const dir = site();
    const args = ["--dir", dir, "--state", temp("svc-lead-state-"), "--project-id", "docs", "--no-fetch-remote", "--no-watch"];
    const server = await serveWithLines(args, { XDG_CACHE_HOME: temp("svc-lead-cache-") });
    servers.push(server);
    const anon = await mcpClient(`${server.origin}/mcp`);
    const sh = (command: string) => anon.text(FS, { command });
    expect(await sh("ls /")).toBe("api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n");
    expect(await sh("rg -l -e STAFF-ONLY-RUNBOOK -e ONCALL-SKILL-SECRET / ; echo done")).toBe("done\n");
    expect(await anon.text(SEARCH, { query: "STAFF-ONLY-RUNBOOK-7F3A" })).toBe(
      `No results for "STAFF-ONLY-RUNBOOK-7F3A". Try other words, fewer terms, or search the files: query_docs_filesystem_nimbus_storage with \`rg -il "term" /\`.`,
    );
    await anon.close();

    const refused = await page(server.origin, "/internal/runbook");
    const unknown = await page(server.origin, "/no-such-page");
    expect(refused.status).toBe(404);
    expect(withoutPath(refused.html, "/internal/runbook")).toBe(withoutPath(unknown.html, "/no-such-page"));
    const home = await page(server.origin, "/");
    expect({ status: home.status, runbook: /runbook/i.test(home.html) }).toEqual({ status: 200, runbook: false });
    const index = (await (await fetch(`${server.origin}/.well-known/agent-skills/index.json`)).json()) as { skills: { name: string }[] };
    expect(index.skills.map((s) => s.name)).toEqual(["nimbus-storage"]);
  });
});
