import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readerWithGroups } from "../../src/vfs/access.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { argumentError, connect } from "../helpers/mcp.js";
import { fixture } from "../helpers/paths.js";
import { fileTime, provenanceOf } from "../helpers/provenance.js";

const SEARCH = "search_nimbus_storage";
const FS = "query_docs_filesystem_nimbus_storage";

let runtime: DocsRuntime;
let anon: Awaited<ReturnType<typeof connect>>;
let staff: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo"), baseUrl: "https://docs.nimbus.example" });
  anon = await connect(runtime);
  staff = await connect(runtime, readerWithGroups(["staff"]));
});
afterAll(async () => {
  await anon.close();
  await staff.close();
});

describe("tools/list", () => {
  it("names tools after the site and marks them read-only", async () => {
    const { tools } = await anon.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([SEARCH, FS]);
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    }
    expect(tools[0]?.inputSchema).toEqual({
      // Declared, not assumed: JSON Schema 2020-12.
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          maxLength: 1000,
          description: "What to look for, in plain words or exact terms (an API name, an error message).",
        },
        pageSize: { description: "Number of results, 1 to 50 (default 10).", type: "integer", minimum: 1, maximum: 50 },
        scoreThreshold: {
          description: "Only return results scoring at least this (0 to 1; 0.5 and above is a strong match).",
          type: "number",
          minimum: 0,
          maximum: 1,
        },
        version: { description: "Only content of this documentation version (or in every version).", type: "string", minLength: 1 },
        language: {
          description: "Only content in this language code, such as en, zh, es (or in every language).",
          type: "string",
          minLength: 1,
        },
        maxChars: {
          description: "At most this many characters of the answer's text (200 to 100000; about 4 characters make a token). What is left out is said in the result.",
          type: "integer",
          minimum: 200,
          maximum: 100000,
        },
      },
      required: ["query"],
      additionalProperties: false,
    });
  });

  it("gives each tool a title and an output schema, in the same order every time", async () => {
    const first = await anon.client.listTools();
    expect(first.tools.map((t) => [t.name, t.title, t.annotations?.title])).toEqual([
      [SEARCH, "Search Nimbus Storage", "Search documentation"],
      [FS, "Query the Nimbus Storage docs filesystem", "Query docs filesystem"],
    ]);
    expect((await staff.client.listTools()).tools.map((t) => t.name)).toEqual([SEARCH, FS]);
    const result = first.tools[0]?.outputSchema?.properties?.results as { items: { properties: object; required: string[] } };
    expect(Object.keys(result.items.properties)).toEqual(["title", "section", "path", "file", "url", "snippet", "score", "versions", "languages", "products", "otherVersions", "moreVersions", "otherLanguages", "moreLanguages", "lastModified"]);
    expect(result.items.required).toEqual(["title", "section", "path", "file", "url", "snippet", "score"]);
    expect(Object.keys(first.tools[1]?.outputSchema?.properties ?? {})).toEqual(["stdout", "stderr", "exitCode", "truncated", "hint", "reads", "provenance"]);
    expect(Object.keys(first.tools[0]?.outputSchema?.properties ?? {})).toEqual(["results", "provenance", "leftOut", "snippetCut"]);
  });
});

describe("search tool", () => {
  it("returns titled snippets with links to the matching section", async () => {
    const r = await anon.call(SEARCH, { query: "signed url expires", pageSize: 1 });
    expect(r.isError).toBeUndefined();
    // The same hit as structured content (the SDK client checked it against the output schema).
    expect(r.structuredContent).toEqual({
      results: [
        {
          title: "Access control",
          section: "Signed URLs",
          path: "/guides/access-control",
          file: "/guides/access-control.mdx",
          url: "https://docs.nimbus.example/guides/access-control#signed-urls",
          snippet:
            "Generate a link that expires: nimbus sign nimbus://my-photos/cat.jpg --expires 1h Signed URLs carry an HMAC signature; changing any query parameter invalidates them.",
          score: 0.547,
          lastModified: fileTime(fixture("demo"), "guides/access-control.mdx"),
        },
      ],
      provenance: provenanceOf(fixture("demo"), ["guides/access-control.mdx"]),
    });
    expect(anon.text(r)).toBe(
      "1. Access control › Signed URLs\n" +
        "   https://docs.nimbus.example/guides/access-control#signed-urls\n" +
        // The anonymous reader's statistics leave out the demo's two restricted pages.
        "   file: /guides/access-control.mdx · score 0.547\n" +
        "   Generate a link that expires: nimbus sign nimbus://my-photos/cat.jpg --expires 1h Signed URLs carry an HMAC signature; changing any query parameter invalidates them.",
    );
  });

  it("never returns restricted pages to a reader outside their groups", async () => {
    const r = await anon.call(SEARCH, { query: "storage node drain runbook", pageSize: 50 });
    expect(JSON.stringify(r)).not.toContain("runbook.mdx");
    const s = await staff.call(SEARCH, { query: "storage node drain runbook", pageSize: 1 });
    expect((s.structuredContent as { results: { path: string }[] }).results[0]?.path).toBe("/internal/runbook");
  });

  it.each([
    [{ query: "x", pageSize: 0 }, "pageSize: must be an integer from 1 to 50 (got 0)"],
    [{ query: "x", pageSize: 51 }, "pageSize: must be an integer from 1 to 50 (got 51)"],
    [{ query: "x", pageSize: 2.5 }, "pageSize: must be an integer from 1 to 50 (got 2.5)"],
    // Past the safe integers and past 50: two checks fail, one message (issue 25: it was said twice).
    [{ query: "x", pageSize: 1e300 }, "pageSize: must be an integer from 1 to 50 (got 1e+300)"],
    [{ query: "x", pageSize: -1e300 }, "pageSize: must be an integer from 1 to 50 (got -1e+300)"],
    [{ query: "x", scoreThreshold: 1.5 }, "scoreThreshold: must be a number from 0 to 1 (got 1.5)"],
    [{ query: "x", scoreThreshold: -0.1 }, "scoreThreshold: must be a number from 0 to 1 (got -0.1)"],
    [{ query: "" }, 'query: must not be empty (got "")'],
    [{}, "query: is required"],
    [{ query: "x", limit: 3 }, 'unknown argument "limit"'],
  ])("answers %j with an error result naming the argument (SEP-1303)", async (args, message) => {
    expect(await anon.call(SEARCH, args)).toEqual(argumentError(`Invalid arguments for ${SEARCH}: ${message}`));
  });
});

describe("filesystem tool", () => {
  it("lists only what the reader may read", async () => {
    const r = await anon.call(FS, { command: "ls /" });
    expect(anon.text(r)).toBe("api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n");
    const s = await staff.call(FS, { command: "ls /" });
    expect(staff.text(s)).toBe("api\nguides\nindex.mdx\ninternal\npartners\nquickstart.mdx\nskill.md\n");
  });

  it("reports a failing command as an error result with its exit code", async () => {
    const r = await anon.call(FS, { command: "cat /internal/runbook.mdx" });
    expect(r.isError).toBe(true);
    expect(anon.text(r)).toBe("cat: /internal/runbook.mdx: No such file or directory\n[exit code 1]");
    expect(r.structuredContent).toEqual({
      stdout: "",
      stderr: "cat: /internal/runbook.mdx: No such file or directory\n",
      exitCode: 1,
      truncated: false,
      // The path named is not this reader's: the command read, as far as they may know, from `/`.
      reads: [{ path: "/", lastModified: expect.any(String) }],
      provenance: { ...provenanceOf(fixture("demo"), []), lastModified: expect.any(String) },
    });
  });

  it("refuses writes with EROFS, without throwing", async () => {
    const r = await anon.call(FS, { command: "echo hi > /notes.txt" });
    expect(r.isError).toBe(true);
    expect(anon.text(r)).toBe("bash: /notes.txt: Read-only file system\n[exit code 1]");
    expect(anon.text(await anon.call(FS, { command: "ls /notes.txt 2>/dev/null; echo $?" }))).toBe("2\n");
  });

  it("starts every call at / (no state between calls)", async () => {
    await anon.call(FS, { command: "cd /guides && X=1" });
    expect(anon.text(await anon.call(FS, { command: 'pwd; echo "[$X]"' }))).toBe("/\n[]\n");
  });

  it("leaves ignored files out entirely", async () => {
    const r = await staff.call(FS, { command: "cat /drafts/notes.mdx" });
    expect(staff.text(r)).toBe("cat: /drafts/notes.mdx: No such file or directory\n[exit code 1]");
  });
});

describe("resources", () => {
  it("offers a generated skill when the site has none", async () => {
    const { resources } = await anon.client.listResources();
    expect(resources).toEqual([
      {
        uri: "docs://nimbus_storage/skill.md",
        name: "nimbus_storage",
        title: "nimbus_storage",
        description: "How to use the Nimbus Storage documentation tools (generated)",
        mimeType: "text/markdown",
        size: expect.any(Number),
      },
    ]);
    const { contents } = await anon.client.readResource({ uri: "docs://nimbus_storage/skill.md" });
    const text = (contents[0] as { text: string }).text;
    expect(text).toContain("# Nimbus Storage documentation\n\nObject storage with buckets, signed URLs and webhooks.\n\n## What the documentation covers\n\n- Guides\n- API reference\n");
    expect(text).toContain("`search_nimbus_storage`");
  });

  it("answers an unknown resource with InvalidParams", async () => {
    await expect(anon.client.readResource({ uri: "docs://nimbus_storage/nope.md" })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Resource not found: docs://nimbus_storage/nope.md",
    });
  });
});
