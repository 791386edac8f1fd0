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
 * text before it, `everyone`), a part for a new group (each class is split by the new rule, each
 * half compared with what the class read), the last one removed (readers who read the parts are
 * told apart by those parts' rules, here kept, until an edit gives them all one time again, when
 * the old rules are let go).
 *
 * A class split keeps the half the new rules refuse (readers outside the new groups: their text
 * is most often the one they read) and the halves of readers who read the file before, as far as
 * they are known (`readers`). Every half kept is one more variant rendered at each edit: split
 * by every new rule, a 1,500-operation spec gaining five groups at once kept 32 classes, and each
 * save after held callers 4-8 s instead of 1-2 s.
 * A class no one is known in is dated, when first read, by the version it is first read in, as at
 * a start; so is one past `LIMITS.load.maxTimedClasses`.
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
    /** Readers (and the classes `timeFor` dates for) known to have read the file, the most recent last. */
    private readonly readers: Map<string, (rule: Access) => boolean>,
  ) {}

  /** A file every reader of it was served whole (a file without restricted parts). */
  static everyone(file: SiteFile): VariantTimes {
    return new VariantTimes([], [], new Map([["", { text: () => file.text, mtime: file.mtime }]]), file, new Map());
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
    const added = all.slice(previous?.rules.length ?? 0);
    const readers = new Map(previous?.readers);
    // The halves of each class: the one the new rules refuse, and each known reader's.
    const halves = new Map<string, Set<string>>();
    for (const key of previous?.seen.keys() ?? []) halves.set(key, new Set([key + added.map(() => "0").join("")]));
    for (const reads of readers.values()) {
      const outcome = bits(all.map(reads));
      halves.get(outcome.slice(0, outcome.length - added.length))?.add(outcome);
    }
    const seen = new Map<string, Seen>();
    const texts = new Map<string, string>();
    const textFor = (allowed: readonly boolean[]): string => {
      const key = bits(allowed);
      let text = texts.get(key);
      if (text === undefined) texts.set(key, (text = textOf(allowed)));
      return text;
    };
    for (const [key, was] of previous?.seen ?? []) {
      let before: string | undefined;
      for (const outcome of halves.get(key) ?? []) {
        if (seen.size >= LIMITS.load.maxTimedClasses || !possible(all, outcome)) continue;
        // Each half keeps the class's time when it is served what the class was.
        const text = textFor(current.map((at) => outcome[at] === "1"));
        before ??= was.text();
        seen.set(outcome, { text: () => text, mtime: text === before ? was.mtime : file.mtime });
      }
    }
    return new VariantTimes(...forget(all, current, seen), file, readers);
  }

  /** The class of a reader (`id` who they are, `reads` their outcome on a rule), who is remembered as having read the file. */
  classOf(id: string, reads: (rule: Access) => boolean): string {
    // The most recent last; the least recent forgotten past the bound.
    this.readers.delete(id);
    this.readers.set(id, reads);
    if (this.readers.size > LIMITS.load.maxTimedClasses) this.readers.delete(this.readers.keys().next().value as string);
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
