/**
 * Collections of a JSON or YAML text as written: where each member starts and ends, so that
 * members can be cut out of the author's text without re-serialising the rest.
 */

/** A text edit: replace `[start, end)` with `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** One member of a mapping (by key) or sequence (by index). */
export interface SourceMember {
  readonly key: string | number;
  /** What to cut to remove the member: whole lines for block YAML (with its leading comments),
   *  key through value for flow collections (the separators are handled by the caller). */
  readonly start: number;
  readonly end: number;
  /** Where the member is written: its key (a mapping member), its `-` (a block sequence entry) or
   *  its value (a flow sequence entry). What findings about it point at (`spec-positions.ts`). */
  readonly at: number;
  /** Flow members: just after the `,` that follows the member, when one does. */
  readonly separatorEnd?: number;
  /** False for the first member of `- key: value` (it shares its line with the dash). */
  readonly cuttable: boolean;
  /** The member's value as a collection (scanned when first asked for). */
  value(): SourceCollection;
}

/** A mapping or sequence and its members, in the order written. */
export interface SourceCollection {
  readonly kind: "map" | "seq";
  /** `flow`: JSON and YAML `{...}`/`[...]`; `block`: YAML indentation. */
  readonly style: "flow" | "block";
  readonly members: readonly SourceMember[];
  /** The edits that leave it empty (`{}` / `[]`), members and all. */
  empty(): readonly TextEdit[];
}

/**
 * The text uses a construct the cutter does not follow (anchors, explicit keys, several
 * documents...): the caller writes the pruned value out instead.
 */
export class UnsupportedSource extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsupportedSource";
  }
}
