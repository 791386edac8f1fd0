/**
 * British and American spellings of one word, read as one (issue 24). A question written
 * `organisation`, `behaviour`, `cancelled` or `licence` must find the page that writes
 * `organization`, `behavior`, `canceled` or `license`, and the reverse: docs sites are written in
 * either, and agents and readers ask in either. Applied to every word on both sides (pages and
 * queries) before stemming, so the two spellings are one term; nothing is added to the query.
 *
 * Only spellings with no other meaning are rewritten: the `-ise` verbs (a stem of 4+ letters, so
 * `rise`, `raise`, `noise` and `prise` stay), the `-our` words listed (not a rule: `hour`, `four`
 * and `tour` are other words), and whole words for the rest (`centre`, not `central`). The
 * doubled `l` of `cancelled` / `labelling` is the stemmer's (`stem` in terms.ts), as it also
 * meets `cancellation`.
 */

/** `-our` roots written `-or` in American English; any word they start (`colourful`, `favourites`). */
const OUR_ROOTS: readonly string[] = [
  "armour",
  "behaviour",
  "candour",
  "colour",
  "endeavour",
  "favour",
  "flavour",
  "harbour",
  "honour",
  "humour",
  "labour",
  "neighbour",
  "parlour",
  "rumour",
  "savour",
  "vapour",
];

/** Roots that differ elsewhere, with the words they start (`licensed`, `catalogued`). */
const OTHER_ROOTS: ReadonlyMap<string, string> = new Map([
  ["licenc", "licens"],
  ["defenc", "defens"],
  ["offenc", "offens"],
  ["catalogu", "catalog"],
  ["dialogu", "dialog"],
  ["analogu", "analog"],
  ["judgement", "judgment"],
  ["acknowledgement", "acknowledgment"],
  ["artefact", "artifact"],
  ["enrolment", "enrollment"],
  ["instalment", "installment"],
  ["fulfilment", "fulfillment"],
]);

/** Whole words whose root also starts other words (`centre` but not `central`, `programme` but not `programmer`). */
const WHOLE_WORDS: ReadonlyMap<string, string> = new Map([
  ["centre", "center"],
  ["centres", "centers"],
  ["centred", "centered"],
  ["metre", "meter"],
  ["metres", "meters"],
  ["litre", "liter"],
  ["litres", "liters"],
  ["fibre", "fiber"],
  ["theatre", "theater"],
  ["programme", "program"],
  ["programmes", "programs"],
  ["grey", "gray"],
  ["ageing", "aging"],
  ["practise", "practice"],
  ["practised", "practiced"],
  ["enrol", "enroll"],
  ["enrols", "enrolls"],
  ["aluminium", "aluminum"],
  ["manoeuvre", "maneuver"],
  ["sceptical", "skeptical"],
]);

/** `-ise` / `-yse` verbs and the words formed from them: `organise`, `organised`, `organiser`, `organisation`, `analyse`. */
const ISE_RE = /^([a-z]{4,})([iy])s(e|ed|es|ing|er|ers|ation|ations|able)$/;

/** The American spelling of a folded lowercase word (the word itself when there is none). */
export function americanSpelling(word: string): string {
  if (word.length < 4) return word;
  const whole = WHOLE_WORDS.get(word);
  if (whole !== undefined) return whole;
  const ise = ISE_RE.exec(word);
  if (ise !== null) return `${ise[1] as string}${ise[2] as string}z${ise[3] as string}`;
  if (word.includes("our")) {
    for (const root of OUR_ROOTS) if (word.startsWith(root)) return `${root.slice(0, -2)}r${word.slice(root.length)}`;
  }
  for (const [root, american] of OTHER_ROOTS) if (word.startsWith(root)) return `${american}${word.slice(root.length)}`;
  return word;
}
