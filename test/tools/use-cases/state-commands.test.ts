import { expect, it } from "vitest";
import { createAdminKey, listAdminKeys, revokeAdminKey } from "../../../src/engine/use-cases/admin-keys.js";
import { createCredential, deleteCredential, listCredentials } from "../../../src/engine/use-cases/client-credentials.js";
import { addRedirectDomain, listRedirectDomains, removeRedirectDomain } from "../../../src/engine/use-cases/redirect-domains.js";
import { siteSettings } from "../../../src/engine/use-cases/site-settings.js";
import type { StateContext } from "../../../src/engine/use-cases/state-context.js";
import { addAccount, listAccounts, removeAccount } from "../../../src/engine/use-cases/user-accounts.js";
import { ANONYMOUS } from "../../../src/vfs/access.js";
import { requestContext } from "../../../src/vfs/request-context.js";
import { type Backend, describeBackends } from "./state-backends.js";

/** The state commands' use cases driven directly over real stores: no CLI, no HTTP. */
const NOW = Date.parse("2024-05-01T09:30:00.000Z");
const ISO = "2024-05-01T09:30:00.000Z";

describeBackends("state use cases", () => NOW, (backend: () => Backend, engine) => {
  const context = (): StateContext => ({ request: requestContext(ANONYMOUS, "public", () => NOW), stores: backend().stores });

  it("accounts: add with a chosen or generated password, refuse a taken name, list, remove", async () => {
    expect(await addAccount(context(), { name: "Ana", groups: ["staff", "beta", "staff"], password: async () => "correct horse" })).toEqual({
      ok: true,
      value: { user: { name: "ana", groups: ["beta", "staff"], createdAt: NOW } },
    });
    const generated = await addAccount(context(), { name: "bob", groups: [] });
    expect(generated).toEqual({ ok: true, value: { user: { name: "bob", groups: [], createdAt: NOW }, generatedPassword: expect.stringMatching(/^[0-9A-Za-z]{20}$/) } });
    const state = await backend().stores.state();
    expect(await state.verifyUser("ana", "correct horse")).toEqual({ name: "ana", groups: ["beta", "staff"], createdAt: NOW });
    if (generated.ok) expect(await state.verifyUser("bob", generated.value.generatedPassword!)).toEqual({ name: "bob", groups: [], createdAt: NOW });
    expect(await addAccount(context(), { name: "ANA", groups: [] })).toEqual({ ok: false, refusal: { kind: "name_taken", message: 'user "ana" already exists' } });
    expect(await listAccounts(context())).toEqual({
      ok: true,
      value: [
        { name: "ana", groups: ["beta", "staff"], createdAt: NOW },
        { name: "bob", groups: [], createdAt: NOW },
      ],
    });
    expect(await removeAccount(context(), "Bob")).toEqual({ ok: true, value: "bob" });
    expect(await removeAccount(context(), "bob")).toEqual({ ok: false, refusal: { kind: "not_found", message: 'no user "bob"' } });
  });

  it("accounts: a bad name or short password is an issue, checked before the password is read or a store opened", async () => {
    let asked = false;
    const password = async () => ((asked = true), "short");
    expect(await addAccount(context(), { name: "x y", groups: [], password })).toEqual({
      ok: false,
      issues: [{ argument: "name", message: 'must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit; got "x y"' }],
    });
    expect(asked).toBe(false);
    expect(await addAccount(context(), { name: "eve", groups: [], password })).toEqual({ ok: false, issues: [{ argument: "password", message: "must be at least 8 characters" }] });
    expect(await removeAccount(context(), "a/b")).toEqual({
      ok: false,
      issues: [{ argument: "name", message: 'must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit; got "a/b"' }],
    });
    if (engine === "sqlite") expect(backend().created("access.db")).toBe(false);
  });

  it("client credentials: create with a label (secret once), list without secrets, delete once", async () => {
    const created = await createCredential(context(), "  CI bot ");
    if (!created.ok) throw new Error(JSON.stringify(created));
    const { info, clientSecret } = created.value;
    expect(info).toEqual({ clientId: expect.stringMatching(/^mcpc_[0-9A-Za-z]{20}$/), label: "CI bot", createdAt: NOW });
    expect(clientSecret).toMatch(/^mcps_[0-9A-Za-z]{40}$/);
    expect(await listCredentials(context())).toEqual({ ok: true, value: [info] });
    expect(await deleteCredential(context(), info.clientId)).toEqual({ ok: true, value: info });
    expect(await deleteCredential(context(), info.clientId)).toEqual({ ok: false, refusal: { kind: "not_found", message: `no client credential "${info.clientId}"` } });
    const issue = { ok: false, issues: [{ argument: "label", message: "one line of 1 to 100 characters saying what the credential is for" }] };
    expect(await createCredential(context(), undefined)).toEqual(issue);
    expect(await createCredential(context(), "a\nb")).toEqual(issue);
    expect(await createCredential(context(), "x".repeat(101))).toEqual(issue);
  });

  it("admin keys: create dated by the context's clock, list, revoke by id or key, twice, or not at all", async () => {
    const created = await createAdminKey(context(), " export ");
    if (!created.ok) throw new Error(JSON.stringify(created));
    const { key, info } = created.value;
    expect(info).toEqual({ id: expect.stringMatching(/^[a-z2-7]{12}$/), label: "export", createdAt: ISO, lastUsedAt: null, revokedAt: null });
    expect(key).toBe(`svc_${info.id}${key.slice(16)}`);
    expect(await listAdminKeys(context())).toEqual({ ok: true, value: [info] });
    const revoked = { ...info, revokedAt: ISO };
    expect(await revokeAdminKey(context(), key)).toEqual({ ok: true, value: { info: revoked, alreadyRevoked: false } });
    expect(await revokeAdminKey(context(), info.id)).toEqual({ ok: true, value: { info: revoked, alreadyRevoked: true } });
    expect(await revokeAdminKey(context(), "nope")).toEqual({ ok: false, refusal: { kind: "not_found", message: 'no API key "nope"; see `svc-mcp keys list`' } });
    expect(await createAdminKey(context(), "x".repeat(101))).toEqual({ ok: false, issues: [{ argument: "label", message: "must be one line of at most 100 characters" }] });
  });

  it("site settings: read, toggle MCP, set the auth mode; an unknown mode changes nothing", async () => {
    expect(await siteSettings(context())).toEqual({ ok: true, value: { authMode: "public", mcp: undefined } });
    expect(await siteSettings(context(), { mcp: "disabled" })).toEqual({ ok: true, value: { authMode: "public", mcp: "disabled" } });
    expect(await siteSettings(context(), { authMode: "partial" })).toEqual({ ok: true, value: { authMode: "partial", mcp: "disabled" } });
    expect(await siteSettings(context(), { authMode: "secret" })).toEqual({ ok: false, issues: [{ argument: "mode", message: 'must be public, partial or full; got "secret"' }] });
    expect(await siteSettings(context(), { mcp: "enabled" })).toEqual({ ok: true, value: { authMode: "partial", mcp: "enabled" } });
  });

  it("redirect domains: add in stored form (saying what was dropped), add twice, list, remove, refuse the unlisted and the unsafe", async () => {
    expect(await addRedirectDomain(context(), "Tool.Example/callback?x=1")).toEqual({
      ok: true,
      value: { entry: "https://tool.example", changed: true, note: "only the domain counts; stored as https://tool.example" },
    });
    expect(await addRedirectDomain(context(), "https://tool.example")).toEqual({ ok: true, value: { entry: "https://tool.example", changed: false } });
    expect(await addRedirectDomain(context(), "myapp://callback")).toEqual({ ok: true, value: { entry: "myapp://callback", changed: true } });
    expect(await listRedirectDomains(context())).toEqual({ ok: true, value: ["https://tool.example", "myapp://callback"] });
    expect(await removeRedirectDomain(context(), "tool.example")).toEqual({ ok: true, value: { entry: "https://tool.example", changed: true } });
    expect(await removeRedirectDomain(context(), "tool.example")).toEqual({ ok: false, refusal: { kind: "not_listed", message: "https://tool.example is not on the list" } });
    expect(await addRedirectDomain(context(), "javascript:alert(1)")).toEqual({
      ok: false,
      issues: [{ argument: "entry", message: "javascript: URLs are always refused as redirect targets" }],
    });
    expect(await listRedirectDomains(context())).toEqual({ ok: true, value: ["myapp://callback"] });
  });
});
