import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge } from "../bridge/harness.js";
import { petsRepo } from "./site.js";

/**
 * A site session signs in one account, not a name (adversary, 2026-11-29, fifth round): a
 * session kept only the user name, so after `users remove alice` and `users add alice` (the way
 * a password is reset, or a new person given the name) the old cookie read staff pages again.
 * It now stays ended: the session remembers when its account was created.
 */

const VAULT = "/api-reference/pets/vault-vault-op-61";

let h: Harness;
beforeAll(async () => {
  h = await startBridge({ root: petsRepo("http://127.0.0.1:9"), authMode: "partial", apps: true });
});
afterAll(async () => {
  await h?.close();
});

async function signIn(user: string, password: string): Promise<string> {
  const res = await fetch(`${h.origin}/_svc/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ return: "/", username: user, password }).toString(),
  });
  const cookie = res.headers.get("set-cookie") ?? "";
  expect(res.status).toBe(303);
  return cookie.split(";")[0] as string;
}

async function vault(cookie: string): Promise<{ status: number; signedIn: string | undefined }> {
  const res = await fetch(`${h.origin}${VAULT}`, { headers: { accept: "text/html", cookie } });
  const html = await res.text();
  return { status: res.status, signedIn: /data-testid="signed-in-as">([^<]*)</.exec(html)?.[1] };
}

describe("a site session after its account is removed", () => {
  it("stays ended when an account of the same name is added again; the new account's own sign-in works", async () => {
    await h.state.addUser("alice", "first-password-1", ["staff"]);
    const old = await signIn("alice", "first-password-1");
    expect(await vault(old)).toEqual({ status: 200, signedIn: "alice" });

    expect(await h.state.removeUser("alice")).toBe(true);
    expect(await vault(old)).toEqual({ status: 404, signedIn: undefined });

    await h.state.addUser("alice", "second-password-2", ["staff"]);
    expect(await vault(old)).toEqual({ status: 404, signedIn: undefined });

    const fresh = await signIn("alice", "second-password-2");
    expect(await vault(fresh)).toEqual({ status: 200, signedIn: "alice" });
  });
});
