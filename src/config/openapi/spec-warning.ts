/** A problem found while reading a spec that leaves the rest usable: `check` lists it as a warning. */
export interface SpecWarning {
  readonly message: string;
  readonly code?: string;
}
