import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, TestClock, accessRepo, startBridge, userTokens } from "./harness.js";

/**
 * list_changed over real HTTP with the official SDK v2 client, in both generations: a 2025
 * session's GET stream and a 2026-07-28 `subscriptions/listen` stream are told a list changed
 * only when the list their own reader sees changed, and a stream whose token was revoked or
 * expired is closed and told nothing. Changes are applied with `applyChanges` (no watcher), so
 * each is one reload; a last change every reader sees marks the end of what each stream heard
 * (a stream's notifications arrive in order).
 */

type Era = "2025-11-25" | "2026-07-28";
const ERAS: readonly Era[] = ["2025-11-25", "2026-07-28"];
const RESOURCES = "notifications/resources/list_changed";
const TOOLS = "notifications/tools/list_changed";
const PASSWORD = "pass-word-1234";

let h: Harness;
let repo: ReturnType<typeof accessRepo>;
const clock = new TestClock();

beforeAll(async () => {
  repo = accessRepo();
  h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled", clock });
  await h.state.addUser("sam", PASSWORD, ["staff"]);
  await h.state.addUser("pat", PASSWORD, []);
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

/** Write a file of the site and reload it (one reload, one announcement). */
let edits = 0;
async function edit(path: string, text: string): Promise<void> {
  mkdirSync(dirname(join(repo.dir, path)), { recursive: true });
  writeFileSync(join(repo.dir, path), text);
  await h.runtime.applyChanges([path]);
}

/** A skill every reader sees (a new one per call): each reader's resource list changes. */
function publicSkillChange(): Promise<void> {
  const n = ++edits;
  return edit(`skills/marker-${n}/SKILL.md`, `---\nname: marker-${n}\ndescription: A skill for everyone (${n})\n---\n\n# Marker ${n}\n`);
}

/** The `staff`-only skill, edited: only `staff` readers' resource lists change. */
function restrictedSkillChange(): Promise<void> {
  const n = ++edits;
  return edit("internal/skills/oncall/SKILL.md", `---\nname: oncall\ndescription: On-call procedures, revision ${n}\ngroups: [staff]\n---\n\n# On-call skill\n\nRevision ${n}.\n`);
}

/** A client with its notification stream open, recording the list_changed notifications it hears. */
interface Listener {
  readonly client: Client;
  readonly heard: string[];
  /** Resolves once `n` notifications were heard. */
  readonly heardCount: (n: number) => Promise<void>;
  /** Resolves once a `method` notification was heard. */
  readonly heardOf: (method: string) => Promise<void>;
  /** Resolves when the server ended the stream (2026-07-28: the subscription closed; 2025: the client's reconnection was refused). */
  readonly ended: Promise<unknown>;
  readonly close: () => Promise<void>;
}

async function listen(era: Era, url: string, token?: string): Promise<Listener> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "list-changed-test", version: "1.0.0" }, era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  const heard: string[] = [];
  const waiting: { done: () => boolean; resolve: () => void }[] = [];
  const hear = (method: string) => () => {
    heard.push(method);
    for (const w of waiting.filter((x) => x.done())) w.resolve();
  };
  const until = (done: () => boolean): Promise<void> => (done() ? Promise.resolve() : new Promise((resolve) => waiting.push({ done, resolve })));
  client.setNotificationHandler(RESOURCES, hear(RESOURCES));
  client.setNotificationHandler(TOOLS, hear(TOOLS));
  let refused: (error: unknown) => void = () => {};
  const reconnectRefused = new Promise((resolve) => (refused = resolve));
  await client.connect(transport);
  let ended: Promise<unknown>;
  let subscription: { close: () => Promise<void>; closed: Promise<unknown> } | undefined;
  if (era === "2026-07-28") {
    subscription = await client.listen({ resourcesListChanged: true, toolsListChanged: true });
    ended = subscription.closed;
  } else {
    // After its GET stream ends, the 2025 client opens it again at once; a revoked token is refused.
    client.onerror = (error) => refused(error);
    await waitForGetStream(transport.sessionId as string);
    ended = reconnectRefused;
  }
  return {
    client,
    heard,
    heardCount: (n) => until(() => heard.length >= n),
    heardOf: (method) => until(() => heard.includes(method)),
    ended,
    close: async () => {
      await subscription?.close();
      await client.close();
    },
  };
}

/** The 2025 client opens its GET stream after `initialize` without waiting: wait until the session counts it. */
async function waitForGetStream(sessionId: string): Promise<void> {
  while ((h.bridge.endpoint.sessions.get(sessionId)?.openStreams ?? 0) === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe.each(ERAS)("list_changed in %s", (era) => {
  it("tells a reader only of the lists it sees changed", async () => {
    const sam = await userTokens(h, "sam", PASSWORD);
    const pat = await userTokens(h, "pat", PASSWORD);
    const anonymous = await listen(era, h.urls.mcp);
    const staff = await listen(era, h.urls.authedMcp, sam.access_token);
    const other = await listen(era, h.urls.authedMcp, pat.access_token);
    // A page edit changes no tool text and no skill: nobody is told anything.
    await edit("quickstart.mdx", `---\ntitle: "Quickstart"\n---\n\nEdited for ${era}.\n`);
    // The staff-only skill: staff readers only.
    await restrictedSkillChange();
    // A new skill for everyone: every reader, and the last thing each hears.
    await publicSkillChange();
    await Promise.all([anonymous.heardCount(1), staff.heardCount(2), other.heardCount(1)]);
    expect({ anonymous: anonymous.heard, staff: staff.heard, other: other.heard }).toEqual({
      anonymous: [RESOURCES],
      staff: [RESOURCES, RESOURCES],
      other: [RESOURCES],
    });
    await Promise.all([anonymous.close(), staff.close(), other.close()]);
  });

  it("tells each reader of every change of its lists when a save lands while the last is being told", async () => {
    // Every reader sees a skill of the site's own (not the generated one), whatever ran before.
    await publicSkillChange();
    const sam = await userTokens(h, "sam", PASSWORD);
    const pat = await userTokens(h, "pat", PASSWORD);
    // The staff reader's stream opened last: told last of each change, after every other stream's token check.
    const anonymous = await listen(era, h.urls.mcp);
    const other = await listen(era, h.urls.authedMcp, pat.access_token);
    const staff = await listen(era, h.urls.authedMcp, sam.access_token);
    // Each save lands as the one before is published, while its streams are still being told
    // (each waits on its token's check): a staff-only skill added, the same removed, then a new
    // site name, which changes every reader's tools and is the last thing each hears.
    const drill = "internal/skills/drill/SKILL.md";
    const saves = [
      () => {
        rmSync(join(repo.dir, drill));
        return h.runtime.applyChanges([drill]);
      },
      () => {
        const docs = JSON.parse(readFileSync(join(repo.dir, "docs.json"), "utf8")) as { name: string };
        writeFileSync(join(repo.dir, "docs.json"), JSON.stringify({ ...docs, name: `Nimbus Storage (${era})` }));
        return h.runtime.applyChanges(["docs.json"]);
      },
    ];
    const landed: Promise<void>[] = [];
    const stop = h.runtime.onChange(() => {
      const save = saves.shift();
      if (save !== undefined) landed.push(save());
    });
    mkdirSync(dirname(join(repo.dir, drill)), { recursive: true });
    writeFileSync(join(repo.dir, drill), "---\nname: drill\ndescription: Fire drill steps\ngroups: [staff]\n---\n\n# Drill\n");
    landed.push(h.runtime.applyChanges([drill]));
    await Promise.all([anonymous.heardOf(TOOLS), staff.heardOf(TOOLS), other.heardOf(TOOLS)]);
    stop();
    await Promise.all(landed);
    expect({ saves: saves.length, anonymous: anonymous.heard, staff: staff.heard, other: other.heard }).toEqual({
      saves: 0,
      anonymous: [RESOURCES, TOOLS],
      staff: [RESOURCES, RESOURCES, RESOURCES, TOOLS],
      other: [RESOURCES, TOOLS],
    });
    await Promise.all([anonymous.close(), staff.close(), other.close()]);
  });

  it("closes the stream of a revoked token and tells it nothing", async () => {
    const sam = await userTokens(h, "sam", PASSWORD);
    const revoked = await listen(era, h.urls.authedMcp, sam.access_token);
    const anonymous = await listen(era, h.urls.mcp);
    expect(await h.state.revokeToken(sam.access_token, sam.clientId)).toBe("revoked");
    await publicSkillChange();
    await anonymous.heardCount(1);
    await revoked.ended;
    expect({ anonymous: anonymous.heard, revoked: revoked.heard }).toEqual({ anonymous: [RESOURCES], revoked: [] });
    expect(h.bridge.endpoint.streams.size).toBe(1);
    await Promise.all([anonymous.close(), revoked.close()]);
  });

  it("closes the stream of an expired token between changes", async () => {
    const sam = await userTokens(h, "sam", PASSWORD);
    const expiring = await listen(era, h.urls.authedMcp, sam.access_token);
    const anonymous = await listen(era, h.urls.mcp);
    clock.advance((sam.expires_in + 1) * 1000);
    // What the sweeper runs every minute: no site change needed.
    await h.bridge.endpoint.streams.recheck();
    await expiring.ended;
    expect(h.bridge.endpoint.streams.size).toBe(1);
    await publicSkillChange();
    await anonymous.heardCount(1);
    expect({ anonymous: anonymous.heard, expiring: expiring.heard }).toEqual({ anonymous: [RESOURCES], expiring: [] });
    await Promise.all([anonymous.close(), expiring.close()]);
  });
});
