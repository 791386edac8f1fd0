/**
 * The `id` members of JSON-RPC messages as the client wrote them, read from the text (issue 25).
 * `JSON.parse` reads every number as a double, so an id such as `12345678901234567890` or `1e400`
 * was echoed changed (`12345678901234567000`, or `null`); a refusal of such an id now echoes its
 * text exactly, so the client can match the answer to its request. Only for text `JSON.parse`
 * accepted: this scanner does not validate, it finds members.
 */

/** The raw text of the message's `id` (the last one, as `JSON.parse` keeps), for an object; per element for an array (undefined where none). */
export function rawIds(text: string): string | undefined | (string | undefined)[] {
  const at = { i: skipSpace(text, 0) };
  if (text[at.i] === "{") return objectId(text, at);
  if (text[at.i] !== "[") return undefined;
  const ids: (string | undefined)[] = [];
  at.i++;
  for (;;) {
    at.i = skipSpace(text, at.i);
    if (text[at.i] === "]" || at.i >= text.length) return ids;
    if (text[at.i] === "{") ids.push(objectId(text, at));
    else {
      ids.push(undefined);
      at.i = skipValue(text, at.i);
    }
    at.i = skipSpace(text, at.i);
    if (text[at.i] === ",") at.i++;
  }
}

/** The raw `id` (or member `name`) of the object at `at.i`; `at.i` is left after it. */
function objectId(text: string, at: { i: number }, name = "id"): string | undefined {
  let id: string | undefined;
  at.i++;
  for (;;) {
    at.i = skipSpace(text, at.i);
    if (text[at.i] !== '"') break;
    const keyEnd = skipString(text, at.i);
    const key = JSON.parse(text.slice(at.i, keyEnd)) as string;
    at.i = skipSpace(text, keyEnd) + 1;
    const start = skipSpace(text, at.i);
    at.i = skipValue(text, start);
    if (key === name) id = text.slice(start, at.i);
    at.i = skipSpace(text, at.i);
    if (text[at.i] !== ",") break;
    at.i++;
  }
  at.i++;
  return id;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  return i;
}

/** The index after the string that starts at `i`. */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}

/** The index after the value that starts at `i` (nested objects and arrays counted, not recursed). */
function skipValue(text: string, i: number): number {
  if (text[i] === '"') return skipString(text, i);
  if (text[i] !== "{" && text[i] !== "[") {
    while (i < text.length && !",}] \t\n\r".includes(text[i] as string)) i++;
    return i;
  }
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = skipString(text, i);
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    i++;
    if (depth === 0) return i;
  }
  return i;
}

/**
 * The id of the one message `text` holds, as JSON text to echo in an answer written without
 * parsing it (a line too long to read whole, a body nested too deeply): the id as the client
 * wrote it when it is a string or an integer that ends before the text does (a text cut short may
 * end inside it), else `null` (JSON-RPC 2.0 section 5).
 */
export function readableId(text: string): string {
  const raw = text.trimStart().startsWith("{") ? rawIds(text) : undefined;
  if (typeof raw !== "string" || text.trimEnd().endsWith(raw)) return "null";
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "string" || (typeof value === "number" && Number.isInteger(value))) return raw;
  } catch {
    // Not an id a client can match: answered with null.
  }
  return "null";
}

/** The raw text of a top-level member `name` of the object `text` holds (the last one), or undefined. */
export function rawMember(text: string, name: string): string | undefined {
  const at = { i: skipSpace(text, 0) };
  return text[at.i] === "{" ? objectId(text, at, name) : undefined;
}
