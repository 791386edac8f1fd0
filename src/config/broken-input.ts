import { IGNORED_MESSAGE, type Refusal } from "./inside-root.js";

/**
 * Whether a configuration input (docs.json's `$ref`'d files, an API spec, a spec's `$ref`'d file)
 * that cannot be read now is broken, not withdrawn: while serving, a broken input keeps the last
 * good state (a save in progress, an `rm` then `cp` deploy, a truncated copy), as docs.json does.
 * A withdrawal is a decision to honour at once: the ignore rules now exclude the file, or a link
 * now leads outside the root or into what the site does not serve (serving the old text would
 * serve what the author just hid). A file deleted while what names it still names it is broken:
 * a real removal takes the reference away too, and that reload drops what it named.
 */
export function brokenNotWithdrawn(refusal: Pick<Refusal, "reason" | "message">): boolean {
  if (refusal.reason === "missing") return refusal.message !== IGNORED_MESSAGE;
  return refusal.reason === "unreadable" || refusal.reason === "not-file" || refusal.reason === "too-large";
}
