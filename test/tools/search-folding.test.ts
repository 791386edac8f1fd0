import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * One hit per page across versions and products, through the SDK client: versions whose labels
 * name no path (`Version 2025-06-18 (latest)` lists `/docs/2025-06-18/...`) fold by the segment
 * navigation shows, near-identical copies under products fold by title and text, and the
 * `version` argument takes the label, the segment, `latest` and case variants.
 */
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const tools = (version: string) =>
  page(
    "Tools",
    `Servers expose tools that clients call with tools/call. A tool result may carry structuredContent.\n\n## Errors\n\nA call without the capability fails with MISSING_REQUIRED_CLIENT_CAPABILITY. See the [${version} schema](/docs/${version}/schema).`,
  );

const versioned = {
  name: "Protocol",
  navigation: {
    versions: [
      { version: "Version 2025-06-18 (latest)", tag: "Latest", groups: [{ group: "Server", pages: ["docs/2025-06-18/tools", "docs/2025-06-18/schema"] }] },
      { version: "Version 2025-03-26", default: true, groups: [{ group: "Server", pages: ["docs/2025-03-26/tools", "docs/2025-03-26/schema"] }] },
      { version: "Draft", groups: [{ group: "Server", pages: ["docs/draft/tools"] }] },
    ],
  },
};

const setup = (edition: string) =>
  page(
    "Set up the gateway",
    `Install the gateway, point it at your database and start it. The gateway listens on port 8080 and keeps its sessions in the database you gave it. Restart it after changing the database settings. This guide is for ${edition}.`,
  );
const products = {
  name: "Gateway",
  navigation: {
    products: [
      { product: "Cloud", groups: [{ group: "Start", pages: ["cloud/setup", "cloud/billing"] }] },
      { product: "Self-host", groups: [{ group: "Start", pages: ["self-host/setup", "self-host/hardware"] }] },
    ],
  },
};

let repos: ReturnType<typeof makeRepo>[] = [];
let protocol: Awaited<ReturnType<typeof connect>>;
let gateway: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  const a = makeRepo({
    "docs.json": JSON.stringify(versioned),
    "docs/2025-06-18/tools.mdx": tools("2025-06-18"),
    "docs/2025-03-26/tools.mdx": tools("2025-03-26"),
    "docs/draft/tools.mdx": tools("draft"),
    "docs/2025-06-18/schema.mdx": page("Schema", "The schema of every message."),
    "docs/2025-03-26/schema.mdx": page("Schema", "The schema of every message."),
  });
  const b = makeRepo({
    "docs.json": JSON.stringify(products),
    "cloud/setup.mdx": setup("Cloud"),
    "self-host/setup.mdx": setup("Self-host"),
    "cloud/billing.mdx": page("Billing", "Cloud bills the gateway per session."),
    "self-host/hardware.mdx": page("Hardware", "The gateway needs two cores and a database."),
  });
  repos = [a, b];
  protocol = await connect(await DocsRuntime.load({ root: a.dir, baseUrl: "https://docs.example.com" }));
  gateway = await connect(await DocsRuntime.load({ root: b.dir, baseUrl: "https://gw.example.com" }));
});
afterAll(async () => {
  await protocol.close();
  await gateway.close();
  for (const r of repos) r.cleanup();
});

/** The text of a search, and the paths of its results (with the versions folded into each). */
async function search(client: typeof protocol, name: string, args: Record<string, unknown>): Promise<{ text: string; paths: string[][] }> {
  const r = await client.call(name, args);
  const results = (r.structuredContent as { results: { path: string; otherVersions?: { path: string }[] }[] }).results;
  return { text: (r.content as { text: string }[])[0]?.text ?? "", paths: results.map((x) => [x.path, ...(x.otherVersions ?? []).map((o) => o.path)]) };
}

describe("versions fold by the path segment navigation shows", () => {
  it("one hit for the three copies, in the default version, the others listed as also-in", async () => {
    expect((await search(protocol, "search_protocol", { query: "MISSING_REQUIRED_CLIENT_CAPABILITY" })).text).toBe(
      [
        "1. Tools › Errors",
        "   https://docs.example.com/docs/2025-03-26/tools#errors",
        "   file: /docs/2025-03-26/tools.mdx · score 0.377 · version Version 2025-03-26",
        "   also in Draft: https://docs.example.com/docs/draft/tools",
        "   also in Version 2025-06-18 (latest): https://docs.example.com/docs/2025-06-18/tools",
        "   A call without the capability fails with MISSING_REQUIRED_CLIENT_CAPABILITY. See the 2025-03-26 schema.",
      ].join("\n"),
    );
  });

  it("shown in the version the query names, by its segment", async () => {
    expect((await search(protocol, "search_protocol", { query: "structuredContent 2025-06-18" })).paths).toEqual([
      ["/docs/2025-06-18/tools", "/docs/2025-03-26/tools", "/docs/draft/tools"],
      ["/docs/2025-06-18/schema", "/docs/2025-03-26/schema"],
    ]);
    expect((await search(protocol, "search_protocol", { query: "tools/call in the draft" })).paths).toEqual([["/docs/draft/tools", "/docs/2025-03-26/tools", "/docs/2025-06-18/tools"]]);
  });

  it("with a version filter, nothing folds", async () => {
    expect((await search(protocol, "search_protocol", { query: "tools", version: "Draft" })).paths).toEqual([["/docs/draft/tools"]]);
  });
});

describe("the version argument", () => {
  const pathsFor = async (version: string) => (await search(protocol, "search_protocol", { query: "tools schema", version })).paths;
  it("takes the label, its case variants, the path segment, the label's core and latest", async () => {
    const latest = [["/docs/2025-06-18/tools"], ["/docs/2025-06-18/schema"]];
    const previous = [["/docs/2025-03-26/tools"], ["/docs/2025-03-26/schema"]];
    for (const form of ["Version 2025-06-18 (latest)", "version 2025-06-18 (LATEST)", "2025-06-18", "Version 2025-06-18", "latest", "Latest"]) {
      expect([form, await pathsFor(form)]).toEqual([form, latest]);
    }
    for (const form of ["Version 2025-03-26", "2025-03-26", "VERSION 2025-03-26"]) expect([form, await pathsFor(form)]).toEqual([form, previous]);
    for (const form of ["Draft", "draft", "DRAFT"]) expect([form, await pathsFor(form)]).toEqual([form, [["/docs/draft/tools"]]]);
  });

  it("refuses anything else, listing the accepted forms", async () => {
    // An argument the model can correct is a tool result with isError (SEP-1303), not a protocol error.
    expect(await protocol.call("search_protocol", { query: "tools", version: "2024-11-05" })).toEqual({
      content: [
        {
          type: "text",
          text:
            "Invalid arguments for search_protocol: version: not a version of this site; use one of Version 2025-06-18 (latest) (also 2025-06-18), " +
            'Version 2025-03-26 (also 2025-03-26), Draft, latest (got "2024-11-05")',
        },
      ],
      isError: true,
    });
  });
});

describe("near-identical pages under products fold", () => {
  it("one hit for Cloud and Self-host, the other listed as also-in", async () => {
    expect((await search(gateway, "search_gateway", { query: "set up the gateway database" })).text).toBe(
      [
        "1. Set up the gateway",
        "   https://gw.example.com/cloud/setup",
        "   file: /cloud/setup.mdx · score 0.708 · product Cloud",
        "   also in Self-host: https://gw.example.com/self-host/setup",
        "   Install the gateway, point it at your database and start it. The gateway listens on port 8080 and keeps its sessions in the database you gave it. Restart it after changing the database settings. This guide is for Cloud.",
        "",
        "2. Hardware",
        "   https://gw.example.com/self-host/hardware",
        "   file: /self-host/hardware.mdx · score 0.235 · product Self-host",
        "   The gateway needs two cores and a database.",
        "",
        "3. Billing",
        "   https://gw.example.com/cloud/billing",
        "   file: /cloud/billing.mdx · score 0.083 · product Cloud",
        "   Cloud bills the gateway per session.",
      ].join("\n"),
    );
  });
});
