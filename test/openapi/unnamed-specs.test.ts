import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { lines, writeRepo } from "./helpers.js";

/**
 * Specs docs.json never names (issue 24, item 4): the hosted platform uploads every OpenAPI
 * spec in the repository and matches a page whose front matter names no file (`openapi: post
 * /agents/{agent_id}/runs`) against all of them; front matter methods are read in any case,
 * `webhook crawlPage` included, and a webhook page shows its payload.
 */
const agents = {
  openapi: "3.1.0",
  info: { title: "Agents", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/agents/{agent_id}/runs": {
      post: {
        summary: "Start a run",
        parameters: [{ name: "agent_id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "201": { description: "Started", content: { "application/json": { schema: { type: "object", properties: { runId: { type: "string" } } } } } } },
      },
    },
  },
  webhooks: {
    runFinished: {
      post: {
        summary: "Run finished",
        requestBody: { content: { "application/json": { schema: { type: "object", properties: { runId: { type: "string", description: "The finished run" }, status: { type: "string" } } } } } },
        responses: { "200": { description: "Received" } },
      },
    },
  },
};

const page = (title: string, openapi: string): string => `---\ntitle: ${title}\nopenapi: "${openapi}"\n---\n\nIntro.\n`;

describe("specs docs.json never names", () => {
  let root: string;
  let runtime: DocsRuntime;
  const sh = async (command: string) => {
    const r = await runtime.readerState(localContext()).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Agents", navigation: { pages: ["runs", "run-finished"] } },
      "runs.mdx": page("Runs", "post /agents/{agent_id}/runs"),
      "run-finished.mdx": page("Run finished", "/api/agents.json webhook runFinished"),
      "api/agents.json": agents,
      // Not a spec: never matched, even though it holds the same path as a key.
      "fixtures/sample.json": { "/agents/{agent_id}/runs": true },
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("mount the spec that holds a file-less reference's operation, with no warning", async () => {
    expect(runtime.site.config.specs).toEqual([{ source: "api/agents.json", remote: false, frontMatter: true }]);
    expect(lines(runtime.site)).toEqual([]);
    expect(await sh("sed -n '6,12p' /runs.mdx")).toBe(["Intro.", "", "---", "", "`POST /agents/{agent_id}/runs`", "", "**Base URL:** `https://api.example.com`"].join("\n") + "\n");
  });

  it("show a webhook page written with a lowercase method, with its payload", async () => {
    expect(await sh("grep -A8 '^`WEBHOOK' /run-finished.mdx")).toBe(
      [
        "`WEBHOOK runFinished (POST to your endpoint)`",
        "",
        "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request",
        "",
        "## Request body",
        "",
        "`application/json`",
        "",
        "- [`runId`](#runId) `string`: The finished run",
      ].join("\n") + "\n",
    );
  });

  it("take the first by file name when several repository specs hold the path, and say so (a versioned site's v2 page shows v1's)", async () => {
    const v1 = { ...agents, servers: [{ url: "https://v1.example.com" }] };
    const v2 = { ...agents, servers: [{ url: "https://v2.example.com" }] };
    const twice = writeRepo({
      "docs.json": { name: "Agents", navigation: { versions: [{ version: "v1", pages: ["v1/runs"] }, { version: "v2", pages: ["v2/runs"] }] } },
      "v1/runs.mdx": page("Runs", "post /agents/{agent_id}/runs"),
      "v2/runs.mdx": page("Runs", "post /agents/{agent_id}/runs"),
      "v1/openapi.json": v1,
      "v2/openapi.json": v2,
    });
    const rt = await DocsRuntime.load({ root: twice });
    try {
      expect(lines(rt.site)).toEqual(
        ["v1", "v2"].map(
          (v) =>
            `${v}/runs.mdx warning: front matter openapi "post /agents/{agent_id}/runs" names no spec, and 2 specs have POST /agents/{agent_id}/runs (v1/openapi.json, v2/openapi.json): the page shows v1/openapi.json's, the first by file name, as the hosted platform takes it; name one as "<spec file> POST /agents/{agent_id}/runs"`,
        ),
      );
      const shell = rt.readerState(localContext()).shell;
      for (const v of ["v1", "v2"]) expect((await shell.run(`grep 'Base URL' /${v}/runs.mdx`)).stdout).toBe("**Base URL:** `https://v1.example.com`\n");
    } finally {
      await rt.close();
    }
  });
});

describe("front matter naming no spec where several apply", () => {
  it("shows the operation of the one spec that has it, or of the first by file name with a warning, as the platform takes it", async () => {
    const v1 = { ...agents, info: { title: "Agents v1", version: "1" }, webhooks: {} };
    const v2 = { ...agents, info: { title: "Agents v2", version: "2" }, servers: [{ url: "https://v2.example.com" }], webhooks: {} };
    const onlyV2 = { ...v2, paths: { ...v2.paths, "/agents": { get: { summary: "List agents", responses: { "200": { description: "OK" } } } } } };
    const root = writeRepo({
      "docs.json": { name: "Agents", api: { openapi: ["api/v2.json", "api/v1.json"] }, navigation: { pages: ["runs", "list"] } },
      "runs.mdx": page("Runs", "post /agents/{agent_id}/runs"),
      "list.mdx": page("List", "GET /agents"),
      "api/v1.json": v1,
      "api/v2.json": onlyV2,
    });
    const rt = await DocsRuntime.load({ root });
    expect(lines(rt.site)).toEqual([
      'runs.mdx:3 warning: front matter openapi "post /agents/{agent_id}/runs" names no spec, and 2 specs have POST /agents/{agent_id}/runs (api/v1.json, api/v2.json): the page shows api/v1.json\'s, the first by file name, as the hosted platform takes it; name one as "<spec file> POST /agents/{agent_id}/runs"',
    ]);
    const sh = async (command: string) => (await rt.readerState(localContext()).shell.run(command)).stdout;
    expect(await sh("grep -h 'Base URL' /runs.mdx /list.mdx")).toBe("**Base URL:** `https://api.example.com`\n**Base URL:** `https://v2.example.com`\n");
    await rt.close();
  });
});

/**
 * `webhook` in navigation, as the platform's docs and real sites write it (Polar's docs.json:
 * `"webhook customer.state_changed"` under a group with `openapi`): a keyword, not an HTTP
 * method, so read in any case; an HTTP method in navigation stays case-sensitive (the spec).
 */
describe("a navigation entry naming a webhook in lower case", () => {
  it("makes the webhook's page, with its payload, and no error; a lower-case HTTP method still matches nothing", async () => {
    const root = writeRepo({
      "docs.json": {
        name: "Agents",
        navigation: { groups: [{ group: "Events", openapi: "api/agents.json", pages: ["webhook runFinished", "Webhook runFinished", "post /agents/{agent_id}/runs"] }] },
      },
      "api/agents.json": agents,
    });
    const rt = await DocsRuntime.load({ root });
    try {
      expect(lines(rt.site)).toEqual([
        'docs.json:10:11 navigation.groups[0].pages[1]: warning: page "Webhook runFinished" is listed twice (first at navigation.groups[0].pages[0])',
        'docs.json navigation.groups[0].pages[2]: "post /agents/{agent_id}/runs" matches no operation (operation matching is case-sensitive: the method must be upper case ("POST /agents/{agent_id}/runs")), and as a page path no file post /agents/{agent_id}/runs.mdx exists',
      ]);
      const r = await rt.readerState(localContext()).shell.run("ls /api-reference; grep -A4 '^`WEBHOOK' /api-reference/run-finished.mdx");
      expect(r.stdout + r.stderr).toBe(
        ["run-finished.mdx", "`WEBHOOK runFinished (POST to your endpoint)`", "", "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request", "", "## Request body"].join("\n") + "\n",
      );
    } finally {
      await rt.close();
    }
  });
});

/**
 * A page naming no spec file is matched against every spec in the repository, as the platform
 * does, whoever else names them: an earlier rule matched it only among the specs every one of
 * its readers may read, so an open page naming `POST /secret` showed it where no staff page names
 * `api/staff.yaml` and showed nothing where one does, which told its readers what the staff page
 * names (adversary round 47 F7). The file an open page's name finds is the open page's readers'
 * (their page names it), as on the site without the staff pages; a staff page naming it by its
 * path narrows it for no one else.
 */
describe("front matter naming no spec, where the one spec holding the operation is a staff page's too", () => {
  const staffSpec = [
    "openapi: 3.1.0",
    "info: {title: Staff, version: '1'}",
    "paths:",
    "  /secret: {post: {summary: Secret op, description: SECRETOPMARK, responses: {'200': {description: ok}}}}",
    "  /other: {get: {summary: Other, description: OTHERSECRETMARK, responses: {'200': {description: ok}}}}",
    "webhooks:",
    "  secretHook: {post: {summary: Secret hook, description: HOOKMARK, responses: {'200': {description: ok}}}}",
    "",
  ].join("\n");
  const page = (title: string, openapi: string, extra = ""): string => `---\ntitle: ${title}\n${extra}openapi: ${openapi}\n---\n${title} prose\n`;
  const repo = (staff: boolean): Record<string, unknown> => ({
    "docs.json": { name: "Unnamed", navigation: { groups: [{ group: "Start", pages: ["index", "staff", "pub", "hook", "staffhook"] }] } },
    "index.mdx": "# Home\n",
    "pub.mdx": page("Pub page", "POST /secret"),
    "hook.mdx": page("Hook page", "webhook secretHook"),
    "api/staff.yaml": staffSpec,
    ...(staff
      ? {
          "staff.mdx": page("Staff page", "/api/staff.yaml POST /secret", "groups: [staff]\n"),
          // A staff page naming no file finds it the same way.
          "staffhook.mdx": page("Staff hook", "webhook secretHook", "groups: [staff]\n"),
        }
      : {}),
  });
  const roots: string[] = [];
  let runtime: DocsRuntime;
  let without: DocsRuntime;
  const sh = async (rt: DocsRuntime, command: string, groups: readonly string[] = []) => {
    const r = await rt.readerState(localContext(readerWithGroups(groups))).shell.run(command);
    return r.stdout + r.stderr;
  };
  beforeAll(async () => {
    for (const staff of [true, false]) roots.push(writeRepo(repo(staff)));
    runtime = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([runtime.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it("shows the operation and the file to the open page's readers, as the site without the staff pages does", async () => {
    const COMMAND = "ls -R /; cat /pub.mdx /hook.mdx; grep -rl 'SECRETOPMARK\\|OTHERSECRETMARK\\|HOOKMARK' /";
    const seen = await sh(runtime, COMMAND);
    expect(seen).toBe(await sh(without, COMMAND));
    expect(await sh(runtime, "ls -R /; grep -rl 'SECRETOPMARK\\|OTHERSECRETMARK\\|HOOKMARK' /")).toBe("/:\napi\nhook.mdx\nindex.mdx\npub.mdx\nskill.md\n\n/api:\nstaff.yaml\n/api/staff.yaml\n/hook.mdx\n/pub.mdx\n");
    const hits = async (rt: DocsRuntime): Promise<unknown> => (await rt.search(localContext(), { query: "SECRETOPMARK HOOKMARK" })).map((h) => ({ path: h.page.path, score: h.score, snippet: h.snippet }));
    expect(await hits(runtime)).toEqual(await hits(without));
    expect(await sh(runtime, "grep -rl 'SECRETOPMARK\\|HOOKMARK' /", ["staff"])).toBe("/api/staff.yaml\n/hook.mdx\n/pub.mdx\n/staff.mdx\n/staffhook.mdx\n");
    expect(lines(runtime.site)).toEqual([]);
  });
});
