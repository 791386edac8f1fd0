import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeSuite } from "../helpers/conformance.js";
import { findInspector } from "../helpers/inspector.js";
import { REPO, fixture } from "../helpers/paths.js";
import { type ServeProcess, startServe } from "../helpers/serve-http.js";
import { fileTime, provenanceOf } from "../helpers/provenance.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";

/**
 * MCP Inspector 2.12's CLI (on tools/node22's Node 22) against svc-mcp in both of its protocol
 * eras: `modern` (2026-07-28: `server/discover`, no session) and `legacy` (a 2025 session),
 * over HTTP (a `serve --http` started here) and over stdio (a `serve` the inspector spawns on
 * the Node running the tests). Each run lists the tools and calls both docs tools; results are
 * compared whole. A modern result carries the server's identity in `_meta` (2026-07-28 has no
 * `initialize` to carry it), which is how these tests see that the era really was modern.
 */

const DEMO = fixture("demo");
const SEARCH = "search_nimbus_storage";
const FS = "query_docs_filesystem_nimbus_storage";
const TOOLS = [SEARCH, FS, "submit_feedback"];
const ERAS = ["modern", "legacy"] as const;
type Era = (typeof ERAS)[number];
/** What the inspector connects to: a URL, or the command line of a stdio server it starts. */
interface Target {
  readonly url: readonly string[];
  readonly command: readonly string[];
}

let serve: ServeProcess | undefined;
let temp: string;
/** The newest time among the files an anonymous reader of the demo sees. */
let NEWEST_PUBLIC = "";
beforeAll(async () => {
  const runtime = await DocsRuntime.load({ root: DEMO, indexLater: true });
  NEWEST_PUBLIC = runtime.readerState(localContext(ANONYMOUS)).view.mtimeOf("/").toISOString();
  await runtime.close();
  temp = mkdtempSync(join(tmpdir(), "svc-mcp-inspector-"));
  for (const dir of ["http-state", "stdio-state", "home"]) mkdirSync(join(temp, dir));
  serve = await startServe(["--dir", DEMO, "--state", join(temp, "http-state"), "--no-fetch-remote"]);
});
afterAll(async () => {
  const child = serve?.child;
  if (child !== undefined) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(temp, { recursive: true, force: true });
});

/** The whole result of a modern-era call: the same as legacy's plus the server's identity, beside the tool's own `_meta`. */
function inEra(era: Era, result: { readonly _meta?: Record<string, unknown>; readonly [member: string]: unknown }): object {
  if (era === "legacy") return result;
  return { ...result, _meta: { ...result._meta, "io.modelcontextprotocol/serverInfo": { name: "svc-mcp", title: "Nimbus Storage docs", version: "0.1.0" } } };
}

const LS_ROOT = "api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n";
const SNIPPET = "Every delivery has a Nimbus-Signature header: an HMAC-SHA256 of the body with your webhook secret. Compare it in constant time before trusting the payload.";
const WEBHOOKS_PROVENANCE = provenanceOf(DEMO, ["guides/webhooks.mdx"]);
const WEBHOOKS = {
  _meta: { "svc-mcp/provenance": WEBHOOKS_PROVENANCE },
  content: [
    {
      type: "text",
      text: ["1. Webhooks › Verifying signatures", "   http://localhost:3000/guides/webhooks#verifying-signatures", "   file: /guides/webhooks.mdx · score 0.846", `   ${SNIPPET}`].join("\n"),
    },
  ],
  structuredContent: {
    results: [
      {
        title: "Webhooks",
        section: "Verifying signatures",
        path: "/guides/webhooks",
        file: "/guides/webhooks.mdx",
        url: "http://localhost:3000/guides/webhooks#verifying-signatures",
        snippet: SNIPPET,
        score: 0.846,
        lastModified: fileTime(DEMO, "guides/webhooks.mdx"),
      },
    ],
    provenance: WEBHOOKS_PROVENANCE,
  },
};

describeSuite(findInspector(), "MCP Inspector 2.12", ({ cli, node }) => {
  /** One inspector CLI run, `--format json`: its `result`, or the exit code and stderr when it fails. */
  async function inspect(era: Era, target: Target, method: readonly string[]): Promise<unknown> {
    // `--connect-timeout`: the inspector gives a server 30 s to answer `initialize`; a server
    // started through tsx on a loaded machine takes longer. A hang detector, not a speed check.
    const args = [cli, "--cli", ...target.url, "--protocol-era", era, "--format", "json", "--connect-timeout", "300000", ...method, ...target.command];
    // HOME in a temp folder: the inspector keeps a catalog and client storage under ~/.mcp-inspector.
    const env = { ...process.env, HOME: join(temp, "home") };
    return new Promise((resolve) => {
      execFile(node, args, { env, cwd: temp, timeout: 300_000 }, (error, stdout, stderr) => {
        if (error !== null) resolve({ code: error.code, signal: error.signal, stderr });
        else resolve((JSON.parse(stdout) as { result: unknown }).result);
      });
    });
  }

  // The URL goes first (`--tool-arg` takes every word up to the next option); a server's
  // command line goes last, after the `--` that ends the inspector's options.
  const transports: Record<string, () => Target> = {
    http: () => ({ url: [`${serve!.origin}/mcp`], command: [] }),
    stdio: () => ({ url: [], command: ["--", process.execPath, join(REPO, "bin", "svc-mcp.js"), "serve", "--dir", DEMO, "--no-watch", "--state", join(temp, "stdio-state")] }),
  };

  for (const era of ERAS) {
    for (const [transport, target] of Object.entries(transports)) {
      it.concurrent(`${era} era over ${transport}: lists the tools`, async () => {
        const result = (await inspect(era, target(), ["--method", "tools/list"])) as { tools?: { name: string }[] };
        expect(result.tools?.map((t) => t.name) ?? result).toEqual(TOOLS);
      });

      it.concurrent(`${era} era over ${transport}: calls the search tool`, async () => {
        const result = await inspect(era, target(), ["--method", "tools/call", "--tool-name", SEARCH, "--tool-arg", "query=webhooks"]);
        expect(result).toEqual(inEra(era, WEBHOOKS));
      });

      it.concurrent(`${era} era over ${transport}: calls the filesystem tool`, async () => {
        const result = await inspect(era, target(), ["--method", "tools/call", "--tool-name", FS, "--tool-arg", "command=ls /"]);
        // `ls /` read `/`: as new as the anonymous reader's newest file.
        const provenance = { ...provenanceOf(DEMO, []), lastModified: NEWEST_PUBLIC };
        const reads = [{ path: "/", lastModified: NEWEST_PUBLIC }];
        expect(result).toEqual(
          inEra(era, { _meta: { "svc-mcp/provenance": provenance }, content: [{ type: "text", text: LS_ROOT }], structuredContent: { stdout: LS_ROOT, stderr: "", exitCode: 0, truncated: false, reads, provenance } }),
        );
      });
    }
  }
});
