import { describe, expect, it } from "vitest";
import type { Access } from "../../src/vfs/access.js";
import { importVariants } from "../../src/vfs/import-variants.js";
import type { Page } from "../../src/vfs/page.js";
import type { Site } from "../../src/vfs/site.js";
import type { SiteFile } from "../../src/vfs/site-file.js";

/**
 * A site whose MDX files all have one access rule has no import variants, and its texts are not
 * looked at to find that out (issue 22: a start of a 25,000-page site from the persistent cache
 * scanned every distinct text for import lines, ~0.1 s of it). One file of another rule, and
 * the imports are read as before.
 */

const TEXTS: Record<string, string> = {
  "/guide.mdx": 'import Note from "/snippets/note.mdx";\n\n# Guide\n\n<Note />\n',
  "/snippets/note.mdx": "A note.\n",
  "/other.md": "# Other\n",
};

/** The site's files, each counting the reads of its text into `reads`. */
function siteOf(rules: Record<string, Access>, reads: string[]): Pick<Site, "files" | "pages" | "shadowed"> {
  const files = new Map<string, SiteFile>();
  for (const [path, text] of Object.entries(TEXTS)) {
    files.set(path, {
      path,
      get text() {
        reads.push(path);
        return text;
      },
      size: text.length,
      mtime: new Date(0),
      access: rules[path] ?? {},
    });
  }
  return { files, pages: new Map<string, Page>(), shadowed: new Map<string, Page[]>() };
}

describe("import variants of a site of one rule", () => {
  it("are none, and no text is read for them (all open, or all of one group)", async () => {
    const staff: Access = { groups: ["staff"] };
    for (const rules of [{}, { "/guide.mdx": staff, "/snippets/note.mdx": staff, "/other.md": staff }] as Record<string, Access>[]) {
      const reads: string[] = [];
      expect({ variants: (await importVariants(siteOf(rules, reads), undefined)).map((v) => v.file.path), reads }).toEqual({ variants: [], reads: [] });
    }
  });

  it("are found as before once one file has another rule", async () => {
    const reads: string[] = [];
    const variants = await importVariants(siteOf({ "/snippets/note.mdx": { groups: ["staff"] } }, reads), undefined);
    expect({ variants: variants.map((v) => v.file.path), read: [...new Set(reads)].sort() }).toEqual({ variants: ["/guide.mdx"], read: ["/guide.mdx", "/other.md", "/snippets/note.mdx"] });
  });
});
