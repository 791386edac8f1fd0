import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A long question (eight terms or more, as agents write them) must find the short page written
 * about it before a long page holding each of its words somewhere, in sections about other things
 * (issue 24, thirty-ninth round): Hoppscotch's "run every request in a folder several times in a
 * row with a pause between them, from the app" found the CLI overview and the changelog before the
 * Runner page (4th; 3rd with this rule). The more words a question has, the more a long page's
 * whole-page sum gathers from sections that each hold one of them, while the answer holds them in
 * one place. A question of `longQueryTerms` (8) terms or more takes `longQueryPageShare` (0.4) of
 * the BM25F part from the whole page, the rest from its best section; a shorter one keeps 0.5.
 */
describe("a long question and a long page", () => {
  const page = (title: string, body: string): string => ["---", `title: ${title}`, "---", "", body].join("\n");
  const changelog = ["## Overview", "", "What changed in each release of the app."];
  const notes = [
    "The request editor keeps the body when a folder is moved. Every request keeps its folder.",
    "Several times faster start of the desktop app, several times less memory.",
    "A pause button for the websocket log; pause and resume the stream.",
    "The CLI can run a collection from a file, and run it in CI.",
    "Every request in a row of the history shows its status, row by row.",
    "The time between two retries is shown in the log, times in milliseconds.",
    "Folder names can hold emojis; a folder can be pinned.",
    "Requests several megabytes long no longer freeze the app.",
    "The app opens the last folder you used, with a row of tabs for every request.",
    "Pause and run again from the same row of the runner history.",
  ];
  notes.forEach((line, i) => changelog.push("", `## Release 2.${i}`, "", line, "", "Bug fixes and smaller changes to the interface."));
  const site = inlineSite({
    "/changelog.mdx": page("Changelog", changelog.join("\n")),
    "/features/runner.mdx": page(
      "Collection runner",
      "Open a folder in the app and choose Run to send every request in it in a row. Set the iterations, and a delay to pause between requests.",
    ),
    "/features/collections.mdx": page("Collections", "A collection groups requests into folders. Drag a request into a folder to move it."),
  });
  const ranked = (index: SearchIndex, query: string): (string | number)[][] =>
    index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.score]);
  const long = "run every request in a folder several times in a row with a pause between them, from the app";

  it("ranks the page written about it first", () => {
    const index = new SearchIndex();
    index.sync(site);
    expect(ranked(index, long)).toEqual([
      ["/features/runner", 0.281],
      ["/changelog", 0.271],
      ["/features/collections", 0.062],
    ]);
  });

  it("ranked the long page first when the whole page weighed as much as for a short question (the code before)", () => {
    const index = new SearchIndex({ ranking: { longQueryPageShare: 0.5 } });
    index.sync(site);
    expect(ranked(index, long)).toEqual([
      ["/changelog", 0.297],
      ["/features/runner", 0.292],
      ["/features/collections", 0.063],
    ]);
  });

  it("leaves a short question's order as it was", () => {
    const a = new SearchIndex();
    const b = new SearchIndex({ ranking: { longQueryPageShare: 0.5 } });
    a.sync(site);
    b.sync(site);
    expect(ranked(a, "run a folder several times")).toEqual(ranked(b, "run a folder several times"));
    expect(ranked(a, "run a folder several times")).toEqual([
      ["/changelog", 0.384],
      ["/features/runner", 0.135],
      ["/features/collections", 0.067],
    ]);
  });
});
