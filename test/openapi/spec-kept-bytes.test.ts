import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { tempRepo } from "../config/temp-repo.js";
import { connect } from "../helpers/mcp.js";

// Adversary round 57 F4: an OpenAPI or AsyncAPI spec docs.json names, emptied (0 bytes), cut so
// that it no longer parses, or deleted while serving. Its generated pages keep their last good
// version (issue 25), and so does the spec file itself: it is mounted as last read whole, so the
// command each generated page ends with (`jq ... /openapi.json`) still answers, as a page whose
// front matter breaks keeps its last good text. Deleting the spec and its reference in
// docs.json drops both: that is a withdrawal. (Who may read a kept spec: its last good version's
// rules, as for its pages; test/openapi/restricted-operation-text.test.ts.)
//
// Each step waits for the reload that shows it, never for time; a wait that can never end is the
// suite's hang detector's (vitest.config.ts).
const OPENAPI = `${JSON.stringify({ openapi: "3.1.0", info: { title: "Pets", version: "1" }, paths: { "/pets": { get: { summary: "List pets", tags: ["pets"], responses: { "200": { description: "ok" } } } } } }, null, 2)}\n`;
const ASYNCAPI = "asyncapi: 3.0.0\ninfo: {title: Chat, version: '1'}\nchannels:\n  room: {address: room, description: Chat room feed.}\n";
const DOCS = { name: "Zoo", navigation: { groups: [{ group: "Home", pages: ["index"] }, { group: "API", openapi: "openapi.json" }, { group: "Events", asyncapi: "chat.yaml" }] } };
const SPECS = [
  { file: "openapi.json", text: OPENAPI, page: "/api-reference/pets/list-pets.mdx", at: "navigation.groups[1].openapi" },
  { file: "chat.yaml", text: ASYNCAPI, page: "/api-reference/room.mdx", at: "navigation.groups[2].asyncapi" },
] as const;
const FILES = "/api-reference/pets/list-pets.mdx\n/api-reference/room.mdx\n/chat.yaml\n/index.mdx\n/openapi.json\n/skill.md\n";

let running: { close: () => Promise<void> } | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function served() {
  const root = tempRepo({ "docs.json": DOCS, "openapi.json": OPENAPI, "chat.yaml": ASYNCAPI, "index.mdx": "# Home\n" });
  const logs: string[] = [];
  const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
  const c = await connect(runtime);
  running = {
    close: async () => {
      await c.close();
      await runtime.close();
    },
  };
  await runtime.watch();
  const sh = async (command: string) => c.text(await c.call(`query_docs_filesystem_${runtime.names.slug}`, { command }));
  /** The command a generated page ends with, run: what it says the page was generated from. */
  const source = async (page: string) => {
    const last = (await sh(`cat ${page}`)).trim().split("\n").at(-1) ?? "";
    const command = /`((?:jq|yq) [^`]+)`$/.exec(last)?.[1];
    return command === undefined ? `no command in: ${last}` : sh(command);
  };
  const state = async () => ({ find: await sh("find / -type f"), openapi: await sh("cat /openapi.json"), chat: await sh("cat /chat.yaml"), pets: await source(SPECS[0].page), room: await source(SPECS[1].page) });
  /** Make an edit, then wait for the reload whose snapshot shows it. */
  const edit = async (write: () => void, shows: (change: RuntimeChange) => boolean): Promise<void> => {
    const changed = new Promise<void>((resolve) => {
      const off = runtime.onChange((change) => {
        if (!shows(change)) return;
        off();
        resolve();
      });
    });
    write();
    await changed;
  };
  const finding = (file: string) => (change: RuntimeChange) => change.site.diagnostics.some((d) => d.spec === file);
  return { root, logs, sh, state, edit, finding };
}

describe("a spec docs.json names, broken while serving, keeps its last good pages and bytes", () => {
  const breaks: [string, (root: string, file: string) => void, (file: string) => string][] = [
    ["emptied (0 bytes)", (root, file) => writeFileSync(join(root, file), ""), () => "not an API description: the document must be an object"],
    ["cut so that it no longer parses", (root, file) => writeFileSync(join(root, file), file.endsWith(".json") ? OPENAPI.slice(0, 30) : ASYNCAPI.slice(0, 40)), (file) => (file.endsWith(".json") ? "cannot parse: Unterminated string in JSON at position 30" : "cannot parse: unexpected end of the stream within a flow collection (3:1)")],
    ["deleted while docs.json names it", (root, file) => rmSync(join(root, file)), () => "file not found"],
  ];
  for (const [how, write, why] of breaks) {
    it(`${how}: the generated pages, the spec's bytes and the pages' own commands stay; said once each`, async () => {
      const s = await served();
      const before = await s.state();
      expect(before).toEqual({ find: FILES, openapi: OPENAPI, chat: ASYNCAPI, pets: expect.stringContaining("List pets"), room: expect.stringContaining("Chat room feed.") });
      for (const { file } of SPECS) await s.edit(() => write(s.root, file), s.finding(file));
      expect({ state: await s.state(), logs: s.logs }).toEqual({
        state: before,
        logs: SPECS.map(({ file, at }) => `docs.json ${at}: API spec ${file}: ${why(file)} (keeping the last good version)`),
      });
    });
  }

  it("fixed, the new version serves; deleted with its reference in docs.json, it is gone with its pages and said nowhere", async () => {
    const s = await served();
    await s.edit(() => writeFileSync(join(s.root, "openapi.json"), ""), s.finding("openapi.json"));
    const fixed = OPENAPI.replace("List pets", "List all pets");
    await s.edit(() => writeFileSync(join(s.root, "openapi.json"), fixed), (change) => change.site.files.has("/api-reference/pets/list-all-pets.mdx"));
    const afterFix = { ls: await s.sh("ls /api-reference/pets"), openapi: await s.sh("cat /openapi.json") };
    await s.edit(() => rmSync(join(s.root, "chat.yaml")), s.finding("chat.yaml"));
    await s.edit(
      () => writeFileSync(join(s.root, "docs.json"), JSON.stringify({ ...DOCS, navigation: { groups: DOCS.navigation.groups.slice(0, 2) } })),
      (change) => !change.site.files.has("/api-reference/room.mdx"),
    );
    expect({ afterFix, find: await s.sh("find / -type f"), logs: s.logs }).toEqual({
      afterFix: { ls: "list-all-pets.mdx\n", openapi: fixed },
      find: "/api-reference/pets/list-all-pets.mdx\n/index.mdx\n/openapi.json\n/skill.md\n",
      logs: [
        "docs.json navigation.groups[1].openapi: API spec openapi.json: not an API description: the document must be an object (keeping the last good version)",
        "docs.json navigation.groups[2].asyncapi: API spec chat.yaml: file not found (keeping the last good version)",
      ],
    });
  });
});
