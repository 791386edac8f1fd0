import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { toPlainText } from "../../../src/engine/search/sections.js";
import { inlineSite } from "./inline-site.js";

/**
 * TeX math, as Mintlify renders it (`$...$` inline, `$$...$$` blocks; found on Berachain's Bend
 * pages, an unseen-site round): the braces of `\mathrm{maxLIF}` or `u_{target}` are TeX groups.
 * Read as JSX expressions they were dropped with their words, and the command names were kept as
 * words: the liquidation formula was indexed as `\mathrm = \min \left( \mathrm ,\ \frac \right)`,
 * the APR formula as `APR = \frac`, so neither `maxLIF` nor `vaultRewardRate` found its page.
 */
describe("TeX math", () => {
  it("keeps a formula's names and symbols and drops its commands, inline and in blocks", () => {
    const block = "The factor:\n\n$$\n\\mathrm{LIF} = \\min \\left( \\mathrm{maxLIF},\\ \\frac{1}{(1 - \\beta) \\times (1 - \\mathrm{LLTV})} \\right)\n$$\n\nThen more.";
    expect(toPlainText(block)).toBe("The factor:\n\nLIF = min ( maxLIF , 1 (1 - ) (1 - LLTV ) )\n\nThen more.");
    expect(toPlainText("$$APR = \\frac{vaultRewardRate \\times secondsPerYear}{totalSupply \\times priceOfStakeToken}$$")).toBe(
      "APR = vaultRewardRate secondsPerYear totalSupply priceOfStakeToken",
    );
    expect(toPlainText("Utilization $u_{\\text{target}}$ is $u_{target} = 0.9$ here.")).toBe("Utilization u_target is u_target = 0.9 here.");
    expect(toPlainText("A set $H(t) = \\{0\\} + \\{t_i\\}_{t_i < t}$ and {props.x} after.")).toBe("A set H(t) = {0} + {t_i}_t_i < t and after.");
  });

  it("leaves dollars that open no formula as they were: prices, escapes, code, an unclosed one", () => {
    expect(toPlainText("It costs $5 and $10 a month.")).toBe("It costs $5 and $10 a month.");
    expect(toPlainText("Price \\$5 with {expr} and `$x_{a}$` code.")).toBe("Price $5 with and $x_{a}$ code.");
    expect(toPlainText("Unclosed $\\frac{a}{b} here\n\nnext $ para")).toBe("Unclosed $\\frac here\n\nnext $ para");
    // A block's `$$` does not close across a blank line (a paragraph ends there).
    expect(toPlainText("$$\\frac{a}{b}\n\n$$ later")).toBe("$$\\frac\n\n$$ later");
  });

  it("finds the page by a name only its formula holds, and the snippet shows the formula's words", () => {
    const site = inlineSite({
      "/liquidation.mdx": "---\ntitle: Liquidation\n---\n\n$$\n\\mathrm{LIF} = \\min \\left( \\mathrm{maxLIF},\\ \\frac{1}{1 - \\mathrm{LLTV}} \\right)\n$$\n",
      "/rates.mdx": "---\ntitle: Rates\n---\n\nRates follow the curve; see the liquidation page for the factor.\n",
    });
    const index = new SearchIndex();
    index.sync(site);
    const hits = index.search({ query: "maxLIF LLTV", canRead: () => true });
    expect(hits.map((h) => [h.page.path, h.snippet])).toEqual([["/liquidation", "LIF = min ( maxLIF , 1 1 - LLTV )"]]);
  });
});
