// Apart from `site.ts` (the snapshot), so that what builds files and pages (reader variants,
// API pages) need not import the snapshot that holds them.
import type { StoredText } from "./stored-text.js";
import type { Access } from "./access.js";

/** One file of the virtual filesystem. Immutable: a change makes a new object. */
export interface SiteFile {
  /** Absolute path in the virtual filesystem: `/guides/setup.mdx`. */
  readonly path: string;
  readonly text: string;
  /** UTF-8 byte length of `text` (what `wc -c`, `ls -l` and `stat` report). */
  readonly size: number;
  readonly mtime: Date;
  readonly access: Access;
  /** The bytes `text` is decoded from, for a file that holds its text so (a shell worker's
   *  shared snapshot): searches that can tell a match from the bytes read them undecoded. */
  readonly stored?: StoredText;
}

/** Build a file record (computes the byte size once). */
export function makeFile(path: string, text: string, access: Access, mtime: Date): SiteFile {
  return { path, text, size: byteLength(text), mtime, access };
}

/** UTF-8 byte length of a string. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
