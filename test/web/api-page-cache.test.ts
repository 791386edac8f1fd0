import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type Harness, startBridge, userTokens } from "../bridge/harness.js";
import { petsRepo, startTestApi } from "./site.js";

/**
 * API pages' articles are kept between requests (issue 25: each request rendered the page again,
 * its descriptions in the render workers), per site version, page and reader's view: a reader
 * never gets what was made for another (the playground's offer differs by reader; a page only
 * staff may read stays theirs). Over the real bridge as `serve --http` mounts it.
 */
let api: Awaited<ReturnType<typeof startTestApi>>;
let h: Harness;
beforeAll(async () => {
  api = await startTestApi();
  h = await startBridge({ root: petsRepo(api.origin), authMode: "partial", apps: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("sue", "sue-password-1", ["sales"]);
});
afterAll(async () => {
  await h?.close();
  await api?.close();
});

const KENNEL = "/api-reference/pets/kennel-staff-tools";
const VAULT = "/api-reference/pets/vault-vault-op-61";

/** The page's status and what its playground offers this reader (`form`, `sign-in`, or the notice's text). */
async function offer(path: string, token?: string): Promise<string> {
  const res = await fetch(`${h.origin}${path}`, { headers: { accept: "text/html", ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) } });
  const html = await res.text();
  if (res.status !== 200) return String(res.status);
  if (html.includes('data-testid="playground-send"')) return "form";
  if (html.includes('data-testid="playground-sign-in"')) return "sign-in";
  return /<section class="playground" id="try-it"><h2>Try it<\/h2><p class="notice">([^<]*)<\/p>/.exec(html)?.[1] ?? "none";
}

it("renders a page once per reader's view, and each reader gets their own view", async () => {
  const sam = (await userTokens(h, "sam", "sam-password-1")).access_token;
  const sue = (await userTokens(h, "sue", "sue-password-1")).access_token;
  const renders = vi.spyOn(h.runtime.renderPool, "renderMarkdown");
  const seen: [string, string, number][] = [];
  const ask = async (who: string, path: string, token?: string): Promise<void> => {
    seen.push([who, await offer(path, token), renders.mock.calls.length]);
  };
  await ask("sam", VAULT, sam);
  await ask("anonymous", VAULT);
  await ask("sam", KENNEL, sam);
  await ask("anonymous", KENNEL);
  await ask("sue", KENNEL, sue);
  await ask("anonymous", KENNEL);
  await ask("sam", KENNEL, sam);
  await ask("sue", KENNEL, sue);
  await ask("sam", VAULT, sam);
  await ask("anonymous", VAULT);
  expect(seen).toEqual([
    ["sam", "form", 1],
    // Staff's page is not anyone's because it is kept.
    ["anonymous", "404", 1],
    ["sam", "form", 2],
    ["anonymous", "sign-in", 3],
    ["sue", "The playground of this page is limited to the groups staff.", 4],
    // Again: nothing rendered, each reader's own view.
    ["anonymous", "sign-in", 4],
    ["sam", "form", 4],
    ["sue", "The playground of this page is limited to the groups staff.", 4],
    ["sam", "form", 4],
    ["anonymous", "404", 4],
  ]);
});
