import { beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { connect } from "../../helpers/mcp.js";
import { makeRepo } from "../../helpers/repo.js";

/**
 * A question in Chinese, Japanese or Korean on a site written only in English shares no word with
 * its answer: the tokenizer makes its own terms of 如何安装自定义节点 (如何, 安装, 自, 定义, 节点),
 * and none is on the site, so nothing was found. The translation table's Chinese, Japanese and
 * Korean words (`translations.ts`, `CJK_ROWS`) stand in for their English words there, found
 * inside the question's runs (自定义 is cut as 自 + 定义); a site that writes the question's
 * words answers in them as before. Through the MCP server, whole ranked lists of paths.
 */
const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines, ""].join("\n");

const ENGLISH = {
  "docs.json": JSON.stringify({ name: "Nodes", navigation: { pages: ["index", "install/custom-nodes", "install/update", "keys", "environment", "limits"] } }),
  "index.mdx": page("Introduction", "Nodes runs your workflows on a server of your own."),
  "install/custom-nodes.mdx": page("Install custom nodes", "Install a custom node from the registry, or copy its folder into the nodes folder."),
  "install/update.mdx": page("Update", "Update the server to the latest release with the update command."),
  "keys.mdx": page("API keys", "Create an API key in the dashboard and send it in the Authorization header."),
  "environment.mdx": page("Environment variables", "Configure the server with environment variables such as PORT and DATA_DIR."),
  "limits.mdx": page("Rate limits", "Each API key may send 60 requests a minute; more are answered with 429."),
};

/** The same site with its pages in Chinese beside the English ones. */
const WITH_CHINESE = {
  ...ENGLISH,
  "docs.json": JSON.stringify({
    name: "Nodes",
    navigation: {
      languages: [
        { language: "en", pages: ["index", "install/custom-nodes", "install/update", "keys", "environment", "limits"] },
        { language: "zh", pages: ["zh/index", "zh/install/custom-nodes", "zh/keys"] },
      ],
    },
  }),
  "zh/index.mdx": page("简介", "Nodes 在你自己的服务器上运行工作流。"),
  "zh/install/custom-nodes.mdx": page("安装自定义节点", "从注册表安装自定义节点，或者把它的文件夹复制到 nodes 文件夹。"),
  "zh/keys.mdx": page("API 密钥", "在控制面板中创建 API 密钥，并在 Authorization 头中发送。"),
};

async function paths(files: Record<string, string>, questions: readonly string[]): Promise<string[][]> {
  const repo = makeRepo(files);
  const runtime = await DocsRuntime.load({ root: repo.dir });
  const c = await connect(runtime);
  try {
    const out: string[][] = [];
    for (const query of questions) {
      const r = await c.call("search_nodes", { query });
      out.push((r.structuredContent as { results: { path: string }[] }).results.map((h) => h.path));
    }
    return out;
  } finally {
    await c.close();
    await runtime.close();
    repo.cleanup();
  }
}

describe("Chinese, Japanese and Korean questions on an English site", () => {
  let english: string[][];
  beforeAll(async () => {
    english = await paths(ENGLISH, ["如何安装自定义节点", "環境変数を設定する", "요청 제한은 얼마인가요", "how to install custom nodes"]);
  });

  // Before: nothing found for each of the three.
  it("a Chinese question finds the page on installing custom nodes", () => {
    expect(english[0]).toEqual(["/install/custom-nodes", "/index", "/install/update"]);
  });

  it("a Japanese question finds the page on environment variables", () => {
    expect(english[1]).toEqual(["/environment"]);
  });

  it("a Korean question, its particles attached, finds the page on rate limits", () => {
    expect(english[2]).toEqual(["/limits"]);
  });

  it("an English question is answered as before", () => {
    expect(english[3]).toEqual(["/install/custom-nodes", "/index", "/install/update"]);
  });
});

describe("a site with pages in Chinese", () => {
  let lists: string[][];
  beforeAll(async () => {
    lists = await paths(WITH_CHINESE, ["如何安装自定义节点", "API 密钥在哪里创建"]);
  });

  // The same lists as before the table had Chinese words: the site writes them (密钥 as its
  // segmenter cuts it, 密 + 钥). /limits is found by "API", as before.
  it("answers in its own words, the English pages not lifted", () => {
    expect(lists).toEqual([["/zh/install/custom-nodes"], ["/zh/keys", "/zh/index", "/limits"]]);
  });
});
