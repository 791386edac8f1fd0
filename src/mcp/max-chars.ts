import { z } from "zod";
import { LIMITS } from "../limits.js";

/**
 * `maxChars`, the result-size argument of the search and shell tools: at most this many
 * characters of text. Characters, not tokens: the server can count them exactly and the same
 * for every client, where a token count depends on the model's tokenizer (a budget in tokens
 * would be a guess the server cannot keep). About 4 characters make a token of English prose.
 */
export function maxCharsArgument(max: number, what: string): z.ZodOptional<z.ZodNumber> {
  const range = `must be an integer from ${LIMITS.mcp.minMaxChars} to ${max}`;
  return z
    .number({ error: range })
    .int({ error: range })
    .min(LIMITS.mcp.minMaxChars, { error: range })
    .max(max, { error: range })
    .optional()
    .describe(`At most this many characters of ${what} (${LIMITS.mcp.minMaxChars} to ${max}; about 4 characters make a token). What is left out is said in the result.`);
}

/** The first `n` UTF-16 units of `text`, one fewer where the cut would split a surrogate pair
 *  (half an emoji is not a character, and JSON parsers refuse it). */
export function cutText(text: string, n: number): string {
  const end = Math.max(0, Math.min(n, text.length));
  const code = end > 0 ? text.charCodeAt(end - 1) : 0;
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}
