import { describe, expect, it } from "vitest";
import { withReferenceListItems } from "../../../src/engine/search/reference-lists.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { splitSections } from "../../../src/engine/search/sections.js";
import { inlineSite } from "./inline-site.js";

/**
 * A reference list (error codes, environment variables, each an item led by its identifier in
 * inline code with its description below) is split into one unit an item, as a long table is into
 * rows: the item a question names is found as what it documents, not as a line among sixty.
 */
const CODES = ["ACTIVATION_LIMIT_TOO_LOW", "ADDONS_NOT_ALLOWED", "DISCOUNT_CODE_ALREADY_EXISTS", "DISCOUNT_CODE_EXPIRED", "DISCOUNT_CODE_USAGE_LIMIT_EXCEEDED", "DUPLICATE_LINE_ITEMS", "EXCHANGE_RATE_NOT_FOUND", "INACTIVE_LICENSE_KEY", "INSUFFICIENT_WALLET_FUNDS"];
const item = (c: string): string => [`- \`${c}\``, `  - **Trigger:** ${c.toLowerCase().replaceAll("_", " ")} happened`, `  - **Message:** ${c.toLowerCase().replaceAll("_", " ")}`, ""].join("\n");
const ERRORS = ["## Error codes reference", "", "Every error body has a code.", "", ...CODES.map(item), "Contact support for others."].join("\n");

describe("reference lists", () => {
  it("splits a list of 8 or more code-led items into one section an item, under the list's heading", () => {
    const sections = withReferenceListItems(ERRORS, splitSections(ERRORS));
    expect(sections.map((s) => [s.heading, s.anchor, s.text])).toEqual([
      ["Error codes reference", "error-codes-reference", "Every error body has a code."],
      ...CODES.map((c) => ["Error codes reference", "error-codes-reference", `${c}\nTrigger: ${c.toLowerCase().replaceAll("_", " ")} happened\nMessage: ${c.toLowerCase().replaceAll("_", " ")}`]),
      ["Error codes reference", "error-codes-reference", "Contact support for others."],
    ]);
  });

  it("leaves shorter lists, lists with an item not led by code, and code-led items at another indent as they are", () => {
    const short = CODES.slice(0, 7).map(item).join("\n");
    expect(withReferenceListItems(short, splitSections(short)).map((s) => s.text)).toEqual(splitSections(short).map((s) => s.text));
    const mixed = [...CODES.slice(0, 4).map(item), "- a plain item", ...CODES.slice(4).map(item)].join("\n");
    expect(withReferenceListItems(mixed, splitSections(mixed))).toHaveLength(1);
    const prose = ["Some `code` in prose.", "", "More `code`."].join("\n");
    expect(withReferenceListItems(prose, splitSections(prose))).toEqual(splitSections(prose));
  });

  it("ranks the page documenting an identifier above a page whose short sections hold its words", () => {
    const site = inlineSite({
      "/errors.mdx": `---\ntitle: Errors\n---\n\n${ERRORS}\n`,
      "/discounts.mdx": ["---", "title: Discount codes", "---", "", "## Usage limit", "", "Limit how many times a discount code can be used.", "", "## Expiry", "", "A discount code can expire."].join("\n"),
    });
    const index = new SearchIndex();
    index.sync(site);
    expect(index.search({ query: "DISCOUNT_CODE_USAGE_LIMIT_EXCEEDED", canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.snippet])).toEqual([
      ["/errors", "Error codes reference", "DISCOUNT_CODE_USAGE_LIMIT_EXCEEDED Trigger: discount code usage limit exceeded happened Message: discount code usage limit exceeded"],
      ["/discounts", "Usage limit", "Limit how many times a discount code can be used."],
    ]);
  });
});
