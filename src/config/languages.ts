/**
 * The languages a site may be written in, in one table: the specification's code for each, the
 * codes the hosted platform also documents, and the other forms real sites write. `check`, the
 * navigation model, `nav --language` and the search tool's `language` argument all read it, so
 * `cn` and `zh` (or `jp` and `ja`) are one language everywhere. docs/docs-json.md prints the table.
 */
export interface Language {
  /** A stable key (`zh-hans`), and the language's English name. */
  readonly key: string;
  readonly name: string;
  /** The specification's code, when its list has the language (it has no `pt`, no `fr-CA`). */
  readonly spec?: string;
  /** Codes the hosted platform's settings reference lists for this language beyond the
   *  specification's: sites write them, the platform serves them, `check` says nothing. */
  readonly platform: readonly string[];
  /** Other forms sites write (a region or script subtag, a retired ISO code): read as this
   *  language, with a warning naming the code to write. A region subtag after any code of the
   *  table (`ko-KR`, `en-US`, `es-419`) needs no entry here. */
  readonly aliases: readonly string[];
  /** The broader language a regional one belongs to (`pt-BR` to `pt`): the search tool takes
   *  one for the other when a site has only one of them. */
  readonly within?: string;
}

/** The table. Order: the specification's list, then the languages only the platform lists. */
export const LANGUAGES: readonly Language[] = [
  { key: "ar", name: "Arabic", spec: "ar", platform: [], aliases: [] },
  { key: "ca", name: "Catalan", spec: "ca", platform: [], aliases: [] },
  { key: "cs", name: "Czech", spec: "cs", platform: [], aliases: [] },
  // The platform documents `zh` and `zh-Hans` beside `cn`, and (on the lead's reading of its
  // settings reference) `zh-CN`; `zh-SG` is the other region written in Simplified Chinese.
  { key: "zh-hans", name: "Chinese (Simplified)", spec: "cn", platform: ["zh", "zh-Hans", "zh-CN"], aliases: ["zh-SG", "zh-Hans-CN", "zh-Hans-SG", "zh-chs"] },
  { key: "zh-hant", name: "Chinese (Traditional)", spec: "zh-Hant", platform: ["zh-TW"], aliases: ["zh-HK", "zh-MO", "zh-Hant-TW", "zh-Hant-HK", "zh-cht"] },
  { key: "nl", name: "Dutch", spec: "nl", platform: [], aliases: [] },
  { key: "en", name: "English", spec: "en", platform: [], aliases: [] },
  { key: "fi", name: "Finnish", spec: "fi", platform: [], aliases: [] },
  { key: "fr", name: "French", spec: "fr", platform: [], aliases: [] },
  { key: "de", name: "German", spec: "de", platform: [], aliases: [] },
  { key: "he", name: "Hebrew", spec: "he", platform: [], aliases: ["iw"] },
  { key: "hi", name: "Hindi", spec: "hi", platform: [], aliases: [] },
  { key: "hu", name: "Hungarian", spec: "hu", platform: [], aliases: [] },
  { key: "id", name: "Indonesian", spec: "id", platform: [], aliases: ["in"] },
  { key: "it", name: "Italian", spec: "it", platform: [], aliases: [] },
  { key: "ja", name: "Japanese", spec: "jp", platform: ["ja", "ja-JP"], aliases: [] },
  { key: "ko", name: "Korean", spec: "ko", platform: [], aliases: [] },
  { key: "lv", name: "Latvian", spec: "lv", platform: [], aliases: [] },
  { key: "no", name: "Norwegian", spec: "no", platform: [], aliases: ["nb", "nn"] },
  { key: "pl", name: "Polish", spec: "pl", platform: [], aliases: [] },
  { key: "pt-br", name: "Portuguese (Brazil)", spec: "pt-BR", platform: [], aliases: [], within: "pt" },
  { key: "ro", name: "Romanian", spec: "ro", platform: [], aliases: [] },
  { key: "ru", name: "Russian", spec: "ru", platform: [], aliases: [] },
  { key: "es", name: "Spanish", spec: "es", platform: [], aliases: [] },
  { key: "sv", name: "Swedish", spec: "sv", platform: [], aliases: [] },
  { key: "tr", name: "Turkish", spec: "tr", platform: [], aliases: [] },
  // The platform's internationalization guide lists `ua` for Ukrainian (in its Chinese edition).
  { key: "uk", name: "Ukrainian", spec: "uk", platform: ["ua"], aliases: [] },
  { key: "uz", name: "Uzbek", spec: "uz", platform: [], aliases: [] },
  { key: "vi", name: "Vietnamese", spec: "vi", platform: [], aliases: [] },
  { key: "pt", name: "Portuguese", platform: ["pt"], aliases: ["pt-PT"] },
  { key: "fr-ca", name: "French (Canada)", platform: ["fr-CA"], aliases: [], within: "fr" },
  // Listed by the platform's internationalization guide (2026), with `zh-TW` for Traditional
  // Chinese; a 36-language site (bolt) writes it.
  { key: "da", name: "Danish", platform: ["da"], aliases: [] },
];

/** How a written code relates to the table. */
export type LanguageForm =
  /** The specification's code, as written there. */
  | "spec"
  /** A code the platform documents (`zh`, `ja`, `zh-Hans`). */
  | "platform"
  /** Another form of a known language (`ko-KR`, `pt-br`, `EN`, `zh_TW`): read, with a warning. */
  | "alias";

export interface LanguageMatch {
  readonly language: Language;
  readonly form: LanguageForm;
}

/** Every code of a language, the specification's first. */
export function codesOf(language: Language): readonly string[] {
  return [...(language.spec !== undefined ? [language.spec] : []), ...language.platform];
}

/** The code `check` asks authors to write for a language: the specification's, else the platform's. */
export function preferredCode(language: Language): string {
  return codesOf(language)[0] ?? language.key;
}

const BY_EXACT = new Map<string, LanguageMatch>();
const BY_FOLDED = new Map<string, Language>();
for (const language of LANGUAGES) {
  if (language.spec !== undefined) BY_EXACT.set(language.spec, { language, form: "spec" });
  for (const code of language.platform) if (!BY_EXACT.has(code)) BY_EXACT.set(code, { language, form: "platform" });
  for (const code of [...codesOf(language), ...language.aliases]) BY_FOLDED.set(fold(code), language);
}

/** Case and separator do not make a different language: `PT_br` is `pt-br`. */
function fold(code: string): string {
  return code.trim().toLowerCase().replace(/_/g, "-");
}

/** A BCP 47 script (`Hant`), region (`TW`, `419`) or variant subtag, which narrows a language. */
const SUBTAG = /^(?:[a-z]{4}|[a-z]{2}|\d{3}|[a-z0-9]{5,8})$/;

/**
 * The language a written code stands for, and how it is written; undefined for a code the table
 * does not know (`English`, `xx`). Exact codes first, then case and `_` variants and aliases,
 * then a known code followed by subtags (`en-US`, `zh-Hant-TW`, `es-419`), longest prefix first.
 */
export function languageOf(code: string): LanguageMatch | undefined {
  const exact = BY_EXACT.get(code);
  if (exact !== undefined) return exact;
  const parts = fold(code).split("-");
  for (let n = parts.length; n >= 1; n--) {
    const language = BY_FOLDED.get(parts.slice(0, n).join("-"));
    if (language === undefined) continue;
    if (parts.slice(n).every((p) => SUBTAG.test(p))) return { language, form: "alias" };
    return undefined;
  }
  return undefined;
}

/** Whether two written codes name the same language (`cn` and `zh`, `jp` and `ja-JP`); codes the
 *  table does not know are the same only when equal but for case. */
export function sameLanguage(a: string, b: string): boolean {
  const la = languageOf(a)?.language;
  const lb = languageOf(b)?.language;
  if (la === undefined || lb === undefined) return la === lb && fold(a) === fold(b);
  return la === lb;
}

/**
 * The one of a site's languages (`known`, as docs.json writes them) that `arg` names, or
 * undefined: the code itself, then a case variant, then another code of the same language
 * (`cn` finds `zh`), then the broader or narrower language when the site has only one of them
 * (`pt` finds `pt-BR`, `fr-CA` finds `fr`). An ambiguous answer is no answer.
 */
export function findLanguage(arg: string, known: readonly string[]): string | undefined {
  const code = arg.trim();
  const unique = (matches: readonly string[]): string | undefined => (matches.length === 1 ? matches[0] : undefined);
  const wanted = languageOf(code)?.language;
  const related = (l: string): boolean => {
    const other = languageOf(l)?.language;
    return wanted !== undefined && other !== undefined && (other.within === wanted.key || wanted.within === other.key);
  };
  return (
    known.find((l) => l === code) ??
    unique(known.filter((l) => fold(l) === fold(code))) ??
    unique(known.filter((l) => wanted !== undefined && languageOf(l)?.language === wanted)) ??
    unique(known.filter(related))
  );
}

/** `zh (also cn, zh-Hans, zh-CN)`: a site's code with the other codes of its language, for
 *  messages that list what an argument may be. */
export function describeLanguageCode(code: string): string {
  const language = languageOf(code)?.language;
  if (language === undefined) return code;
  const others = codesOf(language).filter((c) => c !== code);
  return others.length > 0 ? `${code} (also ${others.join(", ")})` : code;
}

/** For an unknown code, the known code it most likely means (`kr` -> `ko`, `cz` -> `cs`). */
export function languageHint(code: string): string | undefined {
  return MISTAKES[fold(code)];
}

/** Codes that are not the language they are written for (a country code, a neighbour's code). */
const MISTAKES: Readonly<Record<string, string>> = {
  kr: "ko",
  se: "sv",
  cz: "cs",
  br: "pt-BR",
  tw: "zh-Hant",
  hk: "zh-Hant",
  chinese: "cn",
  english: "en",
  japanese: "jp",
};
