import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { LIMITS } from "../../../src/limits.js";
import { readerWithGroups } from "../../../src/vfs/access.js";
import { localContext, requestContext } from "../../../src/vfs/request-context.js";
import { makeRepo } from "../../helpers/repo.js";

/**
 * A saved page's analysis (split, tokenize) is made in a worker thread while the last snapshot
 * serves, for a save of `savedAnalysisFromChars` characters or more: made on the thread answering
 * callers, a 2 MB page held every caller 1.4-4.3 s per save (`bench/save-stall.ts`). What the
 * search answers after the save is what a start on the saved folder answers.
 */
const page = (title: string, text: string) => `---\ntitle: ${title}\n---\n\n${text}\n`;

/** A long page of many sections: prose, a table, code, Japanese, an identifier per section. */
function longPage(chars: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const part = `## Option ${i}\n\nSet \`option_${i}\` to tune the bucket's ${["retention", "replication", "quota", "lifecycle"][i % 4]} for region ${i % 17}.\n\n| Key | Default |\n| --- | --- |\n| limit_${i} | ${i * 3} |\n\n\`\`\`sh\nbucket set option_${i}=${i}\n\`\`\`\n\nバケットの設定${i % 9}を変更します。\n\n`;
    parts.push(part);
    n += part.length;
  }
  return parts.join("");
}

let repo: ReturnType<typeof makeRepo>;
let runtime: DocsRuntime;
const queries = ["how do I change the replication of a bucket in region 5", "option_1234", "limit_77 default", "バケットの設定を変更", "quickstart zebramarker", "upload files"];

async function answers(r: DocsRuntime, context = localContext()): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of queries) out.push((await r.search(context, { query, pageSize: 10 })).map((h) => [h.page.path, h.section.anchor, h.score, h.snippet]));
  return out;
}

beforeAll(async () => {
  repo = makeRepo({
    "docs.json": JSON.stringify({ name: "Saves", navigation: { groups: [{ group: "Start", pages: ["index", "quickstart", "upload", "guides"] }] } }),
    "index.mdx": page("Home", "Welcome to the bucket docs."),
    "quickstart.mdx": page("Quickstart", "Create a bucket."),
    "upload.mdx": page("Upload", "Upload files to a bucket with the CLI."),
    "guides.mdx": page("Guides", "Short guides."),
    "snippets/alpha.mdx": "---\ngroups: [alpha]\n---\nThe alpha team rotates the quokka keys.\n",
    "snippets/beta.mdx": "---\ngroups: [beta]\n---\nThe beta team audits the wombat logs.\n",
  });
  runtime = await DocsRuntime.load({ root: repo.dir });
  await runtime.whenIndexed();
});
afterAll(async () => {
  await runtime.close();
  repo.cleanup();
});

describe("a saved page's analysis", () => {
  it("is made in a worker for a long page, and the search answers as a start on the saved folder does", async () => {
    const text = longPage(LIMITS.search.savedAnalysisFromChars + 10_000);
    writeFileSync(join(repo.dir, "quickstart.mdx"), page("Quickstart", `zebramarker\n\n${text}`));
    await runtime.applyChanges(["quickstart.mdx"]);
    // One core: no worker beside the thread answering callers, which analyses it as before.
    expect(runtime.savedAnalysedInWorkers).toBe(availableParallelism() >= 2 ? 1 : 0);
    const fresh = await DocsRuntime.load({ root: repo.dir });
    try {
      const after = await answers(runtime);
      expect(after).toEqual(await answers(fresh));
      expect((after[0] as unknown[][])[0]?.slice(0, 2)).toEqual(["/quickstart", "option-5"]);
    } finally {
      await fresh.close();
    }
  });

  it("is made in a worker for each reader's copy of a long page inlining restricted snippets, each reader answered as after a start", async () => {
    const before = runtime.savedAnalysedInWorkers;
    const text = longPage(LIMITS.search.savedAnalysisFromChars / 4);
    writeFileSync(join(repo.dir, "guides.mdx"), `---\ntitle: Guides\n---\nimport Alpha from '/snippets/alpha.mdx';\nimport Beta from '/snippets/beta.mdx';\n\n<Alpha />\n\n<Beta />\n\n${text}\n`);
    await runtime.applyChanges(["guides.mdx"]);
    // Four copies: with both snippets, with either, with neither (a reader of no group).
    expect(runtime.savedAnalysedInWorkers - before).toBe(availableParallelism() >= 2 ? 4 : 0);
    const fresh = await DocsRuntime.load({ root: repo.dir });
    try {
      for (const groups of [[], ["alpha"], ["beta"], ["alpha", "beta"]]) {
        const context = requestContext(readerWithGroups(groups), "partial");
        expect(await answers(runtime, context)).toEqual(await answers(fresh, context));
      }
      const quokka = async (groups: string[]) => (await runtime.search(requestContext(readerWithGroups(groups), "partial"), { query: "quokka" })).map((h) => h.page.path);
      expect([await quokka([]), await quokka(["alpha"]), await quokka(["beta"])]).toEqual([[], ["/guides"], []]);
    } finally {
      await fresh.close();
    }
  });

  it("is made on the answering thread for a short page (a worker's start would cost more than the analysis)", async () => {
    const before = runtime.savedAnalysedInWorkers;
    writeFileSync(join(repo.dir, "upload.mdx"), page("Upload", "Upload files to a bucket with the CLI or the console."));
    await runtime.applyChanges(["upload.mdx"]);
    expect(runtime.savedAnalysedInWorkers).toBe(before);
    expect((await runtime.search(localContext(), { query: "upload with the console" })).map((h) => h.page.path)).toEqual(["/upload"]);
  });
});
