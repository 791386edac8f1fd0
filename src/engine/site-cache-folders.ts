import type { KnownFolders, ListedFolder } from "../config/inside-root.js";

/**
 * The folders of a site's load (`LoadedSite.folders`) as the site cache stores them: in columns,
 * not an object per folder, and each folder's entries in one array of all of them
 * (`FolderColumns.ends` marks where each folder's end).
 */
export interface FolderColumns {
  readonly rels: readonly string[];
  /** `FOLDER_NUMBERS` per folder: its modification time, change time and inode. */
  readonly numbers: Float64Array;
  /** Where each folder's entries end in `entries`. */
  readonly ends: Int32Array;
  readonly entries: readonly string[];
  readonly kinds: Uint8Array;
}
const FOLDER_NUMBERS = 3;

/** The stored form of a load's folders. */
export function folderColumns(folders: readonly ListedFolder[]): FolderColumns {
  const numbers = new Float64Array(folders.length * FOLDER_NUMBERS);
  const ends = new Int32Array(folders.length);
  const entries: string[] = [];
  const kinds = new Uint8Array(folders.reduce((sum, f) => sum + f.entries.length, 0));
  folders.forEach((f, i) => {
    numbers[i * FOLDER_NUMBERS] = f.mtimeMs;
    numbers[i * FOLDER_NUMBERS + 1] = f.ctimeMs;
    numbers[i * FOLDER_NUMBERS + 2] = f.ino;
    kinds.set(f.kinds, entries.length);
    for (const e of f.entries) entries.push(e);
    ends[i] = entries.length;
  });
  return { rels: folders.map((f) => f.rel), numbers, ends, entries, kinds };
}

/** A load's folders from their stored form, for the next load (`FolderListings.known`). */
export function foldersOf(columns: FolderColumns, trustedBefore: number): KnownFolders {
  const { rels, numbers, ends, entries, kinds } = columns;
  const count = rels.length;
  if (numbers.length !== count * FOLDER_NUMBERS || ends.length !== count || kinds.length !== entries.length || (count > 0 && ends[count - 1] !== entries.length)) throw new Error("folder columns of different lengths");
  const byRel = new Map<string, ListedFolder>();
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = ends[i] as number;
    if (end < start) throw new Error("folder entries out of order");
    byRel.set(rels[i] as string, {
      rel: rels[i] as string,
      mtimeMs: numbers[i * FOLDER_NUMBERS] as number,
      ctimeMs: numbers[i * FOLDER_NUMBERS + 1] as number,
      ino: numbers[i * FOLDER_NUMBERS + 2] as number,
      entries: entries.slice(start, end),
      kinds: kinds.subarray(start, end),
    });
    start = end;
  }
  return { get: (rel) => byRel.get(rel), trustedBefore };
}
