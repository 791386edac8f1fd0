import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";
import { REPO } from "../helpers/paths.js";

/**
 * Fail closed: what cannot be read is never taken as "nothing there" when "nothing there" would
 * open access. An ignore file that exists but cannot be read stops the load; a restriction that
 * cannot be read restricts to no reader.
 */

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-fail-closed-"));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const SITE = { "index.mdx": "# Home\n", "secret/plan.mdx": "# Plan\n\nEXCLUDED\n" };
const stopped = (name: string, why: string) => `svc-mcp: cannot read ${name}: ${why}; the files it excludes would be served, so nothing is (make it readable, or remove it)\n`;

describe("an ignore file that exists but cannot be read stops the load (exit 2, nothing served)", () => {
  const cases: [string, (dir: string) => void, string][] = [
    [".svcignore is a folder", (dir) => mkdirSync(join(dir, ".svcignore")), stopped(".svcignore", "is a folder, not a file")],
    [".mintignore links outside the repository", (dir) => symlinkSync(join(REPO, "package.json"), join(dir, ".mintignore")), stopped(".mintignore", "the link leads outside the repository, so it is not read")],
    [".svcignore links to nowhere", (dir) => symlinkSync("gone", join(dir, ".svcignore")), stopped(".svcignore", "the link leads nowhere")],
    [".svcignore is a link loop", (dir) => symlinkSync(".svcignore", join(dir, ".svcignore")), stopped(".svcignore", "the link loops, or changed while being read")],
  ];
  it.each(cases)("%s", async (_name, make, message) => {
    const dir = repo(SITE);
    make(dir);
    const env = { SVC_MCP_CACHE: "off" };
    const runs = [await runCli(["fs", "--dir", dir, "ls /"], { env }), await runCli(["search", "--dir", dir, "plan"], { env }), await runCli(["check", "--dir", dir], { env })];
    expect(runs).toEqual([0, 1, 2].map(() => ({ code: 2, stdout: "", stderr: message })));
  });

  /**
   * `svc-mcp fs --dir DIR 'ls /'` in a process of its own, stopped if it hangs. `denied`: with
   * file permissions enforced. Root may read anything (the DAC override capabilities), so as
   * root the process runs without them (setpriv drops them from its bounding and inheritable
   * sets): still root, still the owner of the checkout and of the temp folders wherever they are
   * and whatever the folders above them allow, but a file mode of 000 now refuses it. Switching
   * to an unprivileged user instead would depend on that user reaching the checkout, which a
   * clone in a private folder (`mktemp -d`, /root) does not allow.
   */
  function fsProcess(dir: string, options: { denied?: boolean } = {}) {
    const cli = [process.execPath, join(REPO, "bin/svc-mcp.js"), "fs", "--dir", dir, "ls /"];
    const dropDacOverride = ["--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search", "--"];
    const [command, ...args] = options.denied === true && process.getuid?.() === 0 ? ["setpriv", ...dropDacOverride, ...cli] : cli;
    const run = spawnSync(command as string, args, {
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: dir, SVC_MCP_CACHE: "off" },
      // A hang detector (the test is that it does not hang), far past a loaded machine's load time.
      timeout: 300_000,
      // SIGKILL: the CLI answers SIGTERM by stopping gracefully, which a process blocked on a read never gets to.
      killSignal: "SIGKILL",
    });
    if (run.error !== undefined) throw run.error;
    return [run.status, run.signal, run.stdout, run.stderr];
  }

  it("permission denied (as root: without the capabilities that let root read anything)", () => {
    const dir = repo({ ...SITE, ".svcignore": "secret/\n" });
    chmodSync(join(dir, ".svcignore"), 0o000);
    expect(fsProcess(dir, { denied: true })).toEqual([2, null, "", stopped(".svcignore", "permission denied")]);
  });

  it("a pipe, without waiting on it (in a process of its own: reading a pipe would block the tests)", () => {
    const dir = repo(SITE);
    execFileSync("mkfifo", [join(dir, ".svcignore")]);
    expect(fsProcess(dir)).toEqual([2, null, "", stopped(".svcignore", "not a regular file")]);
  });

  it("an absent ignore file is the normal case; one that links inside the repository is read", async () => {
    const absent = repo(SITE);
    const linked = repo({ ...SITE, "config/ignore": "secret/\n" });
    symlinkSync("config/ignore", join(linked, ".svcignore"));
    const env = { SVC_MCP_CACHE: "off" };
    // The site has no docs.json: `fs` says so on stderr, and only that.
    const noDocsJson = (dir: string): string =>
      `svc-mcp: warning: no docs.json (or mint.json) in ${dir}: every page is served, in file order, with no navigation; write a docs.json there with the site's "name" and its "navigation" to order them (\`svc-mcp schema\` prints its JSON Schema)\n`;
    expect([await runCli(["fs", "--dir", absent, "find / -type f"], { env }), await runCli(["fs", "--dir", linked, "find / -type f"], { env })]).toEqual([
      { code: 0, stdout: "/index.mdx\n/secret/plan.mdx\n/skill.md\n", stderr: noDocsJson(absent) },
      { code: 0, stdout: "/index.mdx\n/skill.md\n", stderr: noDocsJson(linked) },
    ]);
  });

  it("on a live reload, the last good ignore rules keep applying and the problem is reported (test/vfs/ignore-last-good.test.ts)", async () => {
    const dir = repo({ ...SITE, ".svcignore": "secret/\n" });
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root: dir, log: (m) => logs.push(m) });
    try {
      unlinkSync(join(dir, ".svcignore"));
      mkdirSync(join(dir, ".svcignore"));
      await runtime.applyChanges([".svcignore"]);
      const c = await connect(runtime);
      expect([c.text(await c.call("query_docs_filesystem_" + runtime.names.slug, { command: "find / -type f" })), logs]).toEqual([
        "/index.mdx\n/skill.md\n",
        [".svcignore cannot read (is a folder, not a file); still applying the last good ignore rules until it is fixed"],
      ]);
      await c.close();
    } finally {
      await runtime.close();
    }
  });
});

describe("a restriction that cannot be read restricts to no reader", () => {
  const spec = `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /vault:
    get:
      summary: VAULTA operation
      x-svc: {metadata: "groups: [staff]"}
      responses: {"200": {description: OK}}
  /keys:
    get:
      summary: VAULTB operation
      x-mint: staff
      responses: {"200": {description: OK}}
  /merged:
    get:
      summary: VAULTC operation
      x-mint: {metadata: {groups: [staff]}}
      x-svc: {href: /merged-page}
      responses: {"200": {description: OK}}
  /open:
    get:
      summary: Open operation
      responses: {"200": {description: OK}}
`;
  it("page groups that are not a list of names, and an x-svc/x-mint extension or metadata that is not an object", async () => {
    const dir = repo({
      "docs.json": JSON.stringify({ name: "Closed", navigation: { groups: [{ group: "G", pages: ["index", "odd"] }, { group: "API", openapi: "openapi.yaml" }] } }),
      "index.mdx": "# Home\n",
      "odd.mdx": "---\ngroups: { staff: true }\n---\n\nVAULTD text\n",
      "openapi.yaml": spec,
    });
    const runtime = await DocsRuntime.load({ root: dir });
    try {
      const seen: unknown[] = [];
      for (const reader of [undefined, readerWithGroups(["staff"])]) {
        const c = await connect(runtime, reader);
        seen.push(c.text(await c.call("query_docs_filesystem_closed", { command: "find / -name '*.mdx' | sort" })));
        for (const query of ["VAULTA", "VAULTB", "VAULTC", "VAULTD"]) {
          seen.push(((await c.call("search_closed", { query })).structuredContent as { results: { path: string }[] }).results.map((r) => r.path));
        }
        await c.close();
      }
      // x-mint's groups still restrict when x-svc is set beside it: to staff, who reads that page.
      // For staff, VAULTA, VAULTB and VAULTD are words of no page it may read, so search corrects
      // them as typos of VAULTC (docs/search.md: statistics come from what the reader may read).
      expect(seen).toEqual([
        "/api-reference/open-operation.mdx\n/index.mdx\n",
        [],
        [],
        [],
        [],
        "/api-reference/open-operation.mdx\n/index.mdx\n/merged-page.mdx\n",
        ["/merged-page"],
        ["/merged-page"],
        ["/merged-page"],
        ["/merged-page"],
      ]);
      expect([...runtime.site.pages.keys()]).toEqual(["/api-reference/open-operation", "/api-reference/vaulta-operation", "/api-reference/vaultb-operation", "/index", "/merged-page", "/odd"]);
    } finally {
      await runtime.close();
    }
  });

  /**
   * A `groups` key that is there but names no group (`groups:` and `groups: ~` read as null, a
   * list emptied, an empty string) was read as no rule: emptying or commenting out a page's list
   * while serving published it over HTTP at once, while `check` said "readable by no reader"
   * (adversary round 14). Also on snippets, skills and x-svc/x-mint metadata.
   */
  it("a groups key naming no group (null, empty) restricts pages, snippets, skills and operations to no reader", async () => {
    const op = (name: string, ext: string): string => `  /${name}:\n    get:\n      summary: ${name.toUpperCase()}WORD\n      ${ext}\n      responses: {"200": {description: OK}}\n`;
    const dir = repo({
      "docs.json": JSON.stringify({ name: "Closed", navigation: { groups: [{ group: "G", pages: ["index", "tilde", "blank", "list", "text"] }, { group: "API", openapi: "openapi.yaml" }] } }),
      "index.mdx": '---\ntitle: Home\n---\nimport S from "/snippets/s.mdx";\n\nHOMEWORD\n\n<S />\n',
      "tilde.mdx": "---\ngroups: ~\n---\n\nTILDEWORD text\n",
      "blank.mdx": "---\ngroups:\n#  - staff\n---\n\nBLANKWORD text\n",
      "list.mdx": "---\ngroups: []\n---\n\nLISTWORD text\n",
      "text.mdx": '---\ngroups: " , "\n---\n\nTEXTWORD text\n',
      "snippets/s.mdx": "---\ngroups:\n---\nSNIPWORD text\n",
      "skills/s1/SKILL.md": "---\nname: s1\ndescription: d\ngroups: ~\n---\nSKILLWORD\n",
      "openapi.yaml": `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n${op("opa", "x-svc: null")}${op("opb", "x-svc: {metadata: null}")}${op("opc", "x-svc: {metadata: {groups: null}}")}${op("opd", "x-mint: {metadata: {groups: ~}}")}${op("ope", "x-svc: {metadata: {groups: []}}")}${op("opf", 'x-svc: {metadata: {groups: ""}}')}${op("pub", "description: public")}`,
    });
    const runtime = await DocsRuntime.load({ root: dir });
    try {
      const c = await connect(runtime);
      const words = ["HOMEWORD", "TILDEWORD", "BLANKWORD", "LISTWORD", "TEXTWORD", "SNIPWORD", "SKILLWORD", "OPAWORD", "OPBWORD", "OPCWORD", "OPDWORD", "OPEWORD", "OPFWORD", "PUBWORD"];
      const seen = [
        c.text(await c.call("query_docs_filesystem_closed", { command: `find / -type f | sort; rg -l '${words.join("|")}' / | sort` })),
        (await c.client.listResources()).resources.map((r) => r.uri),
      ];
      for (const query of words) seen.push(((await c.call("search_closed", { query })).structuredContent as { results: { path: string }[] }).results.map((r) => r.path));
      await c.close();
      expect(seen).toEqual([
        "/api-reference/pubword.mdx\n/index.mdx\n/openapi.yaml\n/skill.md\n/api-reference/pubword.mdx\n/index.mdx\n/openapi.yaml\n",
        ["docs://closed/skill.md"],
        ["/index"],
        ...words.slice(1, -1).map(() => []),
        ["/api-reference/pubword"],
      ]);
    } finally {
      await runtime.close();
    }
    const check = await runCli(["check", "--dir", dir], { env: { SVC_MCP_CACHE: "off" } });
    expect(check.stdout.split("\n").filter((l) => /groups|no reader/.test(l))).toEqual([
    "blank.mdx:2 groups: warning: names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)",
    "list.mdx:2 groups: warning: names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)",
    `openapi.yaml warning: x-svc metadata.groups of paths./opa.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed`,
    `openapi.yaml warning: x-svc metadata.groups of paths./opb.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed`,
    `openapi.yaml warning: x-svc metadata.groups of paths./opc.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed`,
    `openapi.yaml warning: x-svc metadata.groups of paths./opd.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed`,
    `openapi.yaml warning: x-svc metadata.groups of paths./ope.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed`,
    `openapi.yaml warning: x-svc metadata.groups of paths./opf.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed`,
    "skills/s1/SKILL.md:4 groups: warning: names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)",
    "snippets/s.mdx:2 groups: warning: names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)",
    "text.mdx:2 groups: warning: names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)",
    "tilde.mdx:2 groups: warning: names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)",
    ]);
  });
});
