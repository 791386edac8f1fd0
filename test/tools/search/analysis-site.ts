import type { Site } from "../../../src/vfs/site.js";
import { inlineSite } from "./inline-site.js";

const WORDS = ["webhook", "signature", "checkout", "refund", "ship", "inventory", "tax", "coupon", "cart", "payment", "address", "token"];
const word = (i: number): string => WORDS[i % WORDS.length] as string;
const ROWS = Array.from({ length: 9 }, (_, r) => `| \`code_${r}\` | ${word(r)} failed |`).join("\n");
const ITEMS = Array.from({ length: 8 }, (_, r) => `- \`ERR_${r}\`: the ${word(r + 3)} was refused`).join("\n");
const FOOTER = "## Support\n\nWrite to support@example.com with your order number.";

/** Pages of every shape analysis splits: tables, reference lists, CJK text, boilerplate on many
 *  pages, a snippet inlined, copies in two versions, and words each page has alone (the analysis
 *  workers' tests: `analysis-workers.test.ts`, `analysis-during-load.test.ts`). */
export function site(): Site {
  const files: Record<string, string> = { "/snippets/note.mdx": "A shared note about the refundNote flow." };
  const pages: string[] = [];
  for (let i = 0; i < 24; i++) {
    const body = [
      "---",
      `title: Page ${i} ${word(i)}`,
      "---",
      i % 5 === 0 ? 'import Note from "/snippets/note.mdx";\n\n<Note />\n' : "",
      `Intro ${word(i)} ${word(i + 1)} unique${i}word and createCart_${i} v2.${i}.`,
      `## ${word(i + 2)} section`,
      i % 3 === 0 ? ROWS : ITEMS,
      i % 4 === 0 ? "## 知识库\n\n创建知识库 설치를 하다" : `## Other ${i}\n\nMore about ${word(i + 5)}.`,
      "```js\nconst x = api_key;\n```",
      FOOTER,
    ].join("\n\n");
    for (const version of ["v1", "v2"]) {
      files[`/${version}/p${i}.mdx`] = body;
      pages.push(`${version}/p${i}`);
    }
  }
  const docs = { name: "Shop", navigation: { versions: ["v2", "v1"].map((version) => ({ version, groups: [{ group: "Guides", pages: pages.filter((p) => p.startsWith(version)) }] })) } };
  return inlineSite(files, docs);
}
