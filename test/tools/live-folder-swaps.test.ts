import { mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";

/**
 * Folders replaced while serving (adversary round 11): a folder swapped for a link and back, as a
 * checkout between branches does. The running server must serve what a fresh start would: an
 * anonymous reader's view, asserted whole after the reloads the changes caused (the runtime's
 * change events, never a sleep).
 */

const cleanups: (() => void)[] = [];
let runtime: DocsRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const FS = "query_docs_filesystem_nimbus_storage";

/** A copy of the demo site, served as `serve` does (watching before the load). */
async function serve(): Promise<string> {
  const tmp = copyToTemp(fixture("demo"));
  cleanups.push(tmp.cleanup);
  runtime = await DocsRuntime.load({ root: tmp.dir, watch: true });
  await runtime.watch();
  return tmp.dir;
}

/** A folder outside the root, removed after the test. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-outside-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Resolves at the runtime's next reload. */
function nextReload(): Promise<void> {
  const r = runtime as DocsRuntime;
  return new Promise((resolve) => {
    const stop = r.onChange(() => {
      stop();
      resolve();
    });
  });
}

async function anonymous(command: string): Promise<string> {
  const c = await connect(runtime as DocsRuntime);
  try {
    return c.text(await c.call(FS, { command }));
  } finally {
    await c.close();
  }
}

describe("a folder replaced by a folder link, then made a real folder again (F2)", () => {
  it("is listed again whole, with the page that imports a staff-only file in it pruned again", async () => {
    const root = await serve();
    const away = outside();
    writeFileSync(join(root, "guides/staff-note.mdx"), "---\ngroups: [staff]\n---\nSTAFFNOTE\n");
    writeFileSync(join(root, "index.mdx"), '---\ntitle: Home\n---\nimport StaffNote from "/guides/staff-note.mdx";\n\nWelcome home.\n\n<StaffNote />\n');
    const written = nextReload();
    await written;
    expect(await anonymous("ls /guides; cat /index.mdx")).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n---\ntitle: Home\n---\nWelcome home.\n");
    // Moved out and a link put in its place in one go (a checkout): its pages are outside now.
    let reloaded = nextReload();
    renameSync(join(root, "guides"), join(away, "guides"));
    symlinkSync(join(away, "guides"), join(root, "guides"));
    await reloaded;
    expect(await anonymous("ls /guides")).toBe("ls: cannot access '/guides': No such file or directory\n[exit code 2]");
    // And back: the same folder, which the events are read after.
    reloaded = nextReload();
    unlinkSync(join(root, "guides"));
    renameSync(join(away, "guides"), join(root, "guides"));
    await reloaded;
    expect(await anonymous("ls /guides; cat /index.mdx")).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n---\ntitle: Home\n---\nWelcome home.\n");
  });
});
