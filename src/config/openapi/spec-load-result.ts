// Its own file so that what reads loaded specs (restricted parts, the spec cache) and the loader,
// which uses them, need not import each other.
import type { AsyncSpec } from "../asyncapi/model.js";
import type { SpecWarning } from "./spec-warning.js";
import type { ApiSpec } from "./model.js";
import type { RefDecision, RefFile } from "./ref-target.js";

/** One problem of a spec that cannot be used, where it is written. */
export interface SpecProblem {
  /** The JSON path in the spec (`paths./a`), as `check` prints it. */
  readonly path: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  /** A problem the spec would be read with, as written (a named schema's): a warning. */
  readonly warning?: true;
}

/** A spec that loaded: OpenAPI or AsyncAPI. */
export type LoadedApiSpec = ApiSpec | AsyncSpec;

export type SpecLoadResult =
  | {
      readonly ok: true;
      readonly spec: LoadedApiSpec;
      /** Problems that leave the spec usable (a dangling `$ref`): warnings in `check`. */
      readonly warnings: readonly SpecWarning[];
      /** Who-may-read decisions its `$ref`s met (`ref-target.ts`): reused only while they hold. */
      readonly refDecisions?: readonly RefDecision[];
      /** The repository files its `$ref`s read: reused only while each reads the same. */
      readonly refFiles?: readonly RefFile[];
      /** Why the file's text now is refused, when this is the last good result kept serving for
       *  it (a live edit to a spec over `LIMITS.api.maxExpandedValues`): an error in `check`. */
      readonly refused?: string;
      /** With `refused`: the spec file's text this result was loaded from, which the site mounts
       *  in place of the text now (undefined when that was not read from the file as such). */
      readonly keptText?: string;
      /** Set on a kept last good result (`refused`) whose file's text now is no API description
       *  (`notSpec` below): its pages keep serving, and its file is mounted only as `keptText`. */
      readonly notSpec?: true;
    }
  | {
      readonly ok: false;
      /** Why, phrased to follow `API spec <source>: `. */
      readonly message: string;
      readonly line?: number;
      /** Each problem that makes the document unusable, at its place in the spec (a document that
       *  is not valid OpenAPI outside its operations and components): errors of their own. */
      readonly problems?: readonly SpecProblem[];
      /** A remote spec that was not fetched because fetching is off: not a problem of the spec. */
      readonly notFetched?: boolean;
      /** The code of the finding, when it is not the API reference's own (`outside-link`). */
      readonly code?: string;
      /** A local spec file that is not there (`file not found`): a misspelt name, maybe. */
      readonly missing?: boolean;
      /** A file no spec may be read from (`refusedAsSpec`: a page, a dot-file, docs.json...): it
       *  reads as missing (`missing`, the same words), and is a withdrawal, never a broken spec
       *  whose last good version keeps serving (`brokenSinceLastGood`). */
      readonly withdrawn?: true;
      /** The text is no API description (it does not parse, or names no OpenAPI, AsyncAPI or
       *  Swagger version): the site does not mount the file as a spec (adversary round 59 F1). */
      readonly notSpec?: true;
      /** Refused for expanding past `LIMITS.api.maxExpandedValues`: a spec that loaded before keeps
       *  serving its last good result (`api-pages.ts`). */
      readonly overLimit?: true;
      readonly refDecisions?: readonly RefDecision[];
      readonly refFiles?: readonly RefFile[];
    };
