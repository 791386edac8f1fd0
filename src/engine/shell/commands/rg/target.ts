/** A file to search, with the path rg prints for it. */
export interface RgTarget {
  readonly display: string;
  readonly text: string;
  readonly mtime: number;
}
