// Its own file so that the answer cache (`search-answers.ts`), which stores results, and the
// search use case, which makes them and caches them, need not import each other.
import { z } from "zod";

const otherVersion = z.object({
  versions: z.array(z.string()).describe("The versions navigation lists this copy under."),
  products: z.array(z.string()).optional().describe("The products (Cloud / Self-host editions) it is under, where the site has products."),
  path: z.string().describe("Its page path."),
  url: z.string().describe("Its link on the docs site."),
  score: z.number().describe("Its own score, 0 to 1."),
});

const otherLanguage = z.object({
  languages: z.array(z.string()).describe("The languages navigation lists this copy under."),
  versions: z.array(z.string()).optional().describe("The versions it is under, where the site has versions."),
  path: z.string().describe("Its page path."),
  url: z.string().describe("Its link on the docs site."),
  score: z.number().describe("Its own score, 0 to 1."),
});

/** One result, as the search tool's `structuredContent.results[]` and `svc-mcp search --json` give it. */
export const searchResultSchema = z.object({
  title: z.string().describe("The page's title."),
  section: z.string().describe("The heading of the best-matching section (empty for the page's opening)."),
  path: z.string().describe("The page's path on the docs site (/guides/setup)."),
  file: z.string().describe("The page's file in the docs filesystem (/guides/setup.mdx)."),
  url: z.string().describe("Link to the matching section on the docs site."),
  snippet: z.string().describe("Text of the matching section."),
  score: z.number().describe("0 to 1, the same scale for every query: 0.5 and above is a strong match."),
  versions: z.array(z.string()).optional().describe("Versions navigation lists the page under; absent when under none (so in every version)."),
  languages: z.array(z.string()).optional().describe("Likewise for languages."),
  products: z.array(z.string()).optional().describe("Likewise for products (Cloud / Self-host editions)."),
  otherVersions: z.array(otherVersion).optional().describe("The same page in other versions (\"also in\"), folded into this result; unfiltered searches only."),
  moreVersions: z.number().int().optional().describe("How many more versions hold the same page than otherVersions lists; search with `version` to get one."),
  otherLanguages: z.array(otherLanguage).optional().describe("The same page in other languages, folded into this result (shown in the language its best copy is in); searches without `language` only."),
  moreLanguages: z.number().int().optional().describe("How many more languages hold the same page than otherLanguages lists; search with `language` to get one."),
});

export type SearchResult = z.infer<typeof searchResultSchema>;
