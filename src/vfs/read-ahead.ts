import type { WalkedRead } from "../config/inside-root.js";
import type { TextScan } from "./parsed-texts.js";

/**
 * Page files read ahead of a load by another thread (issue 22): a cold start of a 25,000-file
 * site spent a second of its one thread on opening, checking and reading files while the other
 * core idled. The load takes the reads in the order of the paths it gave, and reads itself any
 * file the reader could not (`undefined`: a link, a file changed meanwhile, a refusal), so what
 * it loads is what it would have read alone.
 */
export interface ReadAhead {
  /** The next path's read: its bytes, or for a file whose bytes are those of an earlier one (a
   *  versioned site's copies) that file's number among the paths, so that the bytes are sent and
   *  decoded once. */
  next(): Promise<AheadRead | undefined>;
  /** Stop reading (the load ended or failed). */
  close(): void;
}

/** A file as read ahead (see `ReadAhead.next`). `held`: its bytes are in shared memory of texts
 *  the load holds as UTF-8 (`heldAsUtf8`), which it keeps as they are rather than copying them.
 *  `scan`: what the reader found in the bytes (`TextScan`), when it looked. */
export type AheadRead = Omit<WalkedRead, "bytes"> & ({ readonly bytes: Buffer; readonly held?: true; readonly scan?: TextScan } | { readonly copyOf: number });

/** Start reading `rels` (walked files, kept by the ignore rules) under the root's real path;
 *  undefined when reading ahead would not pay (few files, one core). */
export type StartReadAhead = (realRoot: string, rels: readonly string[], maxBytes: number) => ReadAhead | undefined;
