import { describe, expect, it } from "vitest";
import { TitleWords } from "../../../src/engine/search/title-words.js";

/**
 * Endpoint titles as word numbers (issue 23): whether a question asks for each word of a title,
 * and whether it cannot name the title at all (`rejects`), are the answers the titles' strings
 * give, for words numbered before the question and during it.
 */
describe("TitleWords", () => {
  const titles: Record<number, string[]> = { 0: ["cancel", "crawl"], 1: ["get", "batch", "scrape", "error"], 2: ["order"], 3: [] };
  const words = (id: number) => () => titles[id] as string[];
  const asked = (t: TitleWords, id: number): boolean[] => Array.from(t.of(id, words(id)), (w) => t.isAsked(w));

  it("answers as the strings do, for words numbered before a question and during it", () => {
    const t = new TitleWords(new Set(["get", "list"]), new Set(["cancel"]));
    t.ask(new Set(["cancel", "crawl", "job"]));
    // Numbered during the question: marked against its words.
    expect(asked(t, 0)).toEqual([true, true]);
    expect(asked(t, 1)).toEqual([false, false, false, false]);
    const [cancel, crawl] = t.of(0, words(0));
    const [get] = t.of(1, words(1));
    expect([t.isActionVerb(cancel as number), t.isReadVerb(cancel as number), t.isReadVerb(get as number), t.isActionVerb(crawl as number)]).toEqual([true, false, true, false]);
    // The next question: the words numbered before are marked anew.
    t.ask(new Set(["batch", "scrape", "error"]));
    expect(asked(t, 0)).toEqual([false, false]);
    expect(asked(t, 1)).toEqual([false, true, true, true]);
  });

  it("rejects a title only when a word past its first (or its one word) is not asked, and any title of no words", () => {
    const t = new TitleWords(new Set(["get"]), new Set(["cancel"]));
    t.ask(new Set(["crawl"]));
    // Not known before its words were read.
    expect([0, 1, 2, 3].map((id) => t.rejects(id))).toEqual([false, false, false, false]);
    for (const id of [0, 1, 2, 3]) t.of(id, words(id));
    // "cancel crawl": its first word may be a verb the question need not name.
    expect([0, 1, 2, 3].map((id) => t.rejects(id))).toEqual([false, true, true, true]);
    t.ask(new Set(["order"]));
    expect([0, 1, 2, 3].map((id) => t.rejects(id))).toEqual([true, true, false, true]);
    // Asked for every word past its first, a title is never rejected (words sharing a bit only
    // leave more titles to be decided on their words).
    t.ask(new Set(["batch", "scrape", "error", "order"]));
    expect([1, 2].map((id) => t.rejects(id))).toEqual([false, false]);
    t.clear();
    expect([0, 1, 2, 3].map((id) => t.rejects(id))).toEqual([false, false, false, false]);
  });
});
