import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bridgeContext } from "../../src/bridge/middleware/request-context.js";
import { ReloadStreams } from "../../src/bridge/web/preview/live-reload.js";
import { LIMITS } from "../../src/limits.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { requestContext } from "../../src/vfs/request-context.js";
import { type Harness, startBridge } from "../bridge/harness.js";
import { previewRepo } from "./preview-site.js";

/**
 * The preview's live-reload stream (`/_svc/preview/events`) over the real bridge: it tells a
 * reader of a change only when that reader sees something different (an edit to a page they may
 * not read must not reach them, not even as an event's timing), and one caller holds a bounded
 * number of streams (a 429 naming the limit past it).
 */

let h: Harness;
let root: string;

beforeAll(async () => {
  root = previewRepo();
  h = await startBridge({ root, authMode: "partial", mcp: "enabled", apps: true, bridge: { trustProxy: true } });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
});
afterAll(async () => {
  await h?.close();
});

/** A signed-in session cookie for `sam` (staff). */
async function staffCookie(): Promise<string> {
  const form = new URLSearchParams({ return: "/", username: "sam", password: "sam-password-1" }).toString();
  const res = await fetch(`${h.origin}/_svc/login`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: h.origin }, body: form });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (res.status !== 303 || cookie === undefined) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

/** The events of a stream body until it ends. */
async function bodyText(res: Response): Promise<string[]> {
  return eventNames(await res.text());
}

function eventNames(text: string): string[] {
  return text
    .split("\n\n")
    .filter((e) => e !== "" && !e.startsWith(":"))
    .map((e) => /^event: (.*)$/m.exec(e)?.[1] ?? e);
}

/** An open stream over HTTP: `next` reads one more chunk and answers every event so far. */
async function openStream(headers: Record<string, string>): Promise<{ next: () => Promise<string[]>; close: () => Promise<void>; status: number }> {
  const abort = new AbortController();
  const res = await fetch(`${h.origin}/_svc/preview/events`, { headers, signal: abort.signal });
  const reader = res.body?.getReader();
  let text = "";
  const decoder = new TextDecoder();
  return {
    status: res.status,
    next: async () => {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) throw new Error("the stream ended");
      text += decoder.decode(chunk.value, { stream: true });
      return eventNames(text.slice(0, text.lastIndexOf("\n\n") + 2));
    },
    close: async () => {
      abort.abort();
      await reader?.cancel().catch(() => undefined);
    },
  };
}

/** Write a file and wait until the runtime serves it (and has told the streams). */
async function edit(rel: string, text: string): Promise<void> {
  writeFileSync(join(root, rel), text);
  await h.runtime.applyChanges([rel]);
}

/** Read a stream's events until `count` of them arrived (the stream stays open). */
async function readEvents(stream: { next: () => Promise<string[]> }, count: number): Promise<string[]> {
  let events: string[] = [];
  while (events.length < count) events = await stream.next();
  return events;
}

describe("live reload tells a reader only of changes they can see", () => {
  it("an edit to a staff page or snippet tells staff streams, never anonymous ones; a public edit tells both (the streams as the route opens them)", async () => {
    // The contexts the route builds for an anonymous reader and a signed-in staff member.
    const anonymousReader = requestContext(ANONYMOUS, "partial", Date.now, "address:198.51.100.1");
    const staffReader = requestContext({ authenticated: true, groups: new Set(["staff"]), allGroups: false }, "partial", Date.now, "address:198.51.100.2");
    const streams = new ReloadStreams(h.runtime);
    const read = (res: Response) => bodyText(res);
    const anonymous = read(streams.stream(anonymousReader, "address:198.51.100.1"));
    const staff = read(streams.stream(staffReader, "address:198.51.100.2"));
    await edit("team/handbook.mdx", "---\ntitle: Team handbook\ngroups: [staff]\n---\n\nHANDBOOK-8 The new rota.\n");
    await edit("snippets/secret.mdx", "---\ngroups: [staff]\n---\n\nSTAFF-SNIPPET-43 only staff read this.\n");
    await edit("more/deep.mdx", "---\ntitle: Deep dive\n---\n\nDeeper than before.\n");
    await streams.settled();
    // Ending every stream lets each be read to its end: exactly what it was sent, nothing timed.
    streams.close();
    expect({ anonymous: await anonymous, staff: await staff }).toEqual({ anonymous: ["ready", "change"], staff: ["ready", "change", "change", "change"] });
  });

  it("reads its reader again at each change: once the site requires sign-in, an anonymous stream is told of no edit to a page without rules", async () => {
    const streams = new ReloadStreams(h.runtime);
    const now = async () => bridgeContext(await h.state.settings(), ANONYMOUS, Date.now, "address:198.51.100.4");
    const anonymous = bodyText(streams.stream(await now(), "address:198.51.100.4", now));
    await h.state.setAuthMode("full");
    try {
      await edit("more/deep.mdx", "---\ntitle: Deep dive\n---\n\nDeeper still.\n");
      await streams.settled();
      streams.close();
      // The edit is to a page it may no longer read: nothing is told, not even through the switch.
      expect(await anonymous).toEqual(["ready"]);
    } finally {
      await h.state.setAuthMode("partial");
    }
  });

  it("over HTTP, a signed-in staff reader's stream is told of a staff page's edit", async () => {
    const cookie = await staffCookie();
    const staff = await openStream({ "x-forwarded-for": "198.51.100.3", cookie });
    expect(staff.status).toBe(200);
    expect(await readEvents(staff, 1)).toEqual(["ready"]);
    await edit("team/handbook.mdx", "---\ntitle: Team handbook\ngroups: [staff]\n---\n\nHANDBOOK-9 Rota again.\n");
    expect(await readEvents(staff, 2)).toEqual(["ready", "change"]);
    await staff.close();
  });
});

describe("live-reload streams are bounded per caller", () => {
  it(`one address holds at most ${LIMITS.preview.maxReloadStreamsPerCaller}; one more is a 429 naming the limit; another address still opens one; a closed stream gives its place back`, async () => {
    const max = LIMITS.preview.maxReloadStreamsPerCaller;
    const held = await Promise.all(Array.from({ length: max }, () => openStream({ "x-forwarded-for": "203.0.113.7" })));
    expect(held.map((s) => s.status)).toEqual(Array.from({ length: max }, () => 200));
    const refused = await fetch(`${h.origin}/_svc/preview/events`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect({ status: refused.status, type: refused.headers.get("content-type"), body: await refused.json() }).toEqual({
      status: 429,
      type: "application/json",
      body: {
        error: {
          code: "too_many_streams",
          message: `too many live-reload streams: at most ${max} open at once per client (an address, an IPv6 /64 or a token); close a preview tab before opening another`,
        },
      },
    });
    // An IPv6 /64 is one caller, as everywhere in the bridge: a second address in it is refused too.
    const v6 = await Promise.all(Array.from({ length: max }, (_, k) => openStream({ "x-forwarded-for": `2001:db8:1:2::${k + 1}` })));
    expect((await fetch(`${h.origin}/_svc/preview/events`, { headers: { "x-forwarded-for": "2001:db8:1:2::ffff" } })).status).toBe(429);
    const other = await openStream({ "x-forwarded-for": "203.0.113.8" });
    expect(other.status).toBe(200);
    // Closing one gives its place back (the server sees the stream end when the client goes).
    await (held.pop() as { close: () => Promise<void> }).close();
    let again = 429;
    while (again === 429) {
      const res = await fetch(`${h.origin}/_svc/preview/events`, { headers: { "x-forwarded-for": "203.0.113.7" } });
      again = res.status;
      await res.body?.cancel();
    }
    expect(again).toBe(200);
    await Promise.all([...held, ...v6, other].map((s) => s.close()));
  });
});
