/**
 * Whether a label people read in lists (`keys list`, `credentials list`) is one line of at most
 * `max` characters: a control character would break the table, or a terminal, it is printed in.
 */
export function isOneLineLabel(text: string, max: number): boolean {
  return text.length <= max && !/[\u0000-\u001f\u007f]/.test(text);
}
