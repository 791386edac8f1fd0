import { describe, expect, it } from "vitest";
import { splitSections } from "../../../src/engine/search/sections.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A line that is mostly an internal link ("See [Change the keyboard shortcut](/how-to/change-hotkey).",
 * a list of links) points the reader to another page in that page's words, as a link card does:
 * its link text is indexed with the code (weight 0.5), the rest of the line as prose, and the
 * section's text and snippets are unchanged. A sentence that cites a page keeps its link text as
 * prose. Before, a troubleshooting page pointing to the how-to outranked it for the how-to's own
 * question (issue 24, twenty-fourth round: Alter's French hotkey question, class (a) of the misses).
 */
const TROUBLESHOOTING = [
  "---",
  "title: Hotkey not working",
  "---",
  "The window does not open when you press the hotkey.",
  "",
  "## Fixes",
  "",
  "Another app may hold the same keys; the [settings page](/settings) lists yours.",
  "",
  "See [Change the keyboard shortcut](/how-to/change-hotkey).",
  "",
  "- [Permissions](./permissions)",
  "- ![The shortcut dialog](/images/shortcut.png)",
  "- [Vendor help](https://example.com/help)",
].join("\n");

describe("pointer lines", () => {
  it("index the link text of a line that is mostly internal links with the code, a cited link, image or outside link as prose", () => {
    const body = TROUBLESHOOTING.split("---\n")[2] as string;
    expect(splitSections(body).map(({ heading, text, prose, code }) => ({ heading, text, prose, code }))).toEqual([
      { heading: "", text: "The window does not open when you press the hotkey.", prose: "The window does not open when you press the hotkey.", code: "" },
      {
        heading: "Fixes",
        text: "Another app may hold the same keys; the settings page lists yours.\n\nSee Change the keyboard shortcut.\n\nPermissions\nThe shortcut dialog\nVendor help",
        prose: "Another app may hold the same keys; the settings page lists yours.\n\nSee .\n\nThe shortcut dialog\nVendor help",
        code: "Change the keyboard shortcut\nPermissions",
      },
    ]);
  });

  it("rank the page a pointer line names above the page holding the line", () => {
    const index = new SearchIndex();
    index.sync(
      inlineSite({
        "/troubleshooting/hotkey.mdx": TROUBLESHOOTING,
        "/how-to/change-hotkey.mdx": "---\ntitle: Change hotkey\n---\nOpen Settings, then Shortcuts, and press the new key combination.\n",
        "/permissions.mdx": "---\ntitle: Permissions\n---\nAllow accessibility access.\n",
      }),
    );
    const hits = index.search({ query: "change the keyboard shortcut", canRead: () => true });
    // Without the rule: /troubleshooting/hotkey 0.321, then /how-to/change-hotkey 0.309.
    expect(hits.map((h) => [h.page.path, h.score, h.snippet])).toEqual([
      ["/how-to/change-hotkey", 0.305, "Open Settings, then Shortcuts, and press the new key combination."],
      ["/troubleshooting/hotkey", 0.218, "Another app may hold the same keys; the settings page lists yours. See Change the keyboard shortcut. Permissions The shortcut dialog Vendor help"],
    ]);
  });
});
