import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A question in another language on a site written only in English shares no word with its
 * answer (issue 24, sixty-third round: "chamadas de entrada" for the page titled Inbound calling,
 * "écran d'accueil" for the home screen). Common docs words of Portuguese, Spanish, French, German
 * and Italian stand in for their English words (`translations.ts`), only where the reader's pages
 * never write the word itself. Whole ranked lists with scores.
 */
function ranked(files: Record<string, string>, query: string): [string, string, number][] {
  const index = new SearchIndex();
  index.sync(inlineSite(files));
  return index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.score]);
}

const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines].join("\n");

const english = {
  "/telephony/inbound.mdx": page("Inbound calling", "Route incoming calls from your phone number to a voice agent."),
  "/telephony/outbound.mdx": page("Outbound calling", "Place calls from an agent to a list of phone numbers."),
  "/home.mdx": page("Home screen", "The home screen shows your agents, recent calls and usage at a glance."),
  "/start.mdx": page("Getting started", "Create an account and your first agent."),
};

describe("translations", () => {
  // Before: no word of the question is on the site, so nothing was found.
  it("a Portuguese question finds the English page on inbound calls", () => {
    expect(ranked(english, "como configurar chamadas de entrada")).toEqual([
      ["/telephony/inbound", "", 0.356],
      ["/telephony/outbound", "", 0.107],
      ["/home", "", 0.041],
    ]);
  });

  // Before: nothing found.
  it("a French question finds the home screen", () => {
    expect(ranked(english, "où est l'écran d'accueil")).toEqual([["/home", "", 0.167]]);
  });

  // A site that writes the question's words answers in them: the Portuguese page first, and the
  // English pages are not lifted by the table (the same list as without it).
  it("a word the site writes is not translated", () => {
    const site = {
      ...english,
      "/pt/telephony/inbound.mdx": page("Chamadas de entrada", "Encaminhe as chamadas recebidas do seu número para um agente de voz."),
    };
    expect(ranked(site, "como configurar chamadas de entrada")).toEqual([["/pt/telephony/inbound", "", 0.476]]);
  });
});
