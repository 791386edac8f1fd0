import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compileIgnoreRules } from "../../src/config/ignore-rules.js";
import { isFileInsideRoot, listInsideRoot, OUTSIDE_MESSAGE, readInsideRoot, statInsideRoot } from "../../src/config/inside-root.js";
import { tempRepo } from "./temp-repo.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder outside every repository, holding what no read may return. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-outside-"));
  made.push(dir);
  writeFileSync(join(dir, "secret.json"), '{"secret": "OUTSIDE"}\n');
  mkdirSync(join(dir, "folder"));
  writeFileSync(join(dir, "folder", "spec.json"), '{"secret": "OUTSIDE"}\n');
  return dir;
}

const T = new Date("2024-05-01T12:00:00Z");
const NONE = { ignore: null };
const OUTSIDE = { ok: false, reason: "outside", message: OUTSIDE_MESSAGE };

describe("readInsideRoot", () => {
  it("reads a file of the repository, with its size, time and real path", () => {
    const root = tempRepo({ "api/spec.json": '{"a": 1}\n' });
    utimesSync(join(root, "api/spec.json"), T, T);
    expect(readInsideRoot(root, "api/spec.json", NONE)).toEqual({ ok: true, text: '{"a": 1}\n', size: 9, mtimeMs: T.getTime(), ino: statSync(join(root, "api/spec.json")).ino, ctimeMs: statSync(join(root, "api/spec.json")).ctimeMs, real: "api/spec.json" });
  });

  it("refuses a link outside the root, whatever its shape: absolute, relative with ../.., a chain, a folder link on the way", () => {
    const out = outside();
    const root = tempRepo({ "index.mdx": "# Home\n", "sub/deeper/keep.txt": "" });
    symlinkSync(join(out, "secret.json"), join(root, "absolute.json"));
    // Relative, from two folders down: as many ../ as it takes to reach /, then down again.
    symlinkSync(`../../${"../".repeat(20)}${out.slice(1)}/secret.json`, join(root, "sub/deeper/relative.json"));
    symlinkSync("absolute.json", join(root, "chain-1.json"));
    symlinkSync("chain-1.json", join(root, "chain-2.json"));
    symlinkSync(join(out, "folder"), join(root, "api"));
    symlinkSync("..", join(root, "sub/up"));
    const results = ["absolute.json", "sub/deeper/relative.json", "chain-2.json", "api/spec.json", "sub/up/absolute.json"].map((rel) => readInsideRoot(root, rel, NONE));
    expect(results).toEqual([OUTSIDE, OUTSIDE, OUTSIDE, OUTSIDE, OUTSIDE]);
    expect([statInsideRoot(root, "api/spec.json", NONE), isFileInsideRoot(root, "absolute.json", null)]).toEqual([OUTSIDE, false]);
  });

  it("refuses a path that leaves the root by itself", () => {
    const root = tempRepo({ "a.json": "{}" });
    const leaves = { ok: false, reason: "leaves", message: "the path leaves the repository" };
    expect(["../a.json", "/etc/passwd", "x/../../a.json"].map((rel) => readInsideRoot(root, rel, NONE))).toEqual([leaves, leaves, leaves]);
  });

  it("refuses a name holding a NUL in its own words, never Node's (which named the absolute path; adversary round 58, F7)", () => {
    const root = tempRepo({ "a.json": "{}" });
    const nul = { ok: false, reason: "missing", message: "the name holds a NUL character, which no file name can" };
    expect([readInsideRoot(root, "a.json\u0000x", NONE), readInsideRoot(root, "a.json\u0000", { ignore: null, walked: true }), statInsideRoot(root, "\u0000", NONE), isFileInsideRoot(root, "a.json\u0000", null)]).toEqual([nul, nul, nul, false]);
  });

  it("follows a link inside the root, and says where it led; a link into what the ignore rules exclude is refused", () => {
    const root = tempRepo({ "specs/v2/openapi.json": "{}\n", "drafts/spec.json": "{}\n" });
    symlinkSync("specs/v2/openapi.json", join(root, "openapi.json"));
    symlinkSync("specs", join(root, "pub"));
    symlinkSync("drafts/spec.json", join(root, "draft.json"));
    const ignore = compileIgnoreRules(["drafts/\n"]);
    const real = (rel: string, options: { ignore: typeof ignore | null } = NONE) => {
      const r = readInsideRoot(root, rel, options);
      return r.ok ? r.real : r;
    };
    expect([real("openapi.json"), real("pub/v2/openapi.json"), real("draft.json"), real("draft.json", { ignore }), real("drafts/spec.json", { ignore })]).toEqual([
      "specs/v2/openapi.json",
      "specs/v2/openapi.json",
      "drafts/spec.json",
      { ok: false, reason: "excluded", message: "the link leads to drafts/spec.json, which the ignore rules exclude" },
      // Named directly: refused like a missing file.
      { ok: false, reason: "missing", message: "the ignore rules exclude it" },
    ]);
  });

  it("refuses a link (with ignore rules, as every served read has) to a file the site does not serve: a dot-file, one in a dot-folder, docs.json (finding 46)", () => {
    const root = tempRepo({ ".env": "SECRET\n", ".private/notes.md": "x\n", "docs.json": "{}\n", "guide.mdx": "# G\n" });
    for (const [link, target] of [["env.mdx", ".env"], ["notes.md", ".private/notes.md"], ["config.md", "docs.json"], ["copy.mdx", "guide.mdx"]]) symlinkSync(target as string, join(root, link as string));
    const ignore = compileIgnoreRules([]);
    const read = (rel: string, rules: typeof ignore | null) => {
      const r = readInsideRoot(root, rel, { ignore: rules });
      return r.ok ? r.text : r;
    };
    expect(["env.mdx", "notes.md", "config.md", "copy.mdx"].map((rel) => read(rel, ignore))).toEqual([
      { ok: false, reason: "excluded", message: "the link leads to .env, a dot-file or in a dot-folder, which the site does not serve" },
      // The default ignore rules exclude dot-folders already, not dot-files.
      { ok: false, reason: "excluded", message: "the link leads to .private/notes.md, which the ignore rules exclude" },
      { ok: false, reason: "excluded", message: "the link leads to docs.json, the site's configuration, which the site does not serve" },
      "# G\n",
    ]);
    // Without ignore rules (the ignore files, docs.json itself: never served as they are), a link is followed.
    expect(read("env.mdx", null)).toBe("SECRET\n");
  });

  it("works when the root is itself a link", () => {
    const real = tempRepo({ "a.json": "{}\n" });
    const holder = mkdtempSync(join(tmpdir(), "svc-root-link-"));
    made.push(holder);
    symlinkSync(real, join(holder, "docs"));
    symlinkSync(join(real, "a.json"), join(real, "b.json"));
    expect([readInsideRoot(join(holder, "docs"), "b.json", NONE).ok, listInsideRoot(join(holder, "docs"), () => true)]).toEqual([true, { files: ["a.json"], links: ["b.json"], unlisted: [], undecodable: [], controlNamed: [] }]);
  });

  it("lists a file, folder or link whose name holds a control character apart, and reads none by path", () => {
    const root = tempRepo({ "ok.mdx": "# Ok\n", "new\nline.mdx": "# NL\n", "esc\u001b[31m/inner.mdx": "# In\n", "c1\u0085.mdx": "# C1\n", "notes\t.txt": "" });
    symlinkSync("ok.mdx", join(root, "link\r.mdx"));
    const listing = listInsideRoot(root, (rel) => rel.endsWith(".mdx"));
    expect({ ...listing, controlNamed: [...listing.controlNamed].sort() }).toEqual({ files: ["ok.mdx"], links: [], unlisted: [], undecodable: [], controlNamed: ["c1\u0085.mdx", "esc\u001b[31m", "link\r.mdx", "new\nline.mdx"] });
    const refused = (c: string): object => ({ ok: false, reason: "missing", message: `the name holds a control character (U+${c}), which svc-mcp does not serve: rename it` });
    expect(["new\nline.mdx", "esc\u001b[31m/inner.mdx", "c1\u0085.mdx"].map((rel) => readInsideRoot(root, rel, NONE))).toEqual([refused("000A"), refused("001B"), refused("0085")]);
  });

  it("says why anything else is not read: missing, a link to nowhere, a loop, a folder, a pipe (without waiting on it), too large", () => {
    const root = tempRepo({ "folder/a.json": "{}", "big.json": "x".repeat(100) });
    symlinkSync("nowhere.json", join(root, "dangling.json"));
    symlinkSync("loop-b.json", join(root, "loop-a.json"));
    symlinkSync("loop-a.json", join(root, "loop-b.json"));
    execFileSync("mkfifo", [join(root, "pipe.json")]);
    const why = (rel: string) => readInsideRoot(root, rel, { maxBytes: 10, ignore: null });
    expect(["missing.json", "folder/missing/x.json", "dangling.json", "loop-a.json", "folder", "pipe.json", "big.json"].map(why)).toEqual([
      { ok: false, reason: "missing", errno: "ENOENT", message: "file not found" },
      { ok: false, reason: "missing", errno: "ENOENT", message: "file not found" },
      { ok: false, reason: "unreadable", errno: "ENOENT", message: "the link leads nowhere" },
      { ok: false, reason: "unreadable", errno: "ELOOP", message: "the link loops, or changed while being read" },
      { ok: false, reason: "not-file", message: "is a folder, not a file" },
      { ok: false, reason: "not-file", message: "not a regular file" },
      { ok: false, reason: "too-large", size: 100, message: "100 bytes is over the 10-byte limit" },
    ]);
  });
});

describe("listInsideRoot", () => {
  it("walks the real folders: matching files, every link (never entered), no dot-entries or node_modules", () => {
    const out = outside();
    const root = tempRepo({
      "index.mdx": "",
      "guides/a.mdx": "",
      "guides/image.png": "",
      ".git/x.mdx": "",
      ".hidden.mdx": "",
      "node_modules/p/readme.md": "",
      "real/b.mdx": "",
    });
    symlinkSync(join(out, "folder"), join(root, "guides/outside"));
    symlinkSync("real", join(root, "inner"));
    symlinkSync("real/b.mdx", join(root, "alias.mdx"));
    symlinkSync("..", join(root, "real/up"));
    const listing = listInsideRoot(root, (rel) => rel.endsWith(".mdx"));
    expect({ files: [...listing.files].sort(), links: [...listing.links].sort(), unlisted: listing.unlisted }).toEqual({
      files: ["guides/a.mdx", "index.mdx", "real/b.mdx"],
      links: ["alias.mdx", "guides/outside", "inner", "real/up"],
      unlisted: [],
    });
  });
});
