import { describe, expect, it } from "vitest";
import type { ApiOperation } from "../../src/config/openapi/model.js";
import { descriptionFindings } from "../../src/config/openapi/description-findings.js";
import { renderMarkdown } from "../../src/engine/render/render-mdx.js";

/**
 * Adversary finding 41 (issue 25): an OpenAPI operation whose description was 20,000 `[a](`
 * took 6.5 s to render, as API descriptions never went through the guards a page's MDX does.
 * Here the same shape just past the limit.
 */
const LINKS = "[a](".repeat(501);
const operation = (fields: Partial<ApiOperation>): ApiOperation =>
  ({ kind: "operation", method: "GET", path: "/bad", tags: [], deprecated: false, parameters: [], responses: [], security: [], servers: [], hidden: false, excluded: false, codeSamples: [], pointer: "/paths/~1bad/get", problems: [], ...fields }) as ApiOperation;

describe("API descriptions too costly or too deep to parse", () => {
  it("are shown as text after a notice", () => {
    expect(renderMarkdown(`Intro.\n\n${LINKS}`)).toBe(
      `<p class="markup-notice">Shown as plain text: its emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000).</p>\n<p>Intro.</p>\n<p>${LINKS}</p>`,
    );
    expect(renderMarkdown("Intro.\n\n```x`\n" + "> ".repeat(101) + "deep")).toBe(
      `<p class="markup-notice">Shown as plain text: its block quotes nest more than 100 levels deep.</p>\n<p>Intro.</p>\n<p>\`\`\`x\`\n${"> ".repeat(101)}deep</p>`,
    );
    expect(renderMarkdown("A [link](/x) and `code`.")).toBe('<p>A <a href="/x">link</a> and <code>code</code>.</p>');
  });

  it("check warns at the spec, with the text's JSON path", () => {
    const op = operation({ description: `Intro.\n\n${LINKS}`, parameters: [{ name: "q", in: "query", required: false, deprecated: false, description: "*a ".repeat(101) + "x" + " a*".repeat(101) }], responses: [{ status: "200", description: "OK", content: [] }] });
    expect(descriptionFindings("openapi.json", [op])).toEqual([
      { severity: "warning", file: "openapi.json", path: "paths./bad.get.description", code: "markup-too-costly", message: "its emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000) (line 3 of the text): the API reference shows it as plain text" },
      { severity: "warning", file: "openapi.json", path: "paths./bad.get.parameters[0].description", code: "markup-too-deep", message: "its emphasis nest more than 100 levels deep (line 1 of the text): the API reference shows it as plain text" },
    ]);
    expect(descriptionFindings("openapi.json", [operation({ description: "A [link](/x)." })])).toEqual([]);
  });
});
