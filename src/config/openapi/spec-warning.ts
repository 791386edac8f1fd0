import type { SpecSegments } from "./spec-positions.js";

/** A problem found while reading a spec that leaves the rest usable: `check` lists it as a warning. */
export interface SpecWarning {
  readonly message: string;
  readonly code?: string;
  /** The keys, from the spec's root as written, of what it is about (a `$ref`, a schema's key),
   *  when it is one place of the spec: the loader turns it into `line` and `column`. */
  readonly at?: SpecSegments;
  /** Where in the spec file it is written, when known (`specLocator`). */
  readonly line?: number;
  readonly column?: number;
}
