import { type Access, accessKey } from "./access.js";
import { LIMITS } from "../limits.js";
import type { SiteFile } from "./site-file.js";

/** What one class of readers was served of a file, and since when (`text` made when first needed). */
interface Seen {
  readonly text: () => string;
  readonly mtime: Date;
}

/**
 * When each class of readers' copy of a file last changed, kept from one version of the file to
 * the next (a file with restricted parts, `FileVariants`): a reader is dated by the version that
 * last changed the bytes they are served, so their time (`ls -l`, `stat`, a search hit's and a
 * result's `lastModified`, the provenance commit and live-reload events, which follow from it)
 * tells them nothing about parts they may not read.
 *
 * A class is the outcome of the reader on every rule this memory holds: the file's rules now, and
 * rules it had before that still tell apart readers with different times. So a change of the rule
 * set moves no reader whose bytes stay the same: the first restricted part (everyone read one
 * text before it, `everyone`), a part for a new group (each class splits by the new rule, each
 * half compared with what the class read), the last one removed (readers who read the parts are
 * told apart by those parts' rules, here kept, until an edit gives them all one time again, when
 * the old rules are let go). A class first read after the file changed is dated by the version it
 * first read, as at a start. At most `LIMITS.load.maxTimedClasses` classes are kept.
 */
export class VariantTimes {
  private constructor(
    /** Every rule a class is told by: `current` among them, then those kept from earlier versions. */
    readonly rules: readonly Access[],
    /** Where each of the file's rules now is in `rules`. */
    private readonly current: readonly number[],
    /** By class: `rules`' outcomes as `0`/`1`. */
    private readonly seen: Map<string, Seen>,
    /** The file version these times are of. */
    private readonly file: SiteFile,
  ) {}

  /** A file every reader of it was served whole (a file without restricted parts). */
  static everyone(file: SiteFile): VariantTimes {
    return new VariantTimes([], [], new Map([["", { text: () => file.text, mtime: file.mtime }]]), file);
  }

  /**
   * The times of `file`, whose rules are now `rules` (`textOf` a class's text by their outcomes),
   * after `previous` (none at a start). Compared now, not when first read: a class's time is that
   * of the version that changed its text, not of a later edit of other parts made before it was
   * read again.
   */
  static of(previous: VariantTimes | undefined, file: SiteFile, rules: readonly Access[], textOf: (allowed: readonly boolean[]) => string): VariantTimes {
    const all = [...(previous?.rules ?? [])];
    const keys = all.map(accessKey);
    const current = rules.map((rule) => {
      const key = accessKey(rule);
      let at = keys.indexOf(key);
      if (at < 0) {
        at = all.length;
        all.push(rule);
        keys.push(key);
      }
      return at;
    });
    const added = all.length - (previous?.rules.length ?? 0);
    const seen = new Map<string, Seen>();
    const texts = new Map<string, string>();
    const textFor = (allowed: readonly boolean[]): string => {
      const key = bits(allowed);
      let text = texts.get(key);
      if (text === undefined) texts.set(key, (text = textOf(allowed)));
      return text;
    };
    // Each class read before, split by the rules new to the file: each half keeps its time when
    // it is served what the class was.
    // The halves tried are bounded as the classes are: past them, a class's readers are dated as
    // a class first read (many groups new at once, each a rule, would be 2^n halves).
    let tried = 0;
    for (const [key, was] of previous?.seen ?? []) {
      let before: string | undefined;
      for (let split = 0; split < 2 ** added && tried < 4 * LIMITS.load.maxTimedClasses && seen.size < LIMITS.load.maxTimedClasses; split++, tried++) {
        let outcome = key;
        // `split` stays under 2^8 (`tried`); JavaScript shifts count modulo 32, so no shift past 30.
        for (let i = added - 1; i >= 0; i--) outcome += i < 30 && (split >> i) & 1 ? "1" : "0";
        if (!possible(all, outcome)) continue;
        const text = textFor(current.map((at) => outcome[at] === "1"));
        before ??= was.text();
        seen.set(outcome, { text: () => text, mtime: text === before ? was.mtime : file.mtime });
      }
    }
    return new VariantTimes(...forget(all, current, seen), file);
  }

  /** The outcomes of a reader on `rules`: `0`/`1` each, the class's key. */
  classOf(reads: (rule: Access) => boolean): string {
    return bits(this.rules.map(reads));
  }

  /** Which of the file's rules now a class may read. */
  allowed(outcome: string): boolean[] {
    return this.current.map((at) => outcome[at] === "1");
  }

  /** The time of a class (`text` what it is served now): remembered, or this version's when it is first read. */
  timeOf(outcome: string, text: () => string): Date {
    const known = this.seen.get(outcome);
    if (known !== undefined) return known.mtime;
    if (this.seen.size < LIMITS.load.maxTimedClasses) this.seen.set(outcome, { text, mtime: this.file.mtime });
    return this.file.mtime;
  }

  /** Whether every class is dated as the file is, and no old rule is kept: nothing to remember. */
  moot(): boolean {
    return this.rules.length === 0 && [...this.seen.values()].every((s) => s.mtime.getTime() === this.file.mtime.getTime());
  }
}

function bits(allowed: readonly boolean[]): string {
  return allowed.map((a) => (a ? "1" : "0")).join("");
}

/**
 * Whether some reader has these outcomes on `rules` (as `canRead` decides them): a public rule
 * lets everyone read; every rule without groups decides alike (sign-in on a fully authenticated
 * site), and a reader it refuses is anonymous, in no group; a rule with groups lets a reader
 * read when one of their groups is in it. So a split makes no class no reader can be in.
 */
function possible(rules: readonly Access[], outcome: string): boolean {
  const refused = new Set<string>();
  let open: boolean | undefined;
  for (const [i, rule] of rules.entries()) {
    const yes = outcome[i] === "1";
    if (rule.public === true) {
      if (!yes) return false;
    } else if (rule.groups === undefined || rule.groups.length === 0) {
      if (open !== undefined && open !== yes) return false;
      open = yes;
    } else if (!yes) {
      for (const g of rule.groups) refused.add(g);
    }
  }
  for (const [i, rule] of rules.entries()) {
    if (rule.public === true || rule.groups === undefined || rule.groups.length === 0 || outcome[i] !== "1") continue;
    if (open === false || rule.groups.every((g) => refused.has(g))) return false;
  }
  return true;
}

/**
 * The rules kept from earlier versions that still tell apart classes of different times, and the
 * classes over what is kept. A rule no class needs (the classes it splits have one time) is let
 * go, so an edit that gives all a file's readers one time again leaves nothing of the old rules.
 * A rule kept splits two classes that differ in it alone, and rules so kept are fewer than the
 * classes (two classes joined by rules all different make no cycle): with the classes bounded
 * (`LIMITS.load.maxTimedClasses`), so are the rules.
 */
function forget(rules: readonly Access[], current: readonly number[], seen: Map<string, Seen>): [Access[], number[], Map<string, Seen>] {
  let kept = [...rules.keys()];
  let classes = seen;
  const now = new Set(current);
  for (const at of rules.keys()) {
    if (now.has(at)) continue;
    const merged = without(classes, kept.indexOf(at));
    if (merged === undefined) continue;
    classes = merged;
    kept = kept.filter((k) => k !== at);
  }
  return [kept.map((k) => rules[k] as Access), current.map((at) => kept.indexOf(at)), classes];
}

/** The classes with the outcome of rule `i` left out; undefined when two of them it would join differ in time. */
function without(seen: ReadonlyMap<string, Seen>, i: number): Map<string, Seen> | undefined {
  const out = new Map<string, Seen>();
  for (const [key, s] of seen) {
    const merged = key.slice(0, i) + key.slice(i + 1);
    const other = out.get(merged);
    if (other === undefined) out.set(merged, s);
    else if (other.mtime.getTime() !== s.mtime.getTime()) return undefined;
  }
  return out;
}
