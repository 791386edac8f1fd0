/** The most distinct times kept: a site's files have a few thousand modification times, few of them changing. */
const MAX_KEPT = 8192;

const kept = new Map<number, string>();

/**
 * `date.toISOString()`, remembered per time value. A search answer gives each of its results
 * its page's modification time; V8 formats a date in its runtime (~1 µs each, ~1% of a worker's
 * CPU per search call under distinct questions, issue 23), and a site's pages share few times.
 * An invalid date is not kept: it throws as `toISOString` does.
 */
export function isoTime(date: Date): string {
  const time = date.getTime();
  let text = kept.get(time);
  if (text === undefined) {
    text = date.toISOString();
    if (kept.size >= MAX_KEPT) kept.clear();
    kept.set(time, text);
  }
  return text;
}
