/**
 * Adversary round 49 N2: an operation whose `x-svc.href` is `/` got its generated page at the page
 * path `/`, the file `/.mdx`, which `ls /` hides (a dot file) and no link to the site's root page
 * reaches. `/` is the root page, `index.mdx`, as a link to `/` is.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const op = (href: string): Record<string, unknown> => ({ get: { summary: "Home op", "x-svc": { href }, responses: { "200": { description: "Done" } } } });

describe("an operation's page at href /", () => {
  const roots: string[] = [];
  const runtimes: DocsRuntime[] = [];
  beforeAll(async () => {
    for (const href of ["/", "/index", "/index.mdx"]) {
      const root = writeRepo({
        "docs.json": { name: "A", navigation: { groups: [{ group: "API", openapi: "api/openapi.json" }] } },
        "api/openapi.json": { openapi: "3.1.0", info: { title: "Ops", version: "1" }, paths: { "/a": op(href) } },
      });
      roots.push(root);
      runtimes.push(await DocsRuntime.load({ root }));
    }
  });
  afterAll(async () => {
    await Promise.all(runtimes.map((r) => r.close()));
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it("is the root page, index.mdx, as with href /index", async () => {
    const outputs: string[] = [];
    for (const runtime of runtimes) {
      const shell = runtime.readerState(localContext(ANONYMOUS)).shell;
      outputs.push((await shell.run("ls -a /; head -3 /index.mdx")).stdout);
      expect(runtime.site.diagnostics).toEqual([]);
    }
    expect(outputs[0]).toBe('.\n..\napi\nindex.mdx\nskill.md\n---\ntitle: "Home op"\nopenapi: "api/openapi.json GET /a"\n');
    expect(outputs).toEqual([outputs[0], outputs[0], outputs[0]]);
  });
});
