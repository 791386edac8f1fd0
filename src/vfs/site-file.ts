// Apart from `site.ts` (the snapshot), so that what builds files and pages (reader variants,
// API pages) need not import the snapshot that holds them.
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
}

/** Build a file record (computes the byte size once). */
export function makeFile(path: string, text: string, access: Access, mtime: Date): SiteFile {
  return { path, text, size: byteLength(text), mtime, access };
}

/** UTF-8 byte length of a string. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
