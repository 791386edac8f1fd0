import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { CORPORA, REPO } from "../helpers/paths.js";
import { describeShared } from "../helpers/shared.js";

/**
 * The deployed multilingual and versioned sites of `../shared/corpora` (stagehand, cowagent,
 * alltick) load as they are: `check` finds no error (every warning in the recorded output was read
 * and is true), and `nav` prints the whole tree (compared with docs.json entry by entry when it
 * was recorded). Whole outputs, recorded in test/config/real-sites/.
 */
const NEW_SITES = ["stagehand", "cowagent", "alltick"] as const;
const recorded = (name: string): string => readFileSync(join(REPO, "test/config/real-sites", name), "utf8");

describeShared("check and nav on the deployed multilingual and versioned sites", () => {
  for (const corpus of NEW_SITES) {
    it(`${corpus}: check reports warnings only`, async () => {
      expect(await runCli(["check", "--dir", join(CORPORA, corpus)])).toEqual({ code: 0, stdout: recorded(`${corpus}.check.txt`), stderr: "" });
    });
    it(`${corpus}: nav prints the whole tree`, async () => {
      expect(await runCli(["nav", "--dir", join(CORPORA, corpus)])).toEqual({ code: 0, stdout: recorded(`${corpus}.nav.txt`), stderr: "" });
    });
  }

  it("stagehand: a dropdown holding pages and groups shows both, in the order written; the SDK overview listed twice is one page placed at its first listing", async () => {
    const run = await runCli(["nav", "--json", "--version", "v3", "--dir", join(CORPORA, "stagehand")]);
    const tree = JSON.parse(run.stdout) as { items: { items: { kind: string; title: string; items: { kind: string; title: string; page?: string }[] }[] }[]; pages: { page: string; breadcrumbs: string[]; path: string }[] };
    const python = tree.items[0]?.items[1];
    expect(python?.items.map((i) => [i.kind, i.title, i.page ?? null])).toEqual([
      ["page", "Python SDK", "/v3/sdk/python"],
      ["group", "SDK Reference", null],
      ["group", "API Reference", null],
    ]);
    expect(tree.pages.find((p) => p.page === "/v3/sdk/python")).toMatchObject({ breadcrumbs: ["Python"], path: "navigation.versions[1].dropdowns[1].pages[0]" });
  });

  it("cowagent and alltick: a language filter takes any code of the language, in any case", async () => {
    const header = async (corpus: string, language: string) => (await runCli(["nav", "--language", language, "--dir", join(CORPORA, corpus)])).stdout.split("\n").slice(5, 8);
    expect(await header("alltick", "cn")).toEqual(["showing: language zh", "", "language zh"]);
    expect(await header("alltick", "JP")).toEqual(["showing: language ja", "", "language ja"]);
    expect(await header("cowagent", "zh-Hans")).toEqual(["showing: language zh", "", "language zh"]);
    expect(await runCli(["nav", "--language", "ko", "--dir", join(CORPORA, "cowagent")])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --language ko: no such language (the site has en, zh (also cn, zh-Hans, zh-CN), ja (also jp, ja-JP))\n",
    });
  });

  it("cowagent: search's language takes cn for zh and jp for ja, and refuses an unknown one naming the accepted forms", async () => {
    const paths = async (language: string) =>
      (JSON.parse((await runCli(["search", "memory", "--json", "--language", language, "--dir", join(CORPORA, "cowagent")])).stdout) as { path: string }[]).map((h) => h.path.split("/")[1]);
    for (const code of ["cn", "ZH", "zh-Hans", "zh-CN"]) expect(new Set(await paths(code))).toEqual(new Set(["zh"]));
    for (const code of ["jp", "ja", "ja-JP", "JA"]) expect(new Set(await paths(code))).toEqual(new Set(["ja"]));
    expect(await runCli(["search", "memory", "--language", "xx", "--dir", join(CORPORA, "cowagent")])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --language: not a language of this site; use one of en, zh (also cn, zh-Hans, zh-CN), ja (also jp, ja-JP) (got "xx")\n',
    });
  });

  it("alltick: the specs its pages name in front matter are mounted, and a page shows its operation after the prose", async () => {
    const fs = async (command: string) => (await runCli(["fs", command, "--dir", join(CORPORA, "alltick")])).stdout;
    expect(await fs("ls /api-reference")).toBe("forex\nopenapi-ja.json\nopenapi-zh.json\nopenapi.json\nstock\n");
    expect(await fs("grep -n -e '^openapi:' -e '^---$' -e '^`GET' -e '^## ' /ja/api-reference/forex/kline.mdx")).toBe(
      [
        "1:---",
        "5:openapi: '/api-reference/openapi-ja.json GET /quote-b-api/kline'",
        "6:---",
        "10:---",
        "12:`GET /quote-b-api/kline`",
        "19:## Query parameters",
        "24:## Responses",
        "45:## Examples",
        "97:## Source",
        "",
      ].join("\n"),
    );
  });
});

