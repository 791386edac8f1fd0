/**
 * Where a restricted import's name is used in odd places, a reader who may not read the file
 * gets the page as an author would have written it without the import (adversary finding 33,
 * issue 25): no space left before a full stop, no empty list item or table row, no `{true && }`,
 * no name left in an attribute or after an `export ... from`; a code span, which MDX shows as
 * text and never renders, stays as written. Each case compares, for an anonymous reader, every
 * surface that shows the page's text (`cat`, `wc -c`, `ls -l`, search, the HTML page) with the
 * site where the page was written so and the restricted file does not exist, and gives the
 * reader's text exactly; the HTML page must not say the page is not valid MDX.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { ANONYMOUS, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { connect } from "../helpers/mcp.js";

const WHEN = new Date("2026-11-28T10:00:00Z");
const HEAD = "---\ntitle: Forms\n---\n";
const IMPORT = 'import Secret from "/snippets/secret.mdx"\n\n';
const SECRET = "---\ngroups: [staff]\n---\nThe staff vault secret.\n";

/** Each form: the page as written (with the restricted import), and as an author would have written it without. */
const CASES: readonly { readonly name: string; readonly page: string; readonly without: string }[] = [
  { name: "before a full stop", page: `${HEAD}${IMPORT}See <Secret />. Then <Secret />, and (see <Secret />) go on.\n`, without: `${HEAD}See. Then, and (see) go on.\n` },
  { name: "a list item", page: `${HEAD}${IMPORT}Steps:\n\n- Open the vault\n- <Secret />\n- Close the vault\n`, without: `${HEAD}Steps:\n\n- Open the vault\n- Close the vault\n` },
  { name: "a numbered list item", page: `${HEAD}${IMPORT}1. Open the vault\n2. <Secret />\n3. Close the vault\n4. Leave\n`, without: `${HEAD}1. Open the vault\n2. Close the vault\n3. Leave\n` },
  { name: "a list of removed items only", page: `${HEAD}${IMPORT}Intro.\n\n- <Secret />\n- <Secret>the key</Secret>\n\nOutro.\n`, without: `${HEAD}Intro.\n\nOutro.\n` },
  {
    name: "a table cell",
    page: `${HEAD}${IMPORT}| Key | Value |\n| --- | --- |\n| x | <Secret /> |\n| y | vault |\n`,
    without: `${HEAD}| Key | Value |\n| --- | --- |\n| y | vault |\n`,
  },
  {
    name: "a table's header cell",
    page: `${HEAD}${IMPORT}| Key | <Secret /> | Note |\n| --- | :-: | --- |\n| x | 1 | a |\n\nKey | <Secret />\n--- | ---\ny | 2\n`,
    without: `${HEAD}| Key | Note |\n| --- | --- |\n| x | a |\n\nKey |\n--- |\ny |\n`,
  },
  { name: "a JSX expression", page: `${HEAD}${IMPORT}Intro {true && <Secret />} end.\n\n{true && <Secret />}\n\nOutro.\n`, without: `${HEAD}Intro end.\n\nOutro.\n` },
  { name: "a code span", page: `${HEAD}${IMPORT}Write \`<Secret />\` to show it.\n`, without: `${HEAD}Write \`<Secret />\` to show it.\n` },
  {
    name: "an export from",
    page: `${HEAD}export { default as Secret } from "/snippets/secret.mdx"\n\nIntro.\n\n<Secret />\n`,
    without: `${HEAD}Intro.\n`,
  },
  {
    name: "an attribute expression",
    page: `${HEAD}${IMPORT}<Card title="Vault" icon={Secret}>\n  Open it.\n</Card>\n\n<Card\n  title="Keys"\n  icon={<Secret />}\n/>\n`,
    without: `${HEAD}<Card title="Vault">\n  Open it.\n</Card>\n\n<Card\n  title="Keys"\n/>\n`,
  },
  {
    name: "a heading, a quote and an element it alone filled",
    page: `${HEAD}${IMPORT}## Keys <Secret />\n\n> <Secret />\n>\n> Rotate often.\n\n<Note>\n  <Secret />\n</Note>\n\n- <Secret />\n\n  Then lock.\n- Leave\n`,
    without: `${HEAD}## Keys\n\n> Rotate often.\n\n- Then lock.\n- Leave\n`,
  },
  {
    name: "exports that use it",
    page: `${HEAD}import Secret from "/snippets/secret.mdx"\nexport { Secret }\nexport default function Layout({ children }) { return <Secret>{children}</Secret> }\nexport const year = 2026\n\nIntro {year}.\n`,
    without: `${HEAD}export const year = 2026\n\nIntro {year}.\n`,
  },
  {
    // Finding 38: an expression spelling the name only in a string, a comment or template text
    // uses nothing of the import, and an author writing the page without it keeps it.
    name: "a name only in strings, template text and comments",
    page: `${HEAD}${IMPORT}Intro {"Secret"} and {/* Secret keeps */} end.\n\n{\`the \${"Secret"} word\`}\n\n<Card title={"Secret"}>\n  Open it.\n</Card>\n`,
    without: `${HEAD}Intro {"Secret"} and {/* Secret keeps */} end.\n\n{\`the \${"Secret"} word\`}\n\n<Card title={"Secret"}>\n  Open it.\n</Card>\n`,
  },
  {
    // Any identifier spelled as the name goes, a property's too (no reading of what it refers to).
    name: "a name as an identifier beside a string",
    page: `${HEAD}${IMPORT}Intro {"Secret: " + Secret} and {({ Secret: 1 }).Secret} end.\n\n<Card title={\`\${Secret}\`}>\n  Open it.\n</Card>\n`,
    without: `${HEAD}Intro and end.\n\n<Card>\n  Open it.\n</Card>\n`,
  },
  {
    name: "a namespace import",
    page: `${HEAD}import * as Parts from "/snippets/secret.mdx"\n\nIntro <Parts.Key /> and {Parts.value}.\n\n<Note>\n  {Parts.value}\n</Note>\n`,
    without: `${HEAD}Intro and.\n`,
  },
];

const dirs: string[] = [];
const runtimes: DocsRuntime[] = [];
async function load(files: Record<string, string>): Promise<DocsRuntime> {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-import-forms-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    utimesSync(join(dir, path), WHEN, WHEN);
  }
  const runtime = await DocsRuntime.load({ root: dir });
  runtimes.push(runtime);
  return runtime;
}
const stateDir = mkdtempSync(join(tmpdir(), "svc-mcp-import-forms-state-"));
const state = openStateStore(stateDir);
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  await state.close();
  for (const d of [...dirs, stateDir]) rmSync(d, { recursive: true, force: true });
});

const DOCS_JSON = JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["forms"] }] } });
const SHELL = "cat /forms.mdx; wc -c /forms.mdx; ls -l /forms.mdx";

/** What an anonymous reader gets of the page: the shell's answers, search's hits, the HTML page. */
async function surfaces(runtime: DocsRuntime) {
  const shell = await runtime.readerState(localContext(ANONYMOUS)).shell.run(SHELL);
  const client = await connect(runtime, ANONYMOUS);
  const search: unknown[] = [];
  try {
    for (const query of ["vault", "open", "intro", "forms"]) search.push((await client.call("search_acme", { query })).structuredContent);
  } finally {
    await client.close();
  }
  const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
  const res = await app.request("/forms", { headers: { accept: "text/html" } });
  return { shell, search, html: { status: res.status, text: await res.text() } };
}

describe("a restricted import's name in odd places, for a reader who may not read the file (finding 33)", () => {
  it.each(CASES)("$name: the page as written without it, on every surface", async ({ page, without }) => {
    const withIt = await load({ "docs.json": DOCS_JSON, "forms.mdx": page, "snippets/secret.mdx": SECRET });
    const reference = await load({ "docs.json": DOCS_JSON, "forms.mdx": without });
    const got = await surfaces(withIt);
    const size = Buffer.byteLength(without);
    expect(got.shell).toEqual({ stdout: `${without}${size} /forms.mdx\n-r--r--r-- 1 root root ${size} Nov 28 10:00 /forms.mdx\n`, stderr: "", exitCode: 0, truncated: false });
    expect(got).toEqual(await surfaces(reference));
    expect([got.html.status, got.html.text.includes('data-testid="mdx-problem"')]).toEqual([200, false]);
    // A reader of the file gets the page as written.
    expect((await withIt.readerState(localContext(readerWithGroups(["staff"]))).shell.run("cat /forms.mdx")).stdout).toBe(page);
  });

  it("a page nested past the preview's limit: its uses read by their look, at once, and the page shown as text", async () => {
    const deep = `${"*a ".repeat(3000)}x${" b*".repeat(3000)}`;
    const page = `${HEAD}${IMPORT}${deep}\n\nSee <Secret />.\n\nOutro.\n`;
    const without = `${HEAD}${deep}\n\nSee.\n\nOutro.\n`;
    const withIt = await load({ "docs.json": DOCS_JSON, "forms.mdx": page, "snippets/secret.mdx": SECRET });
    const reference = await load({ "docs.json": DOCS_JSON, "forms.mdx": without });
    const got = await surfaces(withIt);
    expect(got.shell.stdout.startsWith(without)).toBe(true);
    expect(got).toEqual(await surfaces(reference));
    expect([got.html.status, /This page is shown as plain text \(line \d+\): its emphasis nest more than 100 levels deep/.test(got.html.text)]).toEqual([200, true]);
  });

  it.each([
    ["a code span", "<Secret>\nhidden `</Secret>` words\n</Secret>\n\n"],
    ["fenced code", "<Secret>\n```js\n</Secret>\n```\nzzz inside\n</Secret>\n\n"],
  ])("a page MDX refuses, a closing tag in %s: the element ends at its own closing tag, read by look", async (_label, use) => {
    const page = `${HEAD}${IMPORT}${use}tail g1\n\nbroken { mdx here\n`;
    const without = `${HEAD}tail g1\n\nbroken { mdx here\n`;
    const withIt = await load({ "docs.json": DOCS_JSON, "forms.mdx": page, "snippets/secret.mdx": SECRET });
    const reference = await load({ "docs.json": DOCS_JSON, "forms.mdx": without });
    const got = await surfaces(withIt);
    const size = Buffer.byteLength(without);
    expect(got.shell).toEqual({ stdout: `${without}${size} /forms.mdx\n-r--r--r-- 1 root root ${size} Nov 28 10:00 /forms.mdx\n`, stderr: "", exitCode: 0, truncated: false });
    expect(got).toEqual(await surfaces(reference));
  });
});
