import type { StoredText } from "../../../../vfs/stored-text.js";

/** A file to search, with the path rg prints for it. */
export interface RgTarget {
  readonly display: string;
  readonly text: string;
  readonly mtime: number;
  /** The bytes the text is decoded from, when it is held so (`SiteFile.stored`). */
  readonly stored?: StoredText;
}
