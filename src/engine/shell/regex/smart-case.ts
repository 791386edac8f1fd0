/** ripgrep's smart case: case-insensitive unless the pattern has an uppercase literal. */
export function hasUppercaseLiteral(pattern: string): boolean {
  // Escapes (`\S`, `\W`, `\p{Lu}`) are not literals.
  const literals = pattern.replace(/\\[pP]\{[^}]*\}|\\[pP].|\\./g, "");
  return /\p{Lu}/u.test(literals);
}
