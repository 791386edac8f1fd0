/**
 * What comes before a page's opening `---` (`parseFrontMatter`): a byte order mark, which the
 * platform reads past, or more than that (a second mark, blank lines, spaces or tabs), after which
 * the platform's MDX parser reads the `---` as a rule and the front matter as text. Here front
 * matter after such a lead is still read as the page's front matter, so that a `groups` written in
 * it is never ignored (adversary round 61 F2), and `check` says the platform would not
 * (`frontMatterLeadWarning`).
 */
export interface FrontMatterLead {
  /** Where the opening `---` starts (0: the text starts with it, or with no front matter). */
  readonly at: number;
  /** What comes before it beyond one byte order mark; undefined when nothing does. */
  readonly more: string | undefined;
}

const LEAD = /^[\uFEFF \t\r\n]*/;

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
  const lines = lead.split("\n").length - 1;
  if (lines > 0) parts.push(lines === 1 ? "a line break" : `${lines} line breaks`);
  if (/[ \t]/.test(lead)) parts.push("spaces or tabs");
  return parts.join(", ");
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
