import { INVISIBLE_CLASS } from "./invisible-chars.js";

/**
 * What comes before a page's opening `---` (`parseFrontMatter`): a byte order mark, which the
 * platform reads past, or more than that (a second mark, blank lines, spaces or tabs, or any other
 * character that shows as nothing or as blank space: a zero-width space, U+00A0, U+2060, a bidi
 * mark, U+3000, U+2028, a vertical tab; `INVISIBLE_CLASS`), after which the platform's MDX parser
 * reads the `---` as a rule and the front matter as text. Here front matter after such a lead is
 * still read as the page's front matter, so that a `groups` written in it is never ignored
 * (adversary rounds 61 and 63, F2), and `check` says the platform would not
 * (`frontMatterLeadWarning`). Pages, snippets, skills and API pages all read front matter here.
 */
export interface FrontMatterLead {
  /** Where the opening `---` starts (0: the text starts with it, or with no front matter). */
  readonly at: number;
  /** What comes before it beyond one byte order mark; undefined when nothing does. */
  readonly more: string | undefined;
}

const LEAD = new RegExp(`^[${INVISIBLE_CLASS}]*`, "u");

/** What comes before a text's opening `---`; `at` 0 or 1 (a byte order mark) where no `---` follows. */
export function frontMatterLead(text: string): FrontMatterLead {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lead = (LEAD.exec(text) as RegExpExecArray)[0];
  if (lead.length <= bom || !text.startsWith("---", lead.length)) return { at: bom, more: undefined };
  return { at: lead.length, more: describe(lead) };
}

function describe(lead: string): string {
  const parts: string[] = [];
  const boms = lead.split("\uFEFF").length - 1;
  if (boms > 1) parts.push(`${boms} byte order marks (U+FEFF)`);
  const lines = lead.split(/\r\n|\r|\n/).length - 1;
  if (lines > 0) parts.push(lines === 1 ? "a line break" : `${lines} line breaks`);
  if (/[ \t]/.test(lead)) parts.push("spaces or tabs");
  const others = [...new Set(lead.replace(/[\uFEFF\r\n \t]/g, ""))];
  if (others.length > 0) parts.push(`${others.length === 1 ? "an invisible character" : "invisible characters"} (${others.slice(0, MAX_NAMED).map(codePoint).join(", ")}${others.length > MAX_NAMED ? ", ..." : ""})`);
  return parts.join(", ");
}

/** How many of a lead's other invisible characters the warning names. */
const MAX_NAMED = 4;

/** `U+200B`: how the warning names a character the author cannot see. */
function codePoint(c: string): string {
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The text of front matter (between its opening and closing `---`) holds U+FEFF: a key written
 *  `\uFEFFgroups` is read here as `groups` (the mark is dropped before YAML reads it). */
export const BOM_INSIDE = /\uFEFF/g;

/** `check`'s warning for a page whose front matter was read past a lead or a U+FEFF inside it
 *  (`frontMatterLead`); undefined for one the platform reads as this does. `head`: the front
 *  matter's text, opening and closing `---` included. */
export function frontMatterLeadWarning(lead: FrontMatterLead, head: string): string | undefined {
  const inside = head.includes("\uFEFF");
  if (lead.more === undefined && !inside) return undefined;
  const why: string[] = [];
  if (lead.more !== undefined) why.push(`its opening --- comes after ${lead.more}, so the platform shows the front matter as text`);
  if (inside) why.push("it holds a byte order mark (U+FEFF), which the platform reads as part of a key or value (`\\uFEFFgroups` is no `groups`)");
  const fix = [lead.more !== undefined ? "start the file with ---" : "", inside ? "delete the U+FEFF" : ""].filter((s) => s !== "").join(" and ");
  return `front matter read as the page's (its keys, \`groups\` among them, apply here), but ${why.join("; and ")}: ${fix}, saved as UTF-8`;
}
