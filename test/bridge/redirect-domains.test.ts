import { describe, expect, it } from "vitest";
import { checkRedirectUri, normalizeRedirectDomain } from "../../src/store/state/redirect-domains.js";

/** Spec "Authentication" 6, rule by rule. */

describe("entries the owner writes", () => {
  it.each([
    ["tool.example", "https://tool.example", undefined],
    ["https://Tool.Example/", "https://tool.example", undefined],
    ["tool.example:8443", "https://tool.example:8443", undefined],
    ["https://tool.example:443", "https://tool.example", undefined],
    ["https://app.tool.example/oauth/callback?x=1", "https://app.tool.example", "only the domain counts; stored as https://app.tool.example"],
    ["myapp://callback", "myapp://callback", undefined],
    ["cursor://anysphere.cursor-mcp/oauth/callback", "cursor://anysphere.cursor-mcp", "only the domain counts; stored as cursor://anysphere.cursor-mcp"],
    ["myapp://", "myapp://", undefined],
  ])("%s is stored as %s", (input, value, note) => {
    expect(normalizeRedirectDomain(input)).toEqual(note === undefined ? { ok: true, value } : { ok: true, value, note });
  });

  it.each([
    ["javascript:alert(1)", "javascript: URLs are always refused as redirect targets"],
    ["JavaScript://x", "javascript: URLs are always refused as redirect targets"],
    ["data:text/html,hi", "data: URLs are always refused as redirect targets"],
    ["file:///etc/passwd", "file: URLs are always refused as redirect targets"],
    ["myapp:/callback", 'write a custom scheme in full, as myapp://callback ("myapp:/callback")'],
    ["http://tool.example", "http:// is allowed only for loopback addresses (always trusted); use https://tool.example"],
    ["localhost", "localhost is a loopback address and always trusted; it needs no entry"],
    ["http://127.0.0.1:8080", "127.0.0.1 is a loopback address and always trusted; it needs no entry"],
    ["*.tool.example", 'wildcards are not supported ("*.tool.example"); add each domain'],
    ["https://user:pw@tool.example", 'a redirect domain must not contain a user name or password ("https://user:pw@tool.example")'],
    ["  ", "a redirect domain must not be empty"],
    ["https://", '"https://" is not a domain or URL'],
  ])("%s is refused", (input, error) => {
    expect(normalizeRedirectDomain(input)).toEqual({ ok: false, error });
  });
});

describe("redirect URIs tools present", () => {
  const entries = ["https://tool.example", "https://port.example:8443", "myapp://callback", "cursor://"];
  it.each([
    "http://localhost/callback",
    "http://localhost:33418/callback",
    "https://localhost:1/x",
    "http://127.0.0.1:8976/callback",
    "http://[::1]:9/cb",
    "https://tool.example/oauth/callback",
    "https://tool.example:444/any/path?q=1",
    "https://port.example:8443/cb",
    "myapp://callback/done",
    "cursor://anysphere.cursor-mcp/oauth/callback",
  ])("%s is allowed", (uri) => {
    expect(checkRedirectUri(uri, entries)).toMatchObject({ ok: true });
  });

  it.each([
    ["https://evil.example/cb", 'redirect URI "https://evil.example/cb": domain evil.example is not on this documentation\'s list of redirect domains'],
    ["https://sub.tool.example/cb", 'redirect URI "https://sub.tool.example/cb": domain sub.tool.example is not on this documentation\'s list of redirect domains'],
    ["https://port.example/cb", 'redirect URI "https://port.example/cb": domain port.example is not on this documentation\'s list of redirect domains'],
    ["http://tool.example/cb", 'redirect URI "http://tool.example/cb" uses http://, which is allowed only for loopback addresses'],
    ["myapp://other/cb", 'redirect URI "myapp://other/cb": callback myapp://other is not on this documentation\'s list of redirect domains'],
    ["otherapp://callback", 'redirect URI "otherapp://callback": callback otherapp://callback is not on this documentation\'s list of redirect domains'],
    ["javascript:alert(document.cookie)", "javascript: redirect URIs are always refused"],
    ["data:text/html;base64,PHNjcmlwdD4=", "data: redirect URIs are always refused"],
    ["file:///tmp/x", "file: redirect URIs are always refused"],
    ["https://tool.example/cb#frag", 'redirect URI "https://tool.example/cb#frag" must not contain a fragment'],
    ["https://u:p@tool.example/cb", 'redirect URI "https://u:p@tool.example/cb" must not contain a user name or password'],
    ["/relative/cb", 'redirect URI "/relative/cb" is not an absolute URL'],
  ])("%s is refused", (uri, error) => {
    expect(checkRedirectUri(uri, entries)).toEqual({ ok: false, error });
  });

  it("trusts only loopback when the list is empty (the default)", () => {
    expect(checkRedirectUri("http://localhost:5000/cb", []).ok).toBe(true);
    expect(checkRedirectUri("https://tool.example/cb", []).ok).toBe(false);
  });
});
