import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
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

  it("stays a page cut short when the next line is a key, a list item, a comment, or not blank", async () => {
    const dir = tempRepo({
      "docs.json": { name: "Cut", navigation: { pages: ["index", "a", "b", "c", "d"] } },
      "index.mdx": page("Home", "Start here."),
      "a.mdx": "---\ntitle: Half written\n",
      "b.mdx": "---\n\n- one\n",
      "c.mdx": "---\n\n# a note\n",
      "d.mdx": "---\ntitl",
    });
    const skipped = "is skipped (line 1: invalid front matter: the --- that opens it has no closing --- line)";
    const warning = "warning: skipped: invalid front matter: the --- that opens it has no closing --- line";
    expect(await runCli(["check", "--dir", dir])).toEqual({
      code: 0,
      stdout: [
        `docs.json:6:7 navigation.pages[1]: warning: page "a" not found: a.mdx ${skipped}`,
        `docs.json:7:7 navigation.pages[2]: warning: page "b" not found: b.mdx ${skipped}`,
        `docs.json:8:7 navigation.pages[3]: warning: page "c" not found: c.mdx ${skipped}`,
        `docs.json:9:7 navigation.pages[4]: warning: page "d" not found: d.mdx ${skipped}`,
        `a.mdx:1 ${warning}`,
        `b.mdx:1 ${warning}`,
        `c.mdx:1 ${warning}`,
        `d.mdx:1 ${warning}`,
        "checked docs.json and 1 page: 0 errors, 8 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});

describe("a page over the page limit", () => {
  // An exported notebook: its output image inline as base64, 3 MB for a few lines of text.
  const payload = "iVBORw0KGgo".padEnd(3 * 1024 * 1024, "A");
  const notebook = `---\ntitle: Tide tables\n---\n\nThe harbour almanac lists spring tides.\n\n![chart](data:image/png;base64,${payload})\n\nNeap tides follow a week later.\n`;

  it("is served with its inline data cut when the rest fits", async () => {
    const dir = tempRepo({
      "docs.json": { name: "Tides", navigation: { pages: ["index", "tides"] } },
      "index.mdx": page("Home", "Start here."),
      "tides.mdx": notebook,
    });
    expect(await runCli(["check", "--dir", dir])).toEqual({ code: 0, stdout: "checked docs.json and 2 pages: no problems\n", stderr: "" });
    const found = await runCli(["search", "--dir", dir, "--page-size", "1", "neap tides"]);
    expect(found.stdout).toBe(
      ["1. Tide tables", "   http://localhost:3000/tides", "   file: /tides.mdx · score 0.539", "   The harbour almanac lists spring tides. chart Neap tides follow a week later.", ""].join("\n"),
    );
    const shown = "---\ntitle: Tide tables\n---\n\nThe harbour almanac lists spring tides.\n\n![chart](data:image/png;base64,…)\n\nNeap tides follow a week later.\n";
    expect(await runCli(["fs", "--dir", dir, "cat /tides.mdx"])).toEqual({ code: 0, stdout: shown, stderr: "" });
  });

  it("is still left out when its text alone is over it", async () => {
    const text = `${"Lighthouse keepers log the weather. ".repeat(LIMITS.load.maxPageBytes / 32)}\n`;
    const dir = tempRepo({
      "docs.json": { name: "Logs", navigation: { pages: ["index"] } },
      "index.mdx": page("Home", "Start here."),
      "log.mdx": `${notebook}${text}`,
    });
    const size = Buffer.byteLength(`${notebook}${text}`);
    expect(await runCli(["check", "--dir", dir])).toEqual({
      code: 0,
      stdout: `log.mdx warning: skipped: ${size} bytes is over the ${LIMITS.load.maxPageBytes}-byte page limit\nchecked docs.json and 1 page: 0 errors, 1 warning\n`,
      stderr: "",
    });
  });
});

describe("an MDX comment holding an apostrophe", () => {
  it("is no text of the page, in .md and .mdx alike", async () => {
    const note = "{/* <!-- the list below is made by a script\nfrom each page's front matter.\n\nIf you've found a slip, edit the pages themselves.\n--> */}";
    const body = `Lanterns burn whale oil.\n\n${note}\n\n{/* keeper's remark */}\n{/* <!--START--> */}\n{/* <!--END--> */}\n\nTrim the wick at dusk.`;
    const dir = tempRepo({
      "docs.json": { name: "Notes", navigation: { pages: ["index", "oil", "wick"] } },
      "index.mdx": page("Home", "Start here."),
      "oil.md": page("Oil", body),
      "wick.mdx": page("Wick", body),
    });
    const found = await runCli(["search", "--dir", dir, "--page-size", "2", "lanterns wick"]);
    expect(found.stdout).toBe(
      [
        "1. Wick",
        "   http://localhost:3000/wick",
        "   file: /wick.mdx · score 0.544",
        "   Lanterns burn whale oil. Trim the wick at dusk.",
        "",
        "2. Oil",
        "   http://localhost:3000/oil",
        "   file: /oil.md · score 0.294",
        "   Lanterns burn whale oil. Trim the wick at dusk.",
        "",
      ].join("\n"),
    );
    expect((await runCli(["search", "--dir", dir, "slip script remark"])).stdout).toBe(
      `No results for "slip script remark". Try other words, fewer terms, or search the files: svc-mcp fs 'rg -il "term" /'\n`,
    );
  });
});
