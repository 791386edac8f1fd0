import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import anyAscii from "any-ascii";
import { homeDir, xdgBaseDir } from "./xdg.js";

/**
 * Where service state (credentials, tokens, feedback) lives: `--state DIR` when given, else
 * `$XDG_STATE_HOME/svc-mcp/<projectId>` (default `~/.local/state/svc-mcp/<projectId>`; an empty or
 * relative `XDG_STATE_HOME` is ignored, see `xdgBaseDir`).
 * Never inside the docs repository by default: state holds secret hashes and must not be
 * committed with the docs.
 */
export function resolveStateDir(
  projectId: string,
  options: { state?: string | undefined; cwd: string; env: Readonly<Record<string, string | undefined>> },
): string {
  if (options.state !== undefined && options.state !== "") return resolve(options.cwd, options.state);
  const base = xdgBaseDir(options.env, "XDG_STATE_HOME") ?? join(homeDir(options.env), ".local", "state");
  return join(base, "svc-mcp", projectId);
}

/**
 * A project ID from a site name: `Spree Commerce documentation` -> `spree-commerce-documentation`.
 * A name with letters or digits no ASCII form keeps (`Документация`, `文档中心`, `Straße`) is
 * spelled in ASCII (`any-ascii`) and takes 8 hex digits of its SHA-256: such names all became
 * `docs` (or lost their words), so two sites shared one default state folder, and a staff account
 * of one signed in to the other (adversary round 38, F3). Spellings can coincide (`文档` and `文檔`
 * are both `WenDang`); the hash keeps them apart.
 */
export function projectIdFromName(name: string): string {
  const id = legacyProjectIdFromName(name);
  if (!dropsLetters(name)) return id;
  const spelled = slugOf(anyAscii(name)).slice(0, 55).replace(/-+$/, "");
  const hash = createHash("sha256").update(name.normalize("NFC").trim()).digest("hex").slice(0, 8);
  return `${spelled === "" ? "docs" : spelled}-${hash}`;
}

/**
 * The project ID before names without an ASCII form were spelled (`projectIdFromName`): where the
 * state of such a site was kept until then, which `resolveProject` points to when it finds it.
 */
export function legacyProjectIdFromName(name: string): string {
  const id = slugOf(name);
  return id === "" ? "docs" : id.slice(0, 64);
}

function slugOf(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Whether the name holds a letter or digit that is not ASCII once accents are taken off. */
function dropsLetters(name: string): boolean {
  return /[^\x00-\x7f]/.test(name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\p{L}\p{N}]/gu, ""));
}
