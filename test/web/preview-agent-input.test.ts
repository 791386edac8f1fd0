import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge } from "../bridge/harness.js";

/**
 * The agent panel's call names its page in `page`: without one (or with `page[]=...`, another
 * key) it answered the home page's view with 200, where every other odd input of the preview's
 * calls is a 400 naming the argument (adversary round 66).
 */
let h: Harness;
beforeAll(async () => {
  h = await startBridge({ apps: true });
});
afterAll(async () => {
  await h?.close();
});

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${h.origin}${path}`);
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("the agent panel's call", () => {
  it("refuses a call without `page`, naming it, and answers one with it", async () => {
    const refused = { status: 400, body: { error: { code: "invalid_request", message: "page: required: the path of the page to show, e.g. ?page=/quickstart" } } };
    expect(await get("/_svc/preview/agent")).toEqual(refused);
    expect(await get("/_svc/preview/agent?page[]=/quickstart")).toEqual(refused);
    expect(await get("/_svc/preview/agent?pages=/quickstart")).toEqual(refused);
    expect((await get("/_svc/preview/agent?page=/quickstart")).status).toBe(200);
    expect(await get("/_svc/preview/agent?page=/no-such-page")).toEqual({ status: 404, body: { error: { code: "not_found", message: "no such page" } } });
  });
});
