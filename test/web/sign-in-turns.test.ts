import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PasswordTurnEvent, PasswordTurns, SIGN_INS_IN_PROGRESS } from "../../src/bridge/auth/password-turns.js";
import { LIMITS } from "../../src/limits.js";
import type { UserInfo } from "../../src/store/state/state-store.js";
import { type Harness, startBridge } from "../bridge/harness.js";

/**
 * Adversary round 66 F1: eight addresses each posting four sign-ins at a time with new user
 * names (every one within the per-account and per-address limits) kept ~28 password checks
 * (scrypt) queued on Node's four I/O threads, which also read files: a thread starting meanwhile
 * read its code behind them, and another reader's `jq` took 14-52 s for as long as the flood
 * lasted. Now the sign-in forms' checks run one at a time, callers in turn (`PasswordTurns`).
 *
 * Real HTTP from several loopback addresses; every password check is held until the test lets
 * it go (the real store checks it then), so the order is the queue's alone.
 */

const FLOOD = ["127.0.0.81", "127.0.0.82", "127.0.0.83", "127.0.0.84"];
const READER = "127.0.0.89";
const CROWD = "127.0.0.86";

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly cookie: string | undefined;
}

/** The site's sign-in form posted from `from` (its own connection). */
function signIn(port: number, from: string, username: string, password: string): Promise<Answer> {
  const body = new URLSearchParams({ return: "/", username, password }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/_svc/login", method: "POST", localAddress: from, agent: false, headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), cookie: res.headers["set-cookie"]?.[0]?.split(";")[0]?.split("=")[0] }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the sign-in forms' password checks under a flood of sign-ins", () => {
  const events: PasswordTurnEvent[] = [];
  /** Checks the store was asked for and that wait for the test, oldest first. */
  const held: { readonly name: string; readonly go: () => void }[] = [];
  /** Every check in the order it reached the store, and the most held at once. */
  const reached: string[] = [];
  let most = 0;
  const waiters: { readonly ready: () => boolean; readonly resolve: () => void }[] = [];
  const changed = (): void => {
    for (const w of [...waiters]) {
      if (!w.ready()) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  /** Resolves once `ready` holds, re-asked on every turn event and every check reaching the store. */
  const until = (ready: () => boolean): Promise<void> => (ready() ? Promise.resolve() : new Promise((resolve) => waiters.push({ ready, resolve })));
  const count = (t: PasswordTurnEvent["t"]): number => events.filter((e) => e.t === t).length;
  let h: Harness;
  let port: number;

  beforeAll(async () => {
    const passwordTurns = new PasswordTurns({
      onEvent: (event) => {
        events.push(event);
        changed();
      },
    });
    h = await startBridge({ authMode: "partial", apps: true, bridge: { passwordTurns } });
    port = Number(new URL(h.origin).port);
    await h.state.addUser("reader", "reader-password-1", []);
    const real = h.state.verifyUser.bind(h.state);
    // The same store, each check held until the test lets it go.
    h.state.verifyUser = async (name: string, password: string): Promise<UserInfo | undefined> => {
      await new Promise<void>((go) => {
        held.push({ name, go });
        reached.push(name);
        most = Math.max(most, held.length);
        changed();
      });
      return real(name, password);
    };
  });
  afterAll(async () => {
    for (const check of held.splice(0)) check.go();
    await h?.close();
  });

  /** Let the oldest held check go (its answer follows). */
  const releaseOldest = (): void => {
    const check = held.shift();
    check?.go();
  };

  it("checks one password at a time, and a reader's sign-in waits for one check of each caller ahead of it, not for the flood's queue", async () => {
    expect([LIMITS.oauth.passwordChecksAtOnce, LIMITS.oauth.passwordChecksPerCaller]).toEqual([1, 64]);
    const flood = FLOOD.flatMap((from, i) => [0, 1, 2].map((k) => signIn(port, from, `nobody-${i}-${k}`, "guess")));
    await until(() => count("queued") === 12 && held.length === 1);
    const reader = signIn(port, READER, "reader", "reader-password-1");
    await until(() => count("queued") === 13);
    // Let the checks go one at a time, the one held first first: the reader's comes after one
    // check of each flooding address that was waiting before it, not after their twelve.
    for (let left = 13; left > 0; left--) {
      await until(() => held.length === 1);
      releaseOldest();
    }
    const signedIn = await reader;
    expect([signedIn.status, signedIn.cookie]).toEqual([303, "svc_session"]);
    const answers = await Promise.all(flood);
    expect(answers.map((a) => [a.status, a.body.includes("Wrong user name or password.")])).toEqual(answers.map(() => [401, true]));
    const [a, b, c, d] = FLOOD;
    expect(events.filter((e) => e.t === "start").map((e) => (e.caller === READER ? "reader" : e.caller))).toEqual([a, b, c, d, "reader", a, b, c, d, a, b, c, d]);
    // The store checked them in that order (each flooding address's names are nobody-<its index>-k).
    expect(reached.map((name) => (name === "reader" ? "reader" : FLOOD[Number(name.split("-")[1])]))).toEqual([a, b, c, d, "reader", a, b, c, d, a, b, c, d]);
    expect([most, count("refused")]).toEqual([1, 0]);
  });

  it("answers a caller's sign-in past the most it may have waiting 429, naming the bound, without checking it", async () => {
    const before = reached.length;
    const crowd = Array.from({ length: 65 }, (_, k) => signIn(port, CROWD, `crowd-${k}`, "guess"));
    await until(() => count("refused") === 1 && held.length === 1);
    // The one refused is answered while the others wait.
    const refusedAnswer = await Promise.race(crowd);
    expect(refusedAnswer.status).toBe(429);
    expect(refusedAnswer.body).toContain(SIGN_INS_IN_PROGRESS);
    expect(SIGN_INS_IN_PROGRESS).toBe("Too many sign-ins from your address are being checked at once (at most 64). Try again in a moment.");
    for (let left = 64; left > 0; left--) {
      await until(() => held.length === 1);
      releaseOldest();
    }
    const answers = await Promise.all(crowd);
    expect([answers.filter((a) => a.status === 401).length, answers.filter((a) => a.status === 429).length]).toEqual([64, 1]);
    expect(reached.length - before).toBe(64);
  });
});
