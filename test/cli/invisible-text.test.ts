import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";

/**
 * What the CLI prints of a repository's keys, paths, slugs and titles, through the real process:
 * control characters, escape sequences, bidi controls and zero-width characters are written
 * escaped (`visibleText`), so the terminal shows what the text holds and nothing rewrites it
 * (docs/security.md, invisible and control characters). A file or folder whose name holds a
 * control character is not served: `check` says it is skipped, `ls`, `find` and `nav` never
 * print it (docs/repository.md).
 */
const BIN = join(REPO, "bin", "svc-mcp.js");

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A repository in a temp folder: values are file contents, a name ending in `/` a folder. */
function repo(files: Record<string, string>, name = "svc-invisible-"): string {
  const root = tempDir(name);
  for (const [rel, content] of Object.entries(files)) {
    if (rel.endsWith("/")) mkdirSync(join(root, rel), { recursive: true });
    else writeFileSync(join(root, rel), content);
  }
  return root;
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `svc-mcp ARGS` as a process, with a home of its own (no state of the caller's; no cache unless `home` is given). */
function cli(args: readonly string[], home?: string): Promise<Run> {
  const env = home !== undefined ? { HOME: home } : { HOME: tempDir("svc-invisible-home-"), SVC_MCP_CACHE: "off" };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
    });
  });
}

const docsJson = (groups: object[]): string => JSON.stringify({ name: "N", navigation: { groups } });

describe("svc-mcp check and nav: text from the repository is written escaped", () => {
  it("a key with U+200B, a path with ESC[31m and titles with U+202E are shown as escapes, never raw", async () => {
    const root = repo({
      "docs.json": docsJson([{ group: "G\u202Elive", pages: ["index", "gone\u001b[31mred"] }]),
      "index.mdx": "---\ntitle: Ho\u202Eme\n\u200Bgroups: [staff]\n---\n# Hi\n",
    });
    expect(await cli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        'docs.json:1:72 navigation.groups[0].pages[1]: warning: page "gone\\x1b[31mred" not found: no gone\\x1b[31mred.mdx or gone\\x1b[31mred.md',
        "index.mdx:3 \\u200Bgroups: warning: is read as `groups` here, restricting the page to the groups it names; the platform reads only a key written exactly `groups` and would serve the page to everyone: rename the key",
        "checked docs.json and 1 page: 0 errors, 2 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
    expect(await cli(["nav", "--dir", root])).toEqual({
      code: 0,
      stdout: ["N", "root: groups", "eyebrows: theme default", "drilldown: theme default", "", "group G\\u202Elive", "  Ho\\u202Eme  /index", "  Gone\\x1b[31mred  /gone\\x1b[31mred  (no file)", ""].join("\n"),
      stderr: "",
    });
  });

  it("an error message quoting a folder name writes its escape sequence and bidi control escaped", async () => {
    const root = repo({}, "svc-invisible-\u001b[31m\u202E-");
    const run = await cli(["nav", "--dir", root]);
    const shown = root.replace("\u001b", "\\x1b").replace("\u202E", "\\u202E");
    expect(run).toEqual({ code: 1, stdout: "", stderr: `svc-mcp: no docs.json in ${shown}: there is no navigation to show\n` });
  });
});

describe("a file or folder whose name holds a control character", () => {
  it("is skipped with a warning, and never breaks a line of ls, find, grep -l or nav", async () => {
    const root = repo({
      "docs.json": docsJson([{ group: "G", pages: ["index", "new\nline"] }]),
      "index.mdx": "# Home\n\nneedle\n",
      "new\nline.mdx": "# Split\n\nneedle\n",
      "tab\tbed/": "",
      "tab\tbed/inner.mdx": "# Inner\n\nneedle\n",
      "z\u200Bwidth.mdx": "# Width\n\nneedle\n",
    });
    expect(await cli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        'docs.json:1:67 navigation.groups[0].pages[1]: warning: page "new\\nline" not found: new\\nline.mdx is skipped (the name holds a control character (U+000A), which svc-mcp does not serve: rename it)',
        "new\\nline.mdx warning: skipped: the name holds a control character (U+000A), which svc-mcp does not serve: rename it",
        "tab\\tbed warning: skipped: the name holds a control character (U+0009), which svc-mcp does not serve: rename it",
        'z\\u200Bwidth.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)',
        "checked docs.json and 2 pages: 0 errors, 4 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
    const fs = await cli(["fs", "--dir", root, "ls /; find /; grep -rl needle /"]);
    expect(fs).toEqual({
      code: 0,
      stdout: ["index.mdx", "skill.md", "z\u200Bwidth.mdx", "/", "/index.mdx", "/skill.md", "/z\u200Bwidth.mdx", "/index.mdx", "/z\u200Bwidth.mdx", ""].join("\n"),
      stderr: `svc-mcp: 2 warnings in 2 files; run \`svc-mcp check --dir ${root}\` for details\n`,
    });
    expect((await cli(["nav", "--dir", root])).stdout).toBe(["N", "root: groups", "eyebrows: theme default", "drilldown: theme default", "", "group G", "  Home  /index", "  New\\nLine  /new\\nline  (no file)", ""].join("\n"));
  });

  it("is said to be skipped on a start from the site cache too", async () => {
    const root = repo({ "docs.json": docsJson([{ group: "G", pages: ["index"] }]), "index.mdx": "# Home\n\nneedle\n", "new\nline.mdx": "# Split\n\nneedle\n" });
    // Changed long ago: the cache's listing of the folder is trusted, not listed again.
    const past = new Date("2024-01-01T00:00:00Z");
    utimesSync(root, past, past);
    const home = tempDir("svc-invisible-home-");
    const said = { code: 0, stdout: "/index.mdx\n", stderr: `svc-mcp: 1 warning in new\\nline.mdx; run \`svc-mcp check --dir ${root}\` for details\n` };
    expect(await cli(["fs", "--dir", root, "grep -rl needle /"], home)).toEqual(said);
    expect(await cli(["search", "needle", "--dir", root, "--json"], home)).toMatchObject({ code: 0, stderr: said.stderr });
    expect(await cli(["fs", "--dir", root, "grep -rl needle /"], home)).toEqual(said);
  });

  it("an API operation's summary with control characters makes a page path without them", async () => {
    const spec = { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/a": { get: { summary: "List\tall \u001b[31mred\u0085", responses: { "200": { description: "ok" } } } } } };
    const root = repo({ "docs.json": JSON.stringify({ name: "S", navigation: { groups: [{ group: "API", openapi: "api.json", pages: ["index"] }] } }), "index.mdx": "# Home\n", "api.json": JSON.stringify(spec) });
    expect(await cli(["fs", "--dir", root, "find /api-reference"])).toEqual({ code: 0, stdout: "/api-reference\n/api-reference/list-all-[31mred.mdx\n", stderr: "" });
  });
});
