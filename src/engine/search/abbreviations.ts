/**
 * Short forms that docs and questions write for the same word (issue 24): a question about
 * "auth" must find the page titled Authentication, and "configuration" the page that only says
 * `config`. Prefix matching covers one direction weakly (`auth` starts `authentication`, weighted
 * by the length ratio and only for rare words) and the other not at all. Each form stands in for
 * the others at `aliasWeight` (ranking.ts), both ways, as the query is read; the index is unchanged.
 *
 * Only forms with one meaning in docs are listed: `app` (`application/json`), `doc` (document)
 * and `temp` (temperature) are not, nor `stats`, whose stem `stat` is also `state`'s. Nor
 * two-letter forms (`db`, `ws`, `tz`): they are mostly parts of identifiers and paths (`dbs`,
 * `ws://`), and "my own vector database" matched every page under `/vectordbs/dbs/` on Mem0's docs.
 */
/** A short form, then the long forms it stands for. */
const FORMS: readonly (readonly [string, ...string[]])[] = [
  ["auth", "authentication", "authorization"],
  ["config", "configuration"],
  ["env", "environment"],
  ["repo", "repository"],
  ["admin", "administrator"],
  ["info", "information"],
  ["param", "parameter"],
  ["arg", "argument"],
  ["dev", "development"],
  ["prod", "production"],
  ["msg", "message"],
  ["dir", "directory"],
  ["org", "organization"],
  ["perm", "permission"],
  ["cert", "certificate"],
  ["creds", "credentials"],
  ["pwd", "password"],
  ["dep", "dependency"],
  ["impl", "implementation"],
  ["spec", "specification"],
  ["lib", "library"],
  ["pkg", "package"],
  ["img", "image"],
  ["eval", "evaluation"],
  ["sync", "synchronization"],
  ["async", "asynchronous"],
  ["k8s", "kubernetes"],
  ["i18n", "internationalization"],
  ["l10n", "localization"],
  ["a11y", "accessibility"],
  ["mfa", "multi-factor"],
  ["2fa", "two-factor"],
];

/**
 * Each form's stand-ins as index terms (`term` is the analyzer's, so `authentication` is looked
 * up as its stem): the short form stands in for each long one and each long one for the short,
 * never two long forms for each other (`auth` is both, authentication is not authorization).
 */
export function abbreviationTable(term: (word: string) => string | null): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const link = (from: string, to: string): void => {
    const list = out.get(from) ?? [];
    if (from !== to && !list.includes(to)) out.set(from, [...list, to]);
  };
  for (const [shortForm, ...longForms] of FORMS) {
    const s = term(shortForm as string);
    if (s === null) continue;
    for (const long of longForms) {
      const l = term(long);
      if (l === null) continue;
      link(s, l);
      link(l, s);
    }
  }
  return out;
}
