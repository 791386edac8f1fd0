import { cpSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";
import { reloadShowing } from "../helpers/reload-showing.js";

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
  onLog.length = 0;
});

const FS = "query_docs_filesystem_nimbus_storage";

let logged: string[] = [];
/** Told each line the runtime logs (a line is an event too: the root gone reloads nothing). */
const onLog: ((line: string) => void)[] = [];

/** A copy of the demo site, served as `serve` does (watching before the load), at `root` when given. */
async function serve(root?: string): Promise<string> {
  const tmp = copyToTemp(fixture("demo"));
  cleanups.push(tmp.cleanup);
  logged = [];
  runtime = await DocsRuntime.load({ root: root ?? tmp.dir, watch: true, log: (line) => {
      logged.push(line);
      for (const listener of onLog) listener(line);
    },
  });
  await runtime.watch();
  return tmp.dir;
}

/** A copy of the demo site whose webhooks page is staff-only and which has a new page: the next release. */
function nextRelease(at: string): void {
  cpSync(fixture("demo"), at, { recursive: true });
  writeFileSync(join(at, "guides/webhooks.mdx"), "---\ntitle: Webhooks\ngroups: [staff]\n---\nNow staff only.\n");
  writeFileSync(join(at, "guides/added.mdx"), "---\ntitle: Added\n---\nNew in this release.\n");
}

const NEXT = "access-control.mdx\nadded.mdx\nuploading-files.mdx\n";
const REPLACED = (root: string): string => `the docs root ${root} was replaced; loading the whole site from it again`;

/** A folder outside the root, removed after the test. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-outside-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Resolves at the reload whose snapshot `shows` the change a step made (`reloadShowing`). */
function reloaded(shows: (change: RuntimeChange) => boolean): Promise<RuntimeChange> {
  return reloadShowing(runtime as DocsRuntime, shows);
}

/** The snapshot serves the guides folder (a real one, or through a link), or not. */
const guides = (served: boolean) => (change: RuntimeChange) => change.site.files.has("/guides/access-control.mdx") === served;
/** The snapshot is the next release's tree (`nextRelease`). */
const release = (change: RuntimeChange) => change.site.files.has("/guides/added.mdx");

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
    const index = '---\ntitle: Home\n---\nimport StaffNote from "/guides/staff-note.mdx";\n\nWelcome home.\n\n<StaffNote />\n';
    // Two files written one after the other may settle, and be reloaded, apart: the wait is for both.
    const written = reloaded((change) => change.site.files.has("/guides/staff-note.mdx") && change.site.files.get("/index.mdx")?.text.includes("Welcome home.") === true);
    writeFileSync(join(root, "index.mdx"), index);
    await written;
    expect(await anonymous("ls /guides; cat /index.mdx")).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n---\ntitle: Home\n---\nWelcome home.\n");
    // Moved out and a link put in its place in one go (a checkout): its pages are outside now.
    let swapped = reloaded(guides(false));
    renameSync(join(root, "guides"), join(away, "guides"));
    symlinkSync(join(away, "guides"), join(root, "guides"));
    await swapped;
    expect(await anonymous("ls /guides")).toBe("ls: cannot access '/guides': No such file or directory\n[exit code 2]");
    // And back: the same folder, which the events are read after.
    swapped = reloaded(guides(true));
    unlinkSync(join(root, "guides"));
    renameSync(join(away, "guides"), join(root, "guides"));
    await swapped;
    expect(await anonymous("ls /guides; cat /index.mdx")).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n---\ntitle: Home\n---\nWelcome home.\n");
  });
});

describe("the docs root itself replaced while serving (F4)", () => {
  it("a deploy that renames the new tree over the root: the new tree is served whole, and the old one's edits decide nothing", async () => {
    const base = outside();
    const root = join(base, "docs");
    cpSync(fixture("demo"), root, { recursive: true });
    await serve(root);
    expect(await anonymous("ls /guides")).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n");
    nextRelease(join(base, "docs.new"));
    const replaced = reloaded(release);
    renameSync(root, join(base, "docs.old"));
    renameSync(join(base, "docs.new"), root);
    await replaced;
    expect(await anonymous("ls /guides")).toBe(NEXT);
    expect(logged.filter((line) => line.includes("docs root"))).toEqual([REPLACED(root)]);
    // The old tree is outside now: its edits are no events (a fence in the new tree shows it).
    const fence = reloaded((change) => change.site.files.has("/guides/fence.mdx"));
    writeFileSync(join(base, "docs.old/index.mdx"), "---\ntitle: Home\n---\nOLD TREE\n");
    writeFileSync(join(base, "docs.old/guides/webhooks.mdx"), "---\ntitle: Webhooks\n---\nOLD TREE\n");
    writeFileSync(join(root, "guides/fence.mdx"), "---\ntitle: Fence\n---\nfence\n");
    await fence;
    expect(await anonymous("ls /guides; rg -l 'OLD TREE' /")).toBe("access-control.mdx\nadded.mdx\nfence.mdx\nuploading-files.mdx\n[exit code 1]");
  });

  it("a `current` link retargeted to the next release: the release is served whole", async () => {
    const base = outside();
    cpSync(fixture("demo"), join(base, "rel1"), { recursive: true });
    nextRelease(join(base, "rel2"));
    symlinkSync("rel1", join(base, "current"));
    await serve(join(base, "current"));
    expect(await anonymous("ls /guides")).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n");
    const retargeted = reloaded(release);
    symlinkSync("rel2", join(base, "current.tmp"));
    renameSync(join(base, "current.tmp"), join(base, "current"));
    await retargeted;
    expect(await anonymous("ls /guides; cat /guides/webhooks.mdx")).toBe(`${NEXT}cat: /guides/webhooks.mdx: No such file or directory\n[exit code 1]`);
    expect(logged.filter((line) => line.includes("docs root"))).toEqual([REPLACED(join(base, "current"))]);
  });

  it("the root removed, then put back: the last good state serves meanwhile, then the new tree", async () => {
    const base = outside();
    const root = join(base, "docs");
    cpSync(fixture("demo"), root, { recursive: true });
    await serve(root);
    nextRelease(join(base, "docs.new"));
    const gone = new Promise<void>((resolve) => onLog.push((line) => line.includes("is gone") && resolve()));
    rmSync(root, { recursive: true });
    await gone;
    expect(await anonymous("ls /guides")).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n");
    const back = reloaded(release);
    renameSync(join(base, "docs.new"), root);
    await back;
    expect(await anonymous("ls /guides")).toBe(NEXT);
    expect(logged.filter((line) => line.includes("docs root"))).toEqual([`warning: the docs root ${root} is gone; still serving the last good state until a folder is there again`, REPLACED(root)]);
  });
});
