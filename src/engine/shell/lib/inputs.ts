import type { CommandIo } from "./command.js";
import { ERRNO, lookup } from "./files.js";

/** One input of a text command (cat, head, wc, sort...): a file, stdin, or why it failed. */
export type Input =
  | { readonly ok: true; readonly name: string; readonly text: string; readonly regular: boolean }
  | { readonly ok: false; readonly name: string; readonly reason: string; readonly isDir: boolean };

/**
 * Resolve operands to texts (`-` or no operand is stdin). Folders fail with EISDIR, as reading
 * one does on Linux.
 */
export function readInputs(io: CommandIo, operands: readonly string[]): Input[] {
  const names = operands.length === 0 ? ["-"] : operands;
  return names.map((name): Input => {
    if (name === "-") return { ok: true, name, text: io.stdin(), regular: false };
    const entry = lookup(io.view, io.cwd, name, io.piped);
    switch (entry.kind) {
      case "file":
        return { ok: true, name, text: entry.text, regular: true };
      case "device":
        return { ok: true, name, text: "", regular: false };
      case "dir":
        return { ok: false, name, reason: ERRNO.EISDIR, isDir: true };
      case "notdir":
        return { ok: false, name, reason: ERRNO.ENOTDIR, isDir: false };
      default:
        return { ok: false, name, reason: ERRNO.ENOENT, isDir: false };
    }
  });
}

/** Split text into lines without their `\n` (a final line without `\n` is still a line). */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}
