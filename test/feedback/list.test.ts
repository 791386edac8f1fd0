import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURSOR_MALFORMED, CURSOR_OTHER_QUERY } from "../../src/store/feedback/cursor.js";
import type { FeedbackEntry, FeedbackStatus, NewFeedback } from "../../src/store/feedback/model.js";
import { type FeedbackServer, entry, ms, startFeedbackServer } from "./harness.js";

let srv: FeedbackServer;
let other: FeedbackServer;
/** Stored entries by name (`e1`..`e8`); each entry's comment is its name. */
const E: Record<string, FeedbackEntry> = {};

const SEED: [name: string, at: string, details: Partial<NewFeedback>, status: FeedbackStatus][] = [
  ["e1", "2024-04-30T23:59:59.999Z", { source: "agent" }, "pending"],
  ["e2", "2024-05-01T00:00:00.000Z", { source: "thumbs_only", helpful: true } as Partial<NewFeedback>, "pending"],
  ["e3", "2024-05-01T12:00:00.000Z", { source: "contextual", helpful: false } as Partial<NewFeedback>, "in_progress"],
  ["e4", "2024-05-01T23:59:59.999Z", { source: "code_snippet", code: "ls -la", filename: null, lang: "bash" } as Partial<NewFeedback>, "resolved"],
  ["e5", "2024-05-02T00:00:00.000Z", { source: "agent" }, "dismissed"],
  // Same millisecond as e5, stored after it: newer (ties break by insertion order).
  ["e6", "2024-05-02T00:00:00.000Z", { source: "contextual", helpful: true, contact: "ana@example.com" } as Partial<NewFeedback>, "pending"],
  ["e7", "2024-05-02T08:00:00.000Z", { source: "thumbs_only", helpful: false } as Partial<NewFeedback>, "resolved"],
  ["e8", "2024-05-03T10:00:00.000Z", { source: "code_snippet", code: "x", filename: "a.py", lang: "python" } as Partial<NewFeedback>, "pending"],
];

beforeAll(async () => {
  srv = await startFeedbackServer({ projects: ["docs", "other", "big", "empty"] });
  other = await startFeedbackServer({ projects: ["docs"] });
  for (const [name, at, details, status] of SEED) {
    const created = await srv.store.insert(entry({ ...details, comment: name, createdAt: ms(at) }));
    E[name] = (await srv.store.setStatus("docs", created.id, status, ms(at))).entry;
  }
  // Another project's entries in the same store never show up in "docs".
  await srv.store.insert(entry({ projectId: "other", comment: "o1", createdAt: ms("2024-05-01T12:00:00Z") }));
  await srv.store.insertMany(Array.from({ length: 120 }, (_, i) => entry({ projectId: "big", comment: `b${i}`, createdAt: ms("2024-06-01T00:00:00Z") + i * 1000 })));
});
afterAll(async () => {
  await srv.close();
  await other.close();
});

async function get(query: string, project = "docs") {
  const res = await srv.api(`/v1/analytics/${project}/feedback${query === "" ? "" : `?${query}`}`);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** The names (comments) of a successful page. */
async function names(query: string): Promise<string[]> {
  const { status, body } = await get(query);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.feedback as FeedbackEntry[]).map((e) => e.comment);
}

describe("GET /v1/analytics/{projectId}/feedback: entries and order", () => {
  it("returns every entry of the project newest first, each with exactly its source's fields", async () => {
    const { status, body, headers } = await get("");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({ feedback: ["e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1"].map((n) => E[n]), nextCursor: null, hasMore: false });
    expect(body.feedback).toEqual([
      { id: E.e8!.id, path: "/page", comment: "e8", createdAt: "2024-05-03T10:00:00.000Z", source: "code_snippet", status: "pending", code: "x", filename: "a.py", lang: "python" },
      { id: E.e7!.id, path: "/page", comment: "e7", createdAt: "2024-05-02T08:00:00.000Z", source: "thumbs_only", status: "resolved" },
      { id: E.e6!.id, path: "/page", comment: "e6", createdAt: "2024-05-02T00:00:00.000Z", source: "contextual", status: "pending", helpful: true, contact: "ana@example.com" },
      { id: E.e5!.id, path: "/page", comment: "e5", createdAt: "2024-05-02T00:00:00.000Z", source: "agent", status: "dismissed" },
      { id: E.e4!.id, path: "/page", comment: "e4", createdAt: "2024-05-01T23:59:59.999Z", source: "code_snippet", status: "resolved", code: "ls -la", filename: null, lang: "bash" },
      { id: E.e3!.id, path: "/page", comment: "e3", createdAt: "2024-05-01T12:00:00.000Z", source: "contextual", status: "in_progress", helpful: false },
      { id: E.e2!.id, path: "/page", comment: "e2", createdAt: "2024-05-01T00:00:00.000Z", source: "thumbs_only", status: "pending" },
      { id: E.e1!.id, path: "/page", comment: "e1", createdAt: "2024-04-30T23:59:59.999Z", source: "agent", status: "pending" },
    ]);
  });

  it("a project with no entries is an empty page", async () => {
    expect((await get("", "empty")).body).toEqual({ feedback: [], nextCursor: null, hasMore: false });
  });
});

describe("filters alone", () => {
  it.each([
    ["dateFrom=2024-05-01", ["e8", "e7", "e6", "e5", "e4", "e3", "e2"]],
    ["dateFrom=2024-05-02T00:00:00Z", ["e8", "e7", "e6", "e5"]],
    ["dateTo=2024-05-02", ["e4", "e3", "e2", "e1"]],
    ["source=contextual", ["e6", "e3"]],
    ["source=code_snippet", ["e8", "e4"]],
    ["source=thumbs_only", ["e7", "e2"]],
    ["source=agent", ["e5", "e1"]],
    ["status=pending", ["e8", "e6", "e2", "e1"]],
    ["status=in_progress", ["e3"]],
    ["status=resolved,dismissed", ["e7", "e5", "e4"]],
    ["status=%20dismissed%20,%20resolved,", ["e7", "e5", "e4"]],
    ["status=pending,in_progress,resolved,dismissed", ["e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1"]],
    // An empty value means "not given" (forms send `source=` for "any").
    ["source=&status=&limit=&dateFrom=", ["e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1"]],
  ])("%s", async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });
});

describe("filters combined", () => {
  it.each([
    ["dateFrom=2024-05-01&dateTo=2024-05-02", ["e4", "e3", "e2"]],
    ["source=thumbs_only&status=resolved", ["e7"]],
    ["source=code_snippet&dateFrom=2024-05-02", ["e8"]],
    ["source=agent&status=pending,dismissed&dateTo=2024-05-02", ["e1"]],
    ["status=pending,resolved&dateFrom=2024-05-01&dateTo=2024-05-03", ["e7", "e6", "e4", "e2"]],
    ["dateFrom=2024-05-01&dateTo=2024-05-03&source=contextual&status=pending,in_progress", ["e6", "e3"]],
    ["source=contextual&status=dismissed", []],
  ])("%s", async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });
});

describe("dateTo is exclusive, at midnight and in every time zone form", () => {
  it.each([
    // Midnight UTC as a date, a zoned time, a zone-less time (UTC) and other offsets.
    ["dateTo=2024-05-02", ["e4", "e3", "e2", "e1"]],
    ["dateTo=2024-05-02T00:00:00Z", ["e4", "e3", "e2", "e1"]],
    ["dateTo=2024-05-02T00:00:00", ["e4", "e3", "e2", "e1"]],
    ["dateTo=2024-05-02T00:00", ["e4", "e3", "e2", "e1"]],
    ["dateTo=2024-05-02T02:00:00%2B02:00", ["e4", "e3", "e2", "e1"]],
    ["dateTo=2024-05-01T19:00:00-05:00", ["e4", "e3", "e2", "e1"]],
    ["dateTo=2024-05-02T05:30:00%2B0530", ["e4", "e3", "e2", "e1"]],
    // An unencoded `+` arrives as a space; it still means +02:00.
    ["dateTo=2024-05-02T02:00:00+02:00", ["e4", "e3", "e2", "e1"]],
    // One millisecond either side of an entry.
    ["dateTo=2024-05-01T23:59:59.999Z", ["e3", "e2", "e1"]],
    ["dateTo=2024-05-01T19:59:59.999-04:00", ["e3", "e2", "e1"]],
    ["dateTo=2024-05-02T00:00:00.001Z", ["e6", "e5", "e4", "e3", "e2", "e1"]],
    // Finer than a millisecond: anything after .000 includes the entries at .000.
    ["dateTo=2024-05-02T00:00:00.0000001Z", ["e6", "e5", "e4", "e3", "e2", "e1"]],
    ["dateFrom=2024-05-01T23:59:59.9991Z", ["e8", "e7", "e6", "e5"]],
    // dateFrom is inclusive: the entry at exactly midnight is in.
    ["dateFrom=2024-05-01&dateTo=2024-05-01T00:00:00.001Z", ["e2"]],
    ["dateFrom=2024-04-30&dateTo=2024-05-01", ["e1"]],
  ])("%s", async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });
});

describe("limit", () => {
  it("1 gives one entry and a cursor", async () => {
    const { body } = await get("limit=1");
    expect(body).toEqual({ feedback: [E.e8], nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]{55}$/), hasMore: true });
  });

  it("100 gives at most 100; the default is 50", async () => {
    const hundred = (await get("limit=100", "big")).body;
    expect(hundred.feedback).toHaveLength(100);
    expect(hundred.hasMore).toBe(true);
    expect(hundred.feedback[0].comment).toBe("b119");
    expect(hundred.feedback[99].comment).toBe("b20");
    const rest = (await get(`limit=100&cursor=${hundred.nextCursor}`, "big")).body;
    expect(rest.feedback.map((e: FeedbackEntry) => e.comment)).toEqual(Array.from({ length: 20 }, (_, i) => `b${19 - i}`));
    expect([rest.hasMore, rest.nextCursor]).toEqual([false, null]);
    const byDefault = (await get("", "big")).body;
    expect(byDefault.feedback).toHaveLength(50);
    expect(byDefault.hasMore).toBe(true);
    // A page that ends exactly at the last entry has no more.
    expect((await get("limit=8")).body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it.each(["0", "101", "abc", "1.5", "-1", "+5", "1e2", " 5", "999999999999"])("%j is a 400 naming limit", async (value) => {
    expect(await get(`limit=${encodeURIComponent(value)}`)).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "invalid_parameter",
          param: "limit",
          message: `limit must be an integer from 1 to 100; got ${JSON.stringify(value)}`,
          details: [{ code: "invalid_parameter", param: "limit", message: `limit must be an integer from 1 to 100; got ${JSON.stringify(value)}` }],
        },
      },
    });
  });
});

describe("pagination", () => {
  it("walks every entry once, across a tie at the page boundary, with filters", async () => {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const { body }: { body: { feedback: FeedbackEntry[]; nextCursor: string | null; hasMore: boolean } } = await get(`limit=3${cursor === null ? "" : `&cursor=${cursor}`}`);
      pages.push(body.feedback.map((e) => e.comment));
      expect(body.nextCursor === null).toBe(!body.hasMore);
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(pages).toEqual([["e8", "e7", "e6"], ["e5", "e4", "e3"], ["e2", "e1"]]);

    const first = (await get("status=pending,resolved&limit=2")).body;
    expect(first.feedback.map((e: FeedbackEntry) => e.comment)).toEqual(["e8", "e7"]);
    const second = (await get(`status=resolved,pending&limit=5&cursor=${first.nextCursor}`)).body;
    // Same filter written differently, and a different limit: the cursor still applies.
    expect(second).toEqual({ feedback: [E.e6, E.e4, E.e2, E.e1], nextCursor: null, hasMore: false });
  });

  it("a malformed, altered, foreign or other-query cursor is a 400 naming cursor", async () => {
    const cursor = (await get("limit=1&source=contextual")).body.nextCursor as string;
    const allCursor = (await get("limit=2")).body.nextCursor as string;
    const flipped = cursor.slice(0, 20) + (cursor[20] === "A" ? "B" : "A") + cursor.slice(21);
    const foreign = (await (await other.api("/v1/analytics/docs/feedback?limit=1")).json()).nextCursor;
    await other.store.insert(entry({ createdAt: 1 }));
    await other.store.insert(entry({ createdAt: 2 }));
    const foreignCursor = (await (await other.api("/v1/analytics/docs/feedback?limit=1")).json()).nextCursor as string;
    expect(foreign).toBeNull();
    const malformed = { status: 400, body: { error: { code: "invalid_cursor", param: "cursor", message: CURSOR_MALFORMED } } };
    const otherQuery = { status: 400, body: { error: { code: "invalid_cursor", param: "cursor", message: CURSOR_OTHER_QUERY } } };
    for (const bad of ["abc", "null", flipped, `${cursor}A`, cursor.slice(0, -1), foreignCursor, "%00".repeat(10), "x".repeat(300)]) {
      expect([bad, await get(`source=contextual&cursor=${bad}`)]).toMatchObject([bad, malformed]);
    }
    expect(await get(`cursor=${cursor}`)).toMatchObject(otherQuery);
    expect(await get(`source=agent&cursor=${cursor}`)).toMatchObject(otherQuery);
    expect(await get(`source=contextual&dateFrom=2024-01-01&cursor=${cursor}`)).toMatchObject(otherQuery);
    expect(await get(`cursor=${allCursor}`, "other")).toMatchObject(otherQuery);
  });
});

describe("invalid parameters: a 400 naming each one", () => {
  it.each([
    ["dateFrom=yesterday", "dateFrom", 'dateFrom "yesterday": not an ISO 8601 date-time (2024-05-01T09:30:00Z) or date (2024-05-01)'],
    ["dateFrom=2024-02-30", "dateFrom", 'dateFrom "2024-02-30": 2024-02 has no day 30'],
    ["dateTo=2023-02-29", "dateTo", 'dateTo "2023-02-29": 2023-02 has no day 29'],
    ["dateTo=2024-13-01", "dateTo", 'dateTo "2024-13-01": month 13 does not exist'],
    ["dateTo=2024-05-01T24:00:00Z", "dateTo", 'dateTo "2024-05-01T24:00:00Z": hour 24 is out of range (00-23)'],
    ["dateTo=2024-05-01T10:00:00%2B25:00", "dateTo", 'dateTo "2024-05-01T10:00:00+25:00": time zone offset +25:00 is out of range'],
    ["dateTo=20240501", "dateTo", 'dateTo "20240501": not an ISO 8601 date-time (2024-05-01T09:30:00Z) or date (2024-05-01)'],
    ["dateTo=1714550400000", "dateTo", 'dateTo "1714550400000": not an ISO 8601 date-time (2024-05-01T09:30:00Z) or date (2024-05-01)'],
    ["source=widget", "source", 'source "widget" is not one of code_snippet, contextual, agent, thumbs_only'],
    ["source=Agent", "source", 'source "Agent" is not one of code_snippet, contextual, agent, thumbs_only'],
    ["status=open,pending,closed", "status", 'status "open", "closed" are not one of pending, in_progress, resolved, dismissed (comma-separated)'],
    ["source=agent&source=contextual", "source", "source is given 2 times; give it once"],
    [
      "status=pending&status=resolved",
      "status",
      "status is given 2 times; list several statuses in one comma-separated value (status=pending,in_progress)",
    ],
    ["pageSize=10", "pageSize", 'unknown query parameter "pageSize"; known: dateFrom, dateTo, source, status, limit, cursor'],
    [
      "dateFrom=2024-05-02&dateTo=2024-05-02",
      "dateTo",
      "dateTo must be later than dateFrom: dateTo is exclusive, so dateFrom=2024-05-01&dateTo=2024-05-02 selects 1 May (got dateFrom=2024-05-02, dateTo=2024-05-02)",
    ],
  ])("%s", async (query, param, message) => {
    const code = param === "pageSize" ? "unknown_parameter" : "invalid_parameter";
    expect(await get(query)).toMatchObject({ status: 400, body: { error: { code, param, message, details: [{ code, param, message }] } } });
  });

  it("several at once", async () => {
    const { status, body } = await get("limit=0&source=x&status=open&foo=1");
    expect(status).toBe(400);
    expect(body.error.message).toBe(
      '4 invalid parameters: unknown query parameter "foo"; known: dateFrom, dateTo, source, status, limit, cursor; ' +
        'source "x" is not one of code_snippet, contextual, agent, thumbs_only; ' +
        'status "open" is not one of pending, in_progress, resolved, dismissed (comma-separated); ' +
        'limit must be an integer from 1 to 100; got "0"',
    );
    expect(body.error.details.map((d: { param: string }) => d.param)).toEqual(["foo", "source", "status", "limit"]);
    expect(body.error.param).toBe("foo");
  });
});
