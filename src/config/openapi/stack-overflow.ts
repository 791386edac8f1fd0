/**
 * Whether an error is the engine's stack overflow ("Maximum call stack size exceeded"). Spec
 * loading turns it into a finding about the spec: a document whose `$ref`s chain deeper than
 * the recursive resolvers and validators can follow is the spec's problem, not the server's.
 * Any other RangeError is a bug and is not caught by this test.
 */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
