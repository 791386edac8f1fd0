/**
 * Whether an error is the engine's stack overflow ("Maximum call stack size exceeded"). Reading
 * a file turns it into a finding about the file (a spec whose `$ref`s chain deeper than the
 * recursive resolvers can follow, front matter nested thousands deep for js-yaml's recursive
 * reader): the file's problem, not the server's, and said in words a writer understands.
 * Any other RangeError is a bug and is not caught by this test.
 */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
