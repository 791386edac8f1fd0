import { describe, expect, it } from "vitest";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { type Access, ANONYMOUS, canRead, readerWithGroups } from "../../../src/vfs/access.js";
import { searchText } from "../../../src/engine/use-cases/search-docs.js";
import { toolNames } from "../../../src/engine/tool-names.js";
import { inlineSite } from "./inline-site.js";

/**
 * The same page in several languages, as multilingual sites write it (crewAI: en, pt-BR, ko,
 * ar at parallel paths): without a `language` filter it is one hit, in the language whose copy
 * matches best (the question's), the default language on a near tie, the other languages
 * listed on it; with the filter nothing folds across languages. A copy the reader may not read
 * is neither listed nor counted.
 */

const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
const staff = (a: Access) => canRead(a, readerWithGroups(["staff"]), "public");
const page = (title: string, body: string, groups = "") => `---\ntitle: ${title}\n${groups !== "" ? `groups: [${groups}]\n` : ""}---\n${body}\n`;
const shown = (hits: readonly SearchHit[]) =>
  hits.map((h) => [h.page.path, h.score, h.otherLanguages.map((t) => [t.page.path, t.score]), h.moreLanguages, h.otherVersions.map((t) => t.page.path)]);

const files = {
  "/en/memory.mdx": page("Memory", "## Storage\n\nAgents remember past runs. Set CREWAI_STORAGE_DIR to choose where the memory is stored."),
  "/ko/memory.mdx": page("메모리", "## 저장소\n\n에이전트는 이전 실행을 기억합니다. 에이전트 메모리 설정: CREWAI_STORAGE_DIR 로 메모리 저장 위치를 정합니다."),
  "/pt-BR/memory.mdx": page("Memória", "## Armazenamento\n\nOs agentes lembram execuções anteriores. Defina CREWAI_STORAGE_DIR para escolher onde a memória fica.", "staff"),
  "/en/tools.mdx": page("Tools", "## Custom tools\n\nWrite a tool as a Python class. Tools may read CREWAI_STORAGE_DIR too."),
  "/ko/tools.mdx": page("도구", "## 커스텀 도구\n\n도구를 Python 클래스로 작성합니다."),
  "/pt-BR/tools.mdx": page("Ferramentas", "## Ferramentas personalizadas\n\nEscreva uma ferramenta como uma classe Python."),
  // Not translated: the same text in every language.
  "/en/env.mdx": page("Environment", "OPENAI_API_KEY=sk-test"),
  "/ko/env.mdx": page("Environment", "OPENAI_API_KEY=sk-test"),
  "/pt-BR/env.mdx": page("Environment", "OPENAI_API_KEY=sk-test"),
};
const docs = {
  navigation: {
    languages: [
      { language: "en", groups: [{ group: "Docs", pages: ["en/memory", "en/tools", "en/env"] }] },
      { language: "ko", default: true, groups: [{ group: "Docs", pages: ["ko/memory", "ko/tools", "ko/env"] }] },
      { language: "pt-BR", groups: [{ group: "Docs", pages: ["pt-BR/memory", "pt-BR/tools", "pt-BR/env"] }] },
    ],
  },
};

function search(query: string, reader: (a: Access) => boolean, language?: string) {
  const index = new SearchIndex();
  index.sync(inlineSite(files, docs));
  return shown(index.search({ query, canRead: reader, ...(language !== undefined ? { language } : {}) }));
}

describe("the same page in several languages", () => {
  it("is one hit, in the language of the copy that matches best, the others listed (unmatched ones at 0)", () => {
    expect(search("CREWAI_STORAGE_DIR", staff)).toEqual([
      [
        "/en/memory",
        0.454,
        [
          ["/pt-BR/memory", 0.394],
          ["/ko/memory", 0.231],
        ],
        0,
        [],
      ],
      [
        "/en/tools",
        0.416,
        [
          ["/ko/tools", 0],
          ["/pt-BR/tools", 0],
        ],
        0,
        [],
      ],
    ]);
  });

  it("copies that match alike are shown in the default language (ko, `default: true`), not the first path", () => {
    expect(search("OPENAI_API_KEY", staff)).toEqual([
      [
        "/ko/env",
        0.47,
        [
          ["/en/env", 0.47],
          ["/pt-BR/env", 0.47],
        ],
        0,
        [],
      ],
    ]);
  });

  it("a Korean question gets the Korean copy, the others listed", () => {
    expect(search("에이전트 메모리 설정", staff)).toEqual([
      [
        "/ko/memory",
        0.501,
        [
          ["/en/memory", 0],
          ["/pt-BR/memory", 0],
        ],
        0,
        [],
      ],
    ]);
    expect(search("CrewAI 에이전트 메모리 CREWAI_STORAGE_DIR", staff)[0]).toEqual([
      "/ko/memory",
      0.377,
      [
        ["/en/memory", 0.109],
        ["/pt-BR/memory", 0.095],
      ],
      0,
      [],
    ]);
  });

  it("with a language filter, nothing folds across languages", () => {
    expect(search("CREWAI_STORAGE_DIR", staff, "ko")).toEqual([["/ko/memory", 0.231, [], 0, []]]);
    expect(search("Python", staff, "pt-BR")).toEqual([["/pt-BR/tools", 0.496, [], 0, []]]);
  });

  it("a copy the reader may not read is neither listed nor counted", () => {
    expect(search("CREWAI_STORAGE_DIR", anonymous)).toEqual([
      ["/en/memory", 0.454, [["/ko/memory", 0.232]], 0, []],
      [
        "/en/tools",
        0.417,
        [
          ["/ko/tools", 0],
          ["/pt-BR/tools", 0],
        ],
        0,
        [],
      ],
    ]);
    expect(search("에이전트 메모리 설정", anonymous)).toEqual([["/ko/memory", 0.501, [["/en/memory", 0]], 0, []]]);
  });
});

describe("the search tool's text", () => {
  it("lists the other languages under the result", () => {
    const result = {
      title: "메모리",
      section: "",
      path: "/ko/memory",
      file: "/ko/memory.mdx",
      url: "https://docs.example.com/ko/memory",
      snippet: "에이전트는 이전 실행을 기억합니다.",
      score: 0.52,
      languages: ["ko"],
      otherLanguages: [{ languages: ["en"], path: "/en/memory", url: "https://docs.example.com/en/memory", score: 0 }],
      moreLanguages: 2,
    };
    expect(searchText([result], "에이전트 메모리 설정", toolNames("docs"))).toBe(
      [
        "1. 메모리",
        "   https://docs.example.com/ko/memory",
        "   file: /ko/memory.mdx · score 0.52 · language ko",
        "   in en: https://docs.example.com/en/memory",
        "   in 2 more languages (search with language to get one)",
        "   에이전트는 이전 실행을 기억합니다.",
      ].join("\n"),
    );
  });
});

describe("the languages listed on a hit after edits", () => {
  // Adversary 2026-12-04: a language's version folder removed and put back while serving listed
  // its copy last among the copies that match none of the query's words; a fresh start lists
  // them in path order. The order must not depend on the order pages were added.
  const LANGS = ["en", "ar", "ko", "pt-BR"];
  const VERSIONS = ["v2", "v1"];
  const all: Record<string, string> = {};
  for (const l of LANGS) for (const v of VERSIONS) all[`/${l}/${v}/guide.mdx`] = page("Guide", l === "en" ? "Rotate the zebrakey every month." : `Texto ${l} ${v} sobre chaves.`);
  const versioned = {
    navigation: {
      languages: LANGS.map((language, li) => ({
        language,
        ...(li === 0 ? { default: true } : {}),
        versions: VERSIONS.map((version, vi) => ({ version, ...(vi === 0 ? { default: true } : {}), groups: [{ group: "Docs", pages: [`${language}/${version}/guide`] }] })),
      })),
    },
  };
  const languagesOf = (index: SearchIndex) => index.search({ query: "zebrakey", canRead: () => true }).map((h) => [h.page.path, h.otherLanguages.map((t) => t.page.path)]);

  it("lists the copies that match nothing in path order, whichever was added last", () => {
    const fresh = new SearchIndex();
    fresh.sync(inlineSite(all, versioned));
    // As `serve` runs it: a reader prepared at start, searched, then the folder's page removed
    // and put back, searched after each.
    const edited = new SearchIndex();
    edited.sync(inlineSite(all, versioned));
    edited.prepareReader(() => true);
    languagesOf(edited);
    const { "/ar/v2/guide.mdx": _ar, ...withoutAr } = all;
    edited.sync(inlineSite(withoutAr, versioned));
    languagesOf(edited);
    edited.sync(inlineSite(all, versioned));
    expect(languagesOf(fresh)).toEqual([["/en/v2/guide", ["/ar/v2/guide", "/ko/v2/guide", "/pt-BR/v2/guide"]]]);
    expect(languagesOf(edited)).toEqual(languagesOf(fresh));
  });
});

describe("a reader's search state made before its first search (`prepareReader`)", () => {
  // Made for one reader at start-up (`serve`), it must be exactly what that reader's first search
  // would make, and nothing another reader's searches then use: results as on an index never prepared.
  it("changes no reader's results, whichever reader it was made for", () => {
    const queries = ["CREWAI_STORAGE_DIR", "에이전트 메모리 설정", "memória agentes", "Python tool class", "OPENAI_API_KEY"];
    const readers = [anonymous, staff];
    const fresh = (query: string, reader: (a: Access) => boolean) => search(query, reader);
    for (const preparedFor of readers) {
      const index = new SearchIndex();
      index.sync(inlineSite(files, docs));
      index.prepareReader(preparedFor);
      for (const reader of readers) for (const query of queries) expect([query, shown(index.search({ query, canRead: reader }))]).toEqual([query, fresh(query, reader)]);
    }
  });
});
