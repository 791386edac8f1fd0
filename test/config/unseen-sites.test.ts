import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "./temp-repo.js";

/**
 * Shapes found on real Mintlify sites kept out of every tuning round
 * (bench/eval/external/fetch-sites-unseen.txt), each written here as a small pattern in our own
 * words: the hosted platform serves them, so `check` must not refuse them and search and the
 * shell must read them.
 */

const page = (title: string, text: string): string => `---\ntitle: ${title}\n---\n\n${text}\n`;

describe("a file opened by --- with no closing one", () => {
  it("is a page starting with a rule when the next text is no YAML: a footer snippet under every page", async () => {
    const dir = tempRepo({
      "docs.json": { name: "Rules", navigation: { pages: ["index", "billing"] } },
      "index.mdx": page("Home", "Welcome to the lighthouse manual.\n\nimport Footer from \"/snippets/footer.mdx\";\n\n<Footer />"),
      "billing.mdx": page("Billing", "Invoices are sent monthly.\n\nimport Footer from \"/snippets/footer.mdx\";\n\n<Footer />"),
      "snippets/footer.mdx": "---\n\n<Card title=\"Ask the keepers\" href=\"https://example.com/keepers\">\n  Lantern support desk\n</Card>\n",
    });
    expect(await runCli(["check", "--dir", dir])).toEqual({ code: 0, stdout: "checked docs.json and 3 pages: no problems\n", stderr: "" });
    const found = await runCli(["search", "--dir", dir, "--page-size", "3", "lantern support desk"]);
    expect(found.stdout).toBe(
      [
        "1. Billing",
        "   http://localhost:3000/billing",
        "   file: /billing.mdx · score 0.391",
        "   Invoices are sent monthly. Ask the keepers Lantern support desk",
        "",
        "2. Home",
        "   http://localhost:3000/",
        "   file: /index.mdx · score 0.391",
        "   Welcome to the lighthouse manual. Ask the keepers Lantern support desk",
        "",
      ].join("\n"),
    );
    const footer = "---\n\n<Card title=\"Ask the keepers\" href=\"https://example.com/keepers\">\n  Lantern support desk\n</Card>\n";
    expect(await runCli(["fs", "--dir", dir, "cat /snippets/footer.mdx"])).toEqual({ code: 0, stdout: footer, stderr: "" });
  });

  it("stays a page cut short when the next line is a key, a list item or a comment", async () => {
    const dir = tempRepo({
      "docs.json": { name: "Cut", navigation: { pages: ["index", "a", "b", "c"] } },
      "index.mdx": page("Home", "Start here."),
      "a.mdx": "---\ntitle: Half written\n",
      "b.mdx": "---\n\n- one\n",
      "c.mdx": "---\n# a note\n",
    });
    const skipped = "is skipped (line 1: invalid front matter: the --- that opens it has no closing --- line)";
    const warning = "warning: skipped: invalid front matter: the --- that opens it has no closing --- line";
    expect(await runCli(["check", "--dir", dir])).toEqual({
      code: 0,
      stdout: [
        `docs.json:6:7 navigation.pages[1]: warning: page "a" not found: a.mdx ${skipped}`,
        `docs.json:7:7 navigation.pages[2]: warning: page "b" not found: b.mdx ${skipped}`,
        `docs.json:8:7 navigation.pages[3]: warning: page "c" not found: c.mdx ${skipped}`,
        `a.mdx:1 ${warning}`,
        `b.mdx:1 ${warning}`,
        `c.mdx:1 ${warning}`,
        "checked docs.json and 1 page: 0 errors, 6 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});
