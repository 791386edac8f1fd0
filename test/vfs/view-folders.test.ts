/**
 * A reader's view makes its folder table at the first question about a folder, not when it is
 * made: a stdio server makes its reader's view before it answers `tools/list`, which reads the
 * view's files only (issue 22). The folders it then answers are those of its files.
 */
import { describe, expect, it } from "vitest";
import { ALL_ACCESS } from "../../src/vfs/access.js";
import { makeFile, type SiteFile } from "../../src/vfs/site-file.js";
import { SiteView } from "../../src/vfs/view.js";

/** Files whose times count how often they are read (only the folder table reads them). */
function countedFiles(): { files: SiteFile[]; reads: () => number } {
  let reads = 0;
  const made = [
    makeFile("/guides/setup.mdx", "# Setup\n", {}, new Date(Date.UTC(2030, 0, 2))),
    makeFile("/guides/deep/more.mdx", "# More\n", {}, new Date(Date.UTC(2030, 0, 3))),
    makeFile("/index.mdx", "# Home\n", {}, new Date(Date.UTC(2030, 0, 1))),
  ];
  const files = made.map((f) => {
    const counted = Object.create(f) as SiteFile;
    Object.defineProperty(counted, "mtime", {
      get: () => {
        reads++;
        return f.mtime;
      },
    });
    return counted;
  });
  return { files, reads: () => reads };
}

describe("a view's folders", () => {
  it("are made at the first question about a folder, and are those of its files", () => {
    const { files, reads } = countedFiles();
    const view = new SiteView({ files: new Map(files.map((f) => [f.path, f])), pages: new Map() }, ALL_ACCESS, "public");
    expect(view.files.map((f) => f.path)).toEqual(["/guides/deep/more.mdx", "/guides/setup.mdx", "/index.mdx"]);
    expect(reads()).toBe(0);
    expect(view.isDir("/guides")).toBe(true);
    const made = reads();
    expect(made).toBeGreaterThan(0);
    expect(view.childrenOf("/")).toEqual(["guides", "index.mdx"]);
    expect(view.childrenOf("/guides")).toEqual(["deep", "setup.mdx"]);
    expect(view.mtimeOf("/guides").toISOString()).toBe("2030-01-03T00:00:00.000Z");
    expect(view.mtimeOf("/").toISOString()).toBe("2030-01-03T00:00:00.000Z");
    expect(view.getAllPaths()).toEqual(["/", "/guides/deep", "/guides", "/guides/deep/more.mdx", "/guides/setup.mdx", "/index.mdx"]);
    // Made once: later questions read the table, not the files' times.
    expect(view.isDir("/guides/deep")).toBe(true);
    expect(reads()).toBe(made);
  });
});

describe("a folder's time read without the folder table (`folderTime`, what a command's answer names)", () => {
  it("answers as the table does, for folders, files, missing paths and a folder whose name begins another's, reading only the times of the files under it", () => {
    let reads = 0;
    const made = [
      makeFile("/guides/setup.mdx", "# Setup\n", {}, new Date(Date.UTC(2030, 0, 2))),
      makeFile("/guides/deep/more.mdx", "# More\n", {}, new Date(Date.UTC(2030, 0, 3))),
      makeFile("/guides-old/a.mdx", "# Old\n", {}, new Date(Date.UTC(2031, 0, 1))),
      makeFile("/guides.mdx", "# Guides\n", {}, new Date(Date.UTC(2032, 0, 1))),
      makeFile("/index.mdx", "# Home\n", {}, new Date(Date.UTC(2030, 0, 1))),
    ];
    const counted = made.map((f) => {
      const c = Object.create(f) as SiteFile;
      Object.defineProperty(c, "mtime", {
        get: () => {
          reads++;
          return f.mtime;
        },
      });
      return c;
    });
    const site = { files: new Map(counted.map((f) => [f.path, f])), pages: new Map() };
    const lazy = new SiteView(site, ALL_ACCESS, "public");
    const paths = ["/guides", "/guides/deep", "/guides-old", "/guides/deep/more.mdx", "/guides.mdx", "/gui", "/nope", "/guides/dee"];
    const answers = paths.map((p) => [p, lazy.folderTime(p)?.toISOString()]);
    const atGuides = reads;
    const root = lazy.folderTime("/")?.toISOString();
    const table = new SiteView(site, ALL_ACCESS, "public");
    const fromTable = paths.map((p) => [p, table.isDir(p) ? table.mtimeOf(p).toISOString() : undefined]);
    expect({ answers, atGuides, root }).toEqual({
      answers: fromTable,
      // /guides (2 files), /guides/deep (1), /guides-old (1): no other file's time.
      atGuides: 4,
      root: table.mtimeOf("/").toISOString(),
    });
    expect(answers).toEqual([
      ["/guides", "2030-01-03T00:00:00.000Z"],
      ["/guides/deep", "2030-01-03T00:00:00.000Z"],
      ["/guides-old", "2031-01-01T00:00:00.000Z"],
      ["/guides/deep/more.mdx", undefined],
      ["/guides.mdx", undefined],
      ["/gui", undefined],
      ["/nope", undefined],
      ["/guides/dee", undefined],
    ]);
  });
});
