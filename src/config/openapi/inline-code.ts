/**
 * Spec values written into a generated page's Markdown: a server name, a variable's default, a
 * message name, a code sample. Each is the author's text, and a line break or a backtick in it
 * must not end the code it is written in: `a\n# H` made a heading of the page (and a search
 * section), and a default of "1` [l](https://evil.example/) `" made a live link.
 */

/** Line breaks (and the spaces around them) as one space, as a one-line value reads. */
function oneLine(s: string): string {
  return s.trim().replace(/\s*[\r\n]+\s*/g, " ");
}

/** The longest run of `ch` in `s` (0 when there is none). */
function longestRun(s: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * A value as inline code on one line: delimited by a backtick run longer than any inside it
 * (CommonMark's code span), with a space either side when longer than one (which CommonMark
 * takes off again), so no backtick in the value ends the span.
 */
export function inlineCode(value: string): string {
  const text = oneLine(value);
  if (text === "") return "` `";
  const fence = "`".repeat(longestRun(text, "`") + 1);
  return fence.length > 1 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** A heading's text: one line, without the `#` signs that would start another heading level. */
export function headingText(value: string): string {
  return oneLine(value).replace(/^#+\s*/, "");
}

/**
 * A fenced code block of `source`: a backtick fence longer than any backtick or tilde run in it
 * (at least three), so no line of the source closes the block; the info line on one line with
 * no backtick (a backtick fence's info may hold none).
 */
export function fencedCode(info: string, source: string): string[] {
  const fence = "`".repeat(Math.max(3, longestRun(source, "`") + 1, longestRun(source, "~") + 1));
  return [`${fence}${oneLine(info).replace(/`/g, "'")}`, source, fence];
}

/**
 * A link to an anchor of the same page, `#<anchor>`, as a Markdown link destination: the anchor
 * is a spec value (a parameter's name), and a `)` in it ended the link there (the rest was the
 * page's text), a line break ended the line, a space or `<` made no link at all. Such characters,
 * and every control, format and separator character, are percent-encoded (the fragment decodes
 * back to the name); the rest is written as it is, so a plain name's link reads as before.
 */
export function anchorLink(anchor: string): string {
  return `#${anchor.replace(/[\p{Cc}\p{Cf}\p{Z}<>()#\\`"'%]|[\uD800-\uDFFF]/gu, percentEncoded)}`;
}

/** A character as `%XX` per UTF-8 byte (a lone surrogate as U+FFFD's bytes, as a URL writes it). */
function percentEncoded(c: string): string {
  return [...Buffer.from(c, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

/**
 * A word of a shell command line a page writes for its reader to run (the `jq`/`yq` line that
 * prints where the page comes from): single-quoted, an inner `'` written `'\''`, unless it is
 * plain (letters, digits, `_./:=@%+,-`), so a spec value's `'`, `$(...)` or `;` stays in the word.
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}
