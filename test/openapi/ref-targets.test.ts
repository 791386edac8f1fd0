/**
 * Finding 43 (issue 25): what a spec's `$ref` may read. Each case is the adversary's
 * reproduction: a `$ref` to docs.json or a dot-file (F1), a remote spec's relative `$ref`
 * resolved against the repository (F2), a public spec's `$ref` into a spec only a staff page
 * names (F3). An anonymous reader's shell, search and HTML show nothing of the target; `check`
 * names the spec, the JSON path and the `$ref`.
 */
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { localContext } from "../../src/vfs/request-context.js";
import { startBridge } from "../bridge/harness.js";
import { lines, load, writeRepo } from "./helpers.js";

const op = (path: string, response: Record<string, unknown>): Record<string, unknown> => ({ [path]: { get: { summary: path.slice(1), responses: { "200": response } } } });
const exampleRef = (ref: string): Record<string, unknown> => ({ description: "ok", content: { "application/json": { schema: { type: "object" }, example: { $ref: ref } } } });
const spec = (title: string, paths: Record<string, unknown>): Record<string, unknown> => ({ openapi: "3.0.3", info: { title, version: "1" }, paths });

const PAGES = {
  "index.mdx": "---\ntitle: Home\n---\nWelcome.\n",
  "internal/runbook.mdx": "---\ntitle: Runbook\ngroups: [staff]\n---\nSTAFFRUNBOOKMARK\n",
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function runtimeOf(files: Record<string, unknown>): Promise<{ root: string; runtime: DocsRuntime }> {
  const root = writeRepo(files);
  const runtime = await DocsRuntime.load({ root });
  cleanup.push(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, runtime };
}

const run = async (runtime: DocsRuntime, reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;
const searchPaths = async (runtime: DocsRuntime, reader: Reader, query: string): Promise<string[]> =>
  (await runtime.search(localContext(reader), { query })).map((h) => (h as { path?: string }).path ?? JSON.stringify(h));
const findings = (runtime: DocsRuntime): string[] => runtime.site.diagnostics.map((d) => `${d.file} ${d.severity}: ${d.message}`);

describe("a local spec's $ref reaches only a file the site serves (F1)", () => {
  it("docs.json and a dot-file are left unresolved with a finding; no reader sees their text", async () => {
    const { runtime } = await runtimeOf({
      ...PAGES,
      ".env": "API_SECRET=ENVSECRETMARK\n",
      "docs.json": { name: "F1", navigation: { groups: [{ group: "G", pages: ["index", "internal/runbook"] }, { group: "API", openapi: "api/spec.json" }] } },
      "api/spec.json": spec("t", { ...op("/nav", exampleRef("../docs.json#/navigation")), ...op("/env", exampleRef("../.env")) }),
    });
    const at = (p: string) => `paths./${p}.get.responses.200.content.application/json.example`;
    expect(findings(runtime)).toEqual([
      `api/spec.json warning: unresolved $ref "../docs.json#/navigation" (at ${at("nav")}): $ref to docs.json: the site's configuration, which the site does not serve; left as is`,
      `api/spec.json warning: unresolved $ref "../.env" (at ${at("env")}): $ref to .env: a dot-file or in a dot-folder, which the site does not serve; left as is`,
    ]);
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"])]) {
      expect(await run(runtime, reader, "grep -rln 'internal/runbook\\|ENVSECRET' / ; echo end")).toBe("end\n");
      expect(await searchPaths(runtime, reader, "ENVSECRETMARK")).toEqual([]);
    }
  });
});

describe("a spec's $ref into a file not every reader of the spec may read (F3)", () => {
  const files = {
    ...PAGES,
    "docs.json": { name: "F3", navigation: { groups: [{ group: "G", pages: ["index", "internal/runbook", "internal/staff-api"] }, { group: "Pub", openapi: "api/public.json" }] } },
    "internal/staff-api.mdx": "---\ntitle: Staff API\ngroups: [staff]\nopenapi: /specs/staff.json GET /secret\n---\n",
    "specs/staff.json": { openapi: "3.0.3", info: { title: "staff", version: "1" }, paths: { "/secret": { get: { summary: "Secret op", description: "STAFFSPECMARK", responses: { "200": { description: "STAFFRESPMARK" } } } } } },
    "api/public.json": spec("public", { "/open": { get: { summary: "Open op", responses: { "200": { $ref: "../specs/staff.json#/paths/~1secret/get/responses/200" } } } } }),
  };

  it("is left unresolved: the public page is the page of a missing file, for shell, search and HTML", async () => {
    const { runtime, root } = await runtimeOf(files);
    expect(findings(runtime)).toEqual([
      'api/public.json warning: unresolved $ref "../specs/staff.json#/paths/~1secret/get/responses/200" (at paths./open.get.responses.200): $ref to specs/staff.json: not every reader of this spec may read specs/staff.json; left as is',
    ]);
    expect(await run(runtime, ANONYMOUS, "grep -rn 'STAFFRESPMARK\\|STAFFSPECMARK' / ; echo end")).toBe("end\n");
    expect(await searchPaths(runtime, ANONYMOUS, "STAFFRESPMARK")).toEqual([]);
    // The page equals the one of a site without the staff spec and its page.
    const { runtime: without } = await runtimeOf(Object.fromEntries(Object.entries(files).filter(([k]) => k !== "specs/staff.json" && k !== "internal/staff-api.mdx")));
    expect(await run(runtime, ANONYMOUS, "cat /api-reference/open-op.mdx")).toBe(await run(without, ANONYMOUS, "cat /api-reference/open-op.mdx"));
    const h = await startBridge({ root, authMode: "partial", apps: true });
    try {
      const res = await fetch(`${h.origin}/api-reference/open-op`, { headers: { accept: "text/html" } });
      const html = await res.text();
      expect([res.status, html.includes("Open op"), html.includes("STAFFRESPMARK")]).toEqual([200, true, false]);
    } finally {
      await h.close();
    }
    // The staff reader of the staff page keeps it.
    expect(await run(runtime, readerWithGroups(["staff"]), "grep -rl STAFFRESPMARK /")).toBe("/internal/staff-api.mdx\n/specs/staff.json\n");
  });

  it("a staff-only spec may $ref a staff file", async () => {
    const { runtime } = await runtimeOf({
      ...files,
      "api/public.json": spec("public", {}),
      "internal/staff-api.mdx": "---\ntitle: Staff API\ngroups: [staff]\nopenapi: /specs/staff.json GET /secret\n---\n",
      "specs/staff.json": { openapi: "3.0.3", info: { title: "staff", version: "1" }, paths: { "/secret": { get: { summary: "Secret op", responses: { "200": { $ref: "../internal/more.json#/r" } } } } } },
      "internal/more.json": { r: { description: "STAFFMOREMARK" } },
    });
    expect(findings(runtime)).toEqual([]);
    expect(await run(runtime, readerWithGroups(["staff"]), "grep -rl STAFFMOREMARK /")).toBe("/internal/staff-api.mdx\n");
  });
});

describe("a remote spec's relative $ref resolves against its URL, never the repository (F2)", () => {
  it("reads the spec's own host, and no file of this machine", async () => {
    const remote: Record<string, string> = {
      "/spec.json": JSON.stringify(spec("remote", { ...op("/env", exampleRef(".env")), ...op("/doc", exampleRef("docs.json")), ...op("/own", exampleRef("schemas/own.json")), ...op("/file", exampleRef("file:///etc/hostname")) })),
      "/schemas/own.json": JSON.stringify({ REMOTEREFMARK: 1 }),
    };
    const server: Server = createServer((req, res) => {
      const body = remote[req.url ?? ""];
      res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" }).end(body ?? "");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { runtime } = await runtimeOf({
      ...PAGES,
      ".env": "API_SECRET=ENVSECRETMARK\n",
      "docs.json": { name: "F2", navigation: { groups: [{ group: "G", pages: ["index", "internal/runbook"] }, { group: "Remote", openapi: `${origin}/spec.json` }] } },
    });
    await runtime.fetchRemoteSpecs(fetch);
    const at = (p: string) => `paths./${p}.get.responses.200.content.application/json.example`;
    expect(findings(runtime)).toEqual([
      `${origin}/spec.json warning: unresolved $ref ".env" (at ${at("env")}): $ref to ${origin}/.env: unreachable: HTTP 404; left as is`,
      `${origin}/spec.json warning: unresolved $ref "docs.json" (at ${at("doc")}): $ref to ${origin}/docs.json: unreachable: HTTP 404; left as is`,
      `${origin}/spec.json warning: unresolved $ref "file:///etc/hostname" (at ${at("file")}): $ref to file:///etc/hostname: a remote spec's $ref is never read from this machine; left as is`,
    ]);
    expect(await run(runtime, ANONYMOUS, "grep -rl 'REMOTEREFMARK' /; grep -rn 'ENVSECRET\\|internal/runbook' / ; echo end")).toBe("/api-reference/own.mdx\nend\n");
  });
});

describe("the same rule everywhere a $ref is resolved", () => {
  it("an AsyncAPI spec's $ref into docs.json or a dot-file is left unresolved with a finding", async () => {
    const site = await load({
      ...PAGES,
      ".env": "API_SECRET=ENVSECRETMARK\n",
      "docs.json": { name: "A", navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "Events", asyncapi: "events.json" }] } },
      "events.json": {
        asyncapi: "3.0.0",
        info: { title: "Events", version: "1" },
        channels: { orders: { address: "orders", description: "Orders", messages: { env: { payload: { $ref: ".env" } }, nav: { payload: { $ref: "docs.json#/navigation" } } } } },
        operations: { onOrder: { action: "receive", channel: { $ref: "#/channels/orders" } } },
      },
    });
    const at = (m: string) => `channels.orders.messages.${m}.payload`;
    expect(lines(site)).toEqual([
      `events.json:14:13 warning: unresolved $ref ".env" (at ${at("env")}): $ref to .env: a dot-file or in a dot-folder, which the site does not serve; left as is`,
      `events.json:19:13 warning: unresolved $ref "docs.json#/navigation" (at ${at("nav")}): $ref to docs.json: the site's configuration, which the site does not serve; left as is`,
    ]);
    expect([...site.files.values()].filter((f) => f.text.includes("ENVSECRETMARK") || f.text.includes("internal/runbook")).map((f) => f.path)).toEqual([]);
  });

  it("check names each $ref that cannot be resolved, in every form it is written, and a front matter spec outside the repository", async () => {
    const root = writeRepo({
      "docs/index.mdx": "---\ntitle: Home\nopenapi: ../outside/spec.json GET /o\n---\n",
      "docs/docs.json": { name: "L", navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "A", openapi: "api/spec.json" }, { group: "B", openapi: "/../outside/spec.json" }] } },
      "docs/api/spec.json": spec("t", {
        ...op("/a", { description: "ok", content: { "application/json": { schema: { $ref: "file://localhost/etc/hostname" } } } }),
        ...op("/b", { description: "ok", content: { "application/json": { schema: { $ref: "%2e%2e/%2e%2e/outside/schema.json" } } } }),
        ...op("/c", { description: "ok", content: { "application/json": { schema: { $ref: "..\\..\\outside\\schema.json" } } } }),
        "/d": { $ref: "../../outside/spec.json#/paths/~1o" },
      }),
      "outside/schema.json": { description: "OUTSIDEMARK" },
      "outside/spec.json": spec("o", op("/o", { description: "OUTSIDEMARK" })),
    });
    cleanup.push(async () => rmSync(root, { recursive: true, force: true }));
    const site = (await loadSite(join(root, "docs"))).site;
    const at = (p: string) => `paths./${p}.get.responses.200.content.application/json.schema`;
    const outside = join(root, "outside");
    expect(lines(site)).toEqual([
      `api/spec.json:17:19 warning: unresolved $ref "file://localhost/etc/hostname" (at ${at("a")}): $ref to file:///etc/hostname leaves the repository; left as is`,
      `api/spec.json:34:19 warning: unresolved $ref "%2e%2e/%2e%2e/outside/schema.json" (at ${at("b")}): $ref to ${outside}/schema.json leaves the repository; left as is`,
      `api/spec.json:60:7 warning: unresolved $ref "../../outside/spec.json#/paths/~1o" (at paths./d): $ref to ${outside}/spec.json leaves the repository; left as is`,
      `api/spec.json:51:19 warning: unresolved $ref "..\\\\..\\\\outside\\\\schema.json" (at ${at("c")}): $ref to ${outside}/schema.json leaves the repository; left as is`,
      "docs.json navigation.groups[2].openapi: API spec ../outside/spec.json: the path leaves the repository",
      'index.mdx:3 warning: front matter openapi "../outside/spec.json GET /o" names a spec file outside the repository: it is not read',
    ]);
    expect([...site.files.values()].filter((f) => f.text.includes("OUTSIDEMARK")).map((f) => f.path)).toEqual([]);
  });

  it("a spec loaded before is loaded again when who may read its $ref's target changes, its text unchanged", async () => {
    const page = (groups: string) => `---\ntitle: Staff API\n${groups}openapi: /specs/staff.json GET /secret\n---\n`;
    const root = writeRepo({
      "index.mdx": "---\ntitle: Home\n---\n",
      "docs.json": { name: "R", navigation: { groups: [{ group: "G", pages: ["index", "internal/staff-api"] }, { group: "Pub", openapi: "api/public.json" }] } },
      "internal/staff-api.mdx": page(""),
      "specs/staff.json": { openapi: "3.0.3", info: { title: "staff", version: "1" }, paths: { "/secret": { get: { summary: "Secret op", responses: { "200": { description: "STAFFRESPMARK" } } } } } },
      "api/public.json": spec("public", { "/open": { get: { summary: "Open op", responses: { "200": { $ref: "../specs/staff.json#/paths/~1secret/get/responses/200" } } } } }),
    });
    cleanup.push(async () => rmSync(root, { recursive: true, force: true }));
    const first = await loadSite(root);
    expect(first.site.pages.get("/api-reference/open-op")?.file.text.includes("STAFFRESPMARK")).toBe(true);
    writeFileSync(join(root, "internal/staff-api.mdx"), page("groups: [staff]\n"));
    const next = await reloadSite(first, ["internal/staff-api.mdx"]);
    expect(next.site.pages.get("/api-reference/open-op")?.file.text.includes("STAFFRESPMARK")).toBe(false);
    expect(next.site.diagnostics.map(formatDiagnostic)).toEqual([
      'api/public.json:13:13 warning: unresolved $ref "../specs/staff.json#/paths/~1secret/get/responses/200" (at paths./open.get.responses.200): $ref to specs/staff.json: not every reader of this spec may read specs/staff.json; left as is',
    ]);
  });
});

describe("a $ref into a part of another spec restricted by x-svc", () => {
  it("is left unresolved for a spec more readers read, and resolved for one its group alone reads", async () => {
    const other = {
      openapi: "3.0.3",
      info: { title: "other", version: "1" },
      paths: {
        "/open": { get: { summary: "Open", responses: { "200": { description: "OPENPARTMARK" } } } },
        "/vault": { get: { summary: "Vault", "x-svc": { metadata: { groups: ["staff"] } }, responses: { "200": { description: "VAULTPARTMARK" } } } },
      },
    };
    const refs = (title: string) =>
      spec(title, {
        "/a": { get: { summary: `${title} a`, responses: { "200": { $ref: "../other.json#/paths/~1open/get/responses/200" } } } },
        "/b": { get: { summary: `${title} b`, responses: { "200": { $ref: "../other.json#/paths/~1vault/get/responses/200" } } } },
      });
    const site = await load({
      "index.mdx": "---\ntitle: Home\n---\n",
      "internal/staff.mdx": "---\ntitle: Staff\ngroups: [staff]\nopenapi: /staff/refs.json GET /b\n---\n",
      "docs.json": { name: "P", navigation: { groups: [{ group: "G", pages: ["index", "internal/staff"] }, { group: "Pub", openapi: "pub/refs.json" }, { group: "O", openapi: "other.json" }] } },
      "other.json": other,
      "pub/refs.json": refs("pub"),
      "staff/refs.json": refs("staff"),
    });
    expect(lines(site).filter((l) => l.includes("unresolved"))).toEqual([
      'pub/refs.json:23:13 warning: unresolved $ref "../other.json#/paths/~1vault/get/responses/200" (at paths./b.get.responses.200): Missing $ref pointer "#/paths/~1vault/get/responses/200". Token "/vault" does not exist.; left as is',
    ]);
    const text = (path: string) => site.pages.get(path)?.file.text ?? "";
    expect([text("/api-reference/pub-a").includes("OPENPARTMARK"), text("/api-reference/pub-b").includes("VAULTPARTMARK")]).toEqual([true, false]);
    expect(text("/internal/staff").includes("VAULTPARTMARK")).toBe(true);
  });
});
