import type { CommandIo } from "./command.js";
import { ERRNO, lookup } from "./files.js";

/** One input of a byte command (`od`, `xxd`): its bytes, or why it could not be read. */
export type ByteInput = { readonly ok: true; readonly name: string; readonly bytes: Buffer } | { readonly ok: false; readonly name: string; readonly reason: string };

/**
 * An operand's bytes (`-` is stdin). A page's bytes are its text in UTF-8: the view holds text,
 * so a byte of the page that was not UTF-8 reads as U+FFFD's three bytes (docs/shell.md).
 */
export function readBytes(io: CommandIo, name: string): ByteInput {
  if (name === "-") return { ok: true, name, bytes: io.stdinBytes() };
  const entry = lookup(io.view, io.cwd, name, io.piped);
  switch (entry.kind) {
    case "file":
      return { ok: true, name, bytes: Buffer.from(entry.text, "utf8") };
    case "device":
      return { ok: true, name, bytes: Buffer.alloc(0) };
    case "dir":
      return { ok: false, name, reason: ERRNO.EISDIR };
    case "notdir":
      return { ok: false, name, reason: ERRNO.ENOTDIR };
    default:
      return { ok: false, name, reason: ERRNO.ENOENT };
  }
}
