import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { startBridge } from "../bridge/harness.js";
import { runCli } from "../helpers/cli.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { lines, writeRepo } from "./helpers.js";

/**
 * Front matter `openapi-schema` (issue 24): a page documents a data model of `components.schemas`
 * (`openapi-schema: Refund`, or `openapi-schema: openapi.json Customer`), as dodo's webhook
 * payload pages do, and shows its fields after the prose as a request body lists them. The spec
 * is named nowhere in docs.json (the platform uploads every spec in the repository).
 */
const spec = {
  openapi: "3.1.0",
  info: { title: "Payments", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/refunds/{id}": {
      get: {
        summary: "Get refund",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/Refund" } } } } },
      },
    },
    "/audit": {
      get: {
        summary: "Audit log",
        "x-svc": { metadata: { groups: ["staff"] } },
        responses: { "200": { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/AuditEntry" } } } } },
      },
    },
  },
  components: {
    schemas: {
      Refund: {
        type: "object",
        description: "A refund of a payment.",
        required: ["refund_id", "status", "customer"],
        properties: {
          refund_id: { type: "string", description: "The refund's id." },
          status: { type: "string", enum: ["succeeded", "failed"], description: "Where the refund stands." },
          amount: { type: "integer", minimum: 0, description: "In the smallest currency unit." },
          customer: { $ref: "#/components/schemas/Customer" },
        },
      },
      Customer: {
        type: "object",
        description: "Who was refunded.",
        required: ["email"],
        properties: { email: { type: "string", format: "email", description: "Where receipts go." }, name: { type: "string" } },
      },
      AuditEntry: { type: "object", properties: { actor: { type: "string", description: "AUDITWORD who acted." } } },
    },
  },
};

const page = (title: string, schema: string, extra = ""): string => `---\ntitle: ${title}\nopenapi-schema: ${schema}\n${extra}---\n\nSent when it changes.\n`;

const REFUND_REFERENCE = [
  "",
  "---",
  "",
  "## Refund",
  "",
  "`object`",
  "",
  "A refund of a payment.",
  "",
  "- `refund_id` `string` required: The refund's id.",
  '- `status` `string` required: Where the refund stands. (one of: "succeeded", "failed")',
  "- `amount` `integer`: In the smallest currency unit. (minimum: 0)",
  "- `customer` `object` required: Who was refunded.",
  "  - `customer.email` `string<email>` required: Where receipts go.",
  "  - `customer.name` `string`",
  "",
  "### Example",
  "",
  "```json",
  "{",
  '  "refund_id": "<string>",',
  '  "status": "succeeded",',
  '  "amount": 123,',
  '  "customer": {',
  '    "email": "user@example.com",',
  '    "name": "<string>"',
  "  }",
  "}",
  "```",
  "",
  "## Source",
  "",
  "Generated from `/api/openapi.json`: `jq '.[\"components\"][\"schemas\"][\"Refund\"]' /api/openapi.json`",
  "",
].join("\n");

describe("openapi-schema front matter", () => {
  let root: string;
  let runtime: DocsRuntime;
  const sh = async (command: string, reader: Reader = ANONYMOUS): Promise<string> => {
    const r = await runtime.readerState(localContext(reader)).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Payments", navigation: { pages: ["webhooks/refund", "webhooks/customer", "webhooks/audit", "webhooks/audit-staff", "webhooks/typo", "webhooks/bad"] } },
      "webhooks/refund.mdx": page("Refund payload", "Refund"),
      "webhooks/customer.mdx": page("Customer payload", "openapi.json Customer"),
      "webhooks/audit.mdx": page("Audit payload", "AuditEntry"),
      "webhooks/audit-staff.mdx": page("Audit payload (staff)", "AuditEntry", "groups: [staff]\n"),
      "webhooks/typo.mdx": page("Typo", "refund"),
      "webhooks/bad.mdx": page("Bad", "api/openapi.json Refund extra"),
      "api/openapi.json": spec,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("a page shows the author's prose, then the schema's fields (nested, required, enum, description) and an example", async () => {
    const authored = page("Refund payload", "Refund");
    expect(await sh("cat /webhooks/refund.mdx")).toBe(authored + REFUND_REFERENCE);
    expect(await sh("wc -c /webhooks/refund.mdx")).toBe(`${Buffer.byteLength(authored + REFUND_REFERENCE)} /webhooks/refund.mdx\n`);
    // The spec file is named with the page's folder tried first, then by the end of its path.
    expect(await sh("sed -n '10,14p' /webhooks/customer.mdx")).toBe(["## Customer", "", "`object`", "", "Who was refunded."].join("\n") + "\n");
    expect(runtime.site.config.specs).toEqual([{ source: "api/openapi.json", remote: false, frontMatter: true }]);
  });

  it("search finds the page by a field only its schema names", async () => {
    const hits = await runtime.search(localContext(), { query: "smallest currency unit" });
    expect(hits.map((h) => h.page.path)).toEqual(["/webhooks/refund"]);
  });

  it("a schema only a restricted operation uses is shown only on a page as restricted; check says where each problem is", async () => {
    expect(await sh("cat /webhooks/audit.mdx")).toBe(page("Audit payload", "AuditEntry"));
    expect(await sh("grep -c AUDITWORD /webhooks/audit-staff.mdx", readerWithGroups(["staff"]))).toBe("1\n");
    expect(await sh("grep -rc AUDITWORD /webhooks/audit.mdx /api/openapi.json")).toBe("/webhooks/audit.mdx:0\n/api/openapi.json:0\n");
    const check = await runCli(["check", "--dir", root]);
    expect(check.stdout).toBe(
      [
        'webhooks/audit.mdx:3 openapi-schema: warning: schema "AuditEntry" (api/openapi.json) is used only by operations restricted to groups that not every reader of this page is in: it is not shown on the page',
        'webhooks/bad.mdx:3 openapi-schema: warning: "api/openapi.json Refund extra" is not a schema reference ("<schema name>" or "<spec file> <schema name>", a name of components.schemas): the page shows no schema',
        'webhooks/typo.mdx:3 openapi-schema: warning: no schema "refund" in components.schemas of api/openapi.json (did you mean "api/openapi.json Refund"?): the page shows no schema',
        "checked docs.json and 6 pages: 0 errors, 3 warnings",
        "",
      ].join("\n"),
    );
  });

  it("the page for people (HTML) shows the schema's fields after the prose", async () => {
    const h = await startBridge({ root, authMode: "partial", apps: true });
    try {
      const res = await fetch(`${h.origin}/webhooks/refund`, { headers: { accept: "text/html" } });
      const html = await res.text();
      const at = (s: string): number => html.indexOf(s);
      expect([res.status, at("Sent when it changes.") > 0, at("Sent when it changes.") < at("refund_id"), at("Where the refund stands.") > 0, html.includes("AUDITWORD")]).toEqual([200, true, true, true, false]);
    } finally {
      await h.close();
    }
  });
});

describe("openapi-schema against the specs docs.json names", () => {
  it("takes the one spec holding the name, or the first by file name with a warning; an edit of the page reloads it", async () => {
    const other = { ...spec, info: { title: "Other", version: "1" }, paths: {} };
    const root = writeRepo({
      "docs.json": { name: "Payments", api: { openapi: ["b/openapi.json", "a/other.json"] }, navigation: { pages: ["refund", "customer"] } },
      "refund.mdx": page("Refund payload", "Refund"),
      "customer.mdx": page("Customer payload", "b/openapi.json Customer"),
      "b/openapi.json": spec,
      "a/other.json": { ...other, components: { schemas: { Refund: { type: "object", properties: { other_id: { type: "string" } } } } } },
    });
    const first = await loadSite(root);
    expect(lines(first.site)).toEqual([
      'refund.mdx:3 openapi-schema: warning: several specs have a schema "Refund" (a/other.json, b/openapi.json): the page shows a/other.json\'s; name one as "<spec file> Refund"',
    ]);
    expect(first.site.pages.get("/refund")?.body).toContain("- `other_id` `string`\n");
    expect(first.site.pages.get("/customer")?.body).toContain("## Customer\n");
    writeFileSync(join(root, "refund.mdx"), page("Refund payload", "b/openapi.json Refund"));
    const edited = await reloadSite(first, ["refund.mdx"]);
    expect(lines(edited.site)).toEqual([]);
    expect(edited.site.pages.get("/refund")?.body).toContain("- `refund_id` `string` required: The refund's id.\n");
    writeFileSync(join(root, "refund.mdx"), "---\ntitle: Refund payload\n---\n\nNo schema any more.\n");
    const plain = await reloadSite(edited, ["refund.mdx"]);
    expect(plain.site.pages.get("/refund")?.file.text).toBe("---\ntitle: Refund payload\n---\n\nNo schema any more.\n");
  });
});

describe("openapi-schema and an operation restricted by the MDX page documenting it", () => {
  it("a schema only that operation uses is cut from other readers' spec, so it is not on an open page either", async () => {
    const { "x-svc": _rule, ...audit } = spec.paths["/audit"].get;
    const open = { ...spec, paths: { ...spec.paths, "/audit": { get: audit } } };
    const root = writeRepo({
      "docs.json": { name: "Payments", navigation: { pages: ["audit-log", "audit", "refund"] } },
      "audit-log.mdx": '---\ntitle: Audit log\ngroups: [staff]\nopenapi: "GET /audit"\n---\n',
      "audit.mdx": page("Audit payload", "AuditEntry"),
      "refund.mdx": page("Refund payload", "Refund"),
      "api/openapi.json": open,
    });
    const rt = await DocsRuntime.load({ root });
    const run = async (reader: Reader, command: string): Promise<string> => (await rt.readerState(localContext(reader)).shell.run(command)).stdout;
    expect(await run(ANONYMOUS, "grep -c AUDITWORD /api/openapi.json /audit.mdx")).toBe("/api/openapi.json:0\n/audit.mdx:0\n");
    expect(await run(readerWithGroups(["staff"]), "grep -c AUDITWORD /api/openapi.json /audit.mdx")).toBe("/api/openapi.json:1\n/audit.mdx:0\n");
    expect(await run(ANONYMOUS, "grep -c refund_id /refund.mdx")).toBe("2\n");
    expect(lines(rt.site)).toEqual([
      'audit.mdx:3 openapi-schema: warning: schema "AuditEntry" (api/openapi.json) is used only by operations restricted to groups that not every reader of this page is in: it is not shown on the page',
    ]);
    await rt.close();
  });
});

/**
 * An adversary's finding (2026-11-29): a page naming no spec file chose among every loaded spec,
 * also one only restricted pages name and one whose schema only restricted operations use, so a
 * reader outside them got another spec's schema (its text) or none where the site without those
 * files shows the public one. The choice is now made among the specs whose schema every reader
 * of the page keeps: an outside reader's files are the site's without the restricted ones.
 */
describe("a data model page naming no spec, beside specs only other readers keep", () => {
  const widget = (description: string, field: string) => ({
    openapi: "3.1.0",
    info: { title: "Widgets", version: "1" },
    paths: {},
    components: { schemas: { Widget: { type: "object", description, properties: { [field]: { type: "string" } } } } },
  });
  const publicPage = "---\ntitle: Widget\nopenapi-schema: Widget\n---\nThe widget model.\n";
  const docsJson = (specs?: string[]) => ({ name: "W", navigation: { pages: ["index", "models/widget"] }, ...(specs !== undefined ? { api: { openapi: specs } } : {}) });
  const outside = async (root: string) => {
    const files = ["cat /models/widget.mdx", "wc -c /models/widget.mdx", "ls -R /"];
    const out: string[] = [];
    for (const command of files) out.push((await runCli(["fs", command, "--dir", root, "--groups", ""])).stdout);
    return out;
  };

  it("a spec only a restricted page names is not chosen for an open page", async () => {
    const common = { "index.mdx": "---\ntitle: Home\n---\nHome.\n", "models/widget.mdx": publicPage, "api/pub.json": widget("The public widget.", "id") };
    const withSecret = writeRepo({
      ...common,
      "docs.json": docsJson(),
      "api/z-secret.json": widget("SECRETWIDGET internal", "launchCode"),
      "models/staff.mdx": "---\ntitle: Staff widget\ngroups: [staff]\nopenapi-schema: api/z-secret.json Widget\n---\nStaff only.\n",
    });
    const without = writeRepo({ ...common, "docs.json": docsJson() });
    const got = await outside(withSecret);
    expect(got).toEqual(await outside(without));
    expect(got[0]).toContain("The public widget.");
    expect(got.join("")).not.toContain("SECRETWIDGET");
  });

  it("a schema only a restricted operation uses does not move an open page to another spec's", async () => {
    const restrictedOnly = {
      ...widget("ADMINWIDGET", "secret"),
      paths: { "/admin": { post: { summary: "Admin", "x-svc": { metadata: { groups: ["staff"] } }, responses: { "200": { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/Widget" } } } } } } } },
    };
    const common = { "index.mdx": "---\ntitle: Home\n---\nHome.\n", "models/widget.mdx": publicPage, "api/b.json": widget("The public widget.", "id"), "docs.json": docsJson(["api/a.json", "api/b.json"]) };
    const withRestricted = writeRepo({ ...common, "api/a.json": restrictedOnly });
    const without = writeRepo({ ...common, "api/a.json": { ...restrictedOnly, paths: {}, components: { schemas: {} } } });
    const got = await outside(withRestricted);
    expect(got).toEqual(await outside(without));
    expect(got[0]).toContain("The public widget.");
  });
});
