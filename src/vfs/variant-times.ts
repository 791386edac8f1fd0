import { type Access, accessKey } from "./access.js";
import { LIMITS } from "../limits.js";
import { nextTurn } from "../turns.js";
import type { SiteFile } from "./site-file.js";

/**
 * What a memory kept across a start (`RememberedTimes`) says of a class: the time it remembers
 * for a class that may read exactly `passed` of the file's rules, when `text` (the class's bytes
 * now) is what the class was served then; else undefined.
 */
export type Recall = (passed: readonly Access[], text: () => string) => Date | undefined;

/** What one class of readers was served of a file, and since when (`text` made when first needed). */
interface Seen {
  readonly text: () => string;
  readonly mtime: Date;
}

/**
 * The version before, as far as a class not remembered needs it: that version's rules, the times
 * of its classes, its least class's time, and its text for a class, made again when asked (not
 * the version's variants: they and their times would hold every version before).
 */
interface Before {
  readonly rules: readonly Access[];
  readonly current: readonly number[];
  readonly times: ReadonlyMap<string, Date>;
  readonly least: Date;
  readonly render: (allowed: readonly boolean[]) => string;
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
 *
 * The least class (refused every rule a reader can be refused: the anonymous reader of a site
 * with groups) is always kept, first, whatever `LIMITS.load.maxTimedClasses`: other readers'
 * classes, and the pages of a spec dated by theirs (`FileVariants.timeFor`), cannot push it out.
 * A class not remembered (first read, or past the bound) is dated by its own bytes too, never by
 * the file's time: by what it was served by the version before (`Before`): that version's time
 * for it when that version remembered it, else that version's least class's time (what every
 * reader's bytes hold: older than the class's last change when that was a change of its own
 * parts, newer only when a part the class reads was taken from everyone); a class whose
 * bytes differ from the version before's is dated as changed in this version. Before, such a
 * class took the file's time: the time of an edit of any group's part (adversary round 48 F2,
 * F6). At a start nothing is known before, and every class is dated as the file is, or by a
 * memory kept across starts (`recalled`, `RememberedTimes`: its time for the class when the
 * class's bytes are what it remembers).
 *
 * A class whose bytes changed though the file did not (another file changed the file's rules: a
 * snippet's `groups`, a page starting to document an operation) is dated a millisecond after its
 * time before: the file's time is then of an earlier edit, perhaps of parts it may not read, and
 * the time of the file that caused it of what else that file did; before, it kept its time while
 * its bytes changed (adversary round 48 F5).
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
    /** This version's text for a class, made again (for the version after, `Before`). */
    private readonly render: (allowed: readonly boolean[]) => string,
    /** What the version before served; undefined at a start, null once the version after has
     *  taken it (only the newest version looks back: the versions before are let go). */
    private before: Before | undefined | null,
    /** The time a class whose bytes changed in this version is given after `was`, its time before. */
    private readonly changed: (was: Date) => Date,
    /** At a start (`before` undefined): a memory of the times before it (`recalled`). */
    private readonly recall?: Recall,
  ) {}

  /**
   * Nothing known before `file` but what a memory kept across a start recalls (`RememberedTimes`):
   * taken by `of` as no previous version, each class dated by `recall` where its bytes are what
   * the memory says it was served, else by the file's time as at any start.
   */
  static recalled(file: SiteFile, recall: Recall): VariantTimes {
    return new VariantTimes([], [], new Map(), file, new Map(), () => file.text, undefined, () => file.mtime, recall);
  }

  /** A file every reader of it was served whole (a file without restricted parts). */
  static everyone(file: SiteFile): VariantTimes {
    return new VariantTimes([], [], new Map([["", { text: () => file.text, mtime: file.mtime }]]), file, new Map(), () => file.text, undefined, () => file.mtime);
  }

  /**
   * The times of `file`, whose rules are now `rules` (`textOf` a class's text by their outcomes),
   * after `previous` (none at a start). Compared now, not when first read: a class's time is that
   * of the version that changed its text, not of a later edit of other parts made before it was
   * read again.
   *
   * The thread is given back after each text a class is compared by (`nextTurn`): the file
   * rendered for the class, and the version before's when it had not been made (a 600-operation
   * spec ~50-120 ms each, up to two for each of `LIMITS.load.maxTimedClasses` classes), which in
   * one stretch held every caller 3-6 s at a save of a spec restricted to 70 groups. The snapshot
   * being replaced keeps answering meanwhile: what it remembers is taken as it was when this
   * began (its classes, its readers), and what it learns meanwhile is looked back at through
   * `Before`, taken at the end.
   */
  static async of(
    previous: VariantTimes | undefined,
    file: SiteFile,
    rules: readonly Access[],
    textOf: (allowed: readonly boolean[]) => string,
    render: (allowed: readonly boolean[]) => string = textOf,
  ): Promise<VariantTimes> {
    // A memory recalled at a start (`recalled`, the one instance with no class) is no version
    // before, only what dates the classes of this one, the start (not the versions after it).
    const recall = previous?.seen.size === 0 ? previous.recall : undefined;
    if (previous?.seen.size === 0) previous = undefined;
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
    // Read while this snapshot still answers, between turns: taken as they are now.
    const classes = [...(previous?.seen ?? [])];
    for (const [key] of classes) halves.set(key, new Set([key + added.map(() => "0").join("")]));
    for (const reads of readers.values()) {
      const outcome = bits(all.map(reads));
      halves.get(outcome.slice(0, outcome.length - added.length))?.add(outcome);
    }
    // An edit of the file dates what it changed by the file's time; a change made by another file
    // (the file as it was) a millisecond after each class's own time.
    const edited = previous === undefined || previous.file.mtime.getTime() !== file.mtime.getTime() || previous.file.text !== file.text;
    const changed = (was: Date): Date => (edited && file.mtime.getTime() !== was.getTime() ? file.mtime : new Date(was.getTime() + 1));
    const seen = new Map<string, Seen>();
    const texts = new Map<string, string>();
    const textFor = (allowed: readonly boolean[]): string => {
      const key = bits(allowed);
      let text = texts.get(key);
      if (text === undefined) texts.set(key, (text = textOf(allowed)));
      return text;
    };
    // The least class first, whatever the bound: it is what other classes not remembered fall back to.
    const least = leastOf(all);
    if (previous === undefined) {
      const text = (): string => textFor(current.map((at) => least[at] === "1"));
      // Recalled when first asked (the text is then made, and hashed), as a class is first read.
      let mtime: Date | undefined;
      const recalled = (): Date => (mtime ??= recall?.(passedRules(all, least), text) ?? file.mtime);
      seen.set(least, recall === undefined ? { text, mtime: file.mtime } : { text, get mtime() { return recalled(); } });
    } else {
      const was = previous.seen.get(least.slice(0, previous.rules.length)) ?? previous.leastSeen();
      const text = textFor(current.map((at) => least[at] === "1"));
      await nextTurn();
      seen.set(least, { text: () => text, mtime: text === was.text() ? was.mtime : changed(was.mtime) });
      await nextTurn();
    }
    for (const [key, was] of classes) {
      let before: string | undefined;
      for (const outcome of halves.get(key) ?? []) {
        if (seen.size >= LIMITS.load.maxTimedClasses || seen.has(outcome) || !possible(all, outcome)) continue;
        // Each half keeps the class's time when it is served what the class was.
        const text = textFor(current.map((at) => outcome[at] === "1"));
        await nextTurn();
        before ??= was.text();
        seen.set(outcome, { text: () => text, mtime: text === before ? was.mtime : changed(was.mtime) });
        await nextTurn();
      }
    }
    let before: Before | undefined;
    if (previous !== undefined) {
      before = { rules: previous.rules, current: previous.current, times: new Map([...previous.seen].map(([k, v]) => [k, v.mtime])), least: previous.leastSeen().mtime, render: previous.render };
      // Only the newest version looks back (each version would otherwise hold all before it).
      previous.before = null;
    }
    return new VariantTimes(...forget(all, current, seen), file, readers, render, before, changed, recall);
  }

  /** The least class's times: kept in every version (`of`). */
  private leastSeen(): Seen {
    const seen = this.seen.get(leastOf(this.rules));
    if (seen === undefined) throw new Error(`variant times of ${this.file.path} without the least class`);
    return seen;
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

  /**
   * The time of a class (`reads` its readers' outcome on a rule, `text` what it is served now):
   * remembered, or worked out from its bytes in the version before (see the class's comment), and
   * then remembered for this version (the next keeps those `LIMITS.load.maxTimedClasses` allows).
   */
  timeOf(outcome: string, reads: (rule: Access) => boolean, text: () => string): Date {
    const known = this.seen.get(outcome);
    if (known !== undefined) return known.mtime;
    const mtime = this.unknown(outcome, reads, text);
    this.seen.set(outcome, { text, mtime });
    return mtime;
  }

  private unknown(key: string, reads: (rule: Access) => boolean, text: () => string): Date {
    const before = this.before;
    // At a start nothing is known before: every class is dated as the file is, or as a memory
    // kept across the start recalls it (its bytes then what they are now).
    if (before === undefined) return this.recall?.(passedRules(this.rules, key), text) ?? this.file.mtime;
    // Let go by a newer version (a read of a snapshot already replaced): what every reader holds.
    if (before === null) return this.leastSeen().mtime;
    const outcome = bits(before.rules.map(reads));
    const was = before.times.get(outcome) ?? before.least;
    return text() === before.render(before.current.map((at) => outcome[at] === "1")) ? was : this.changed(was);
  }

  /**
   * Each class dated so far: which of the file's rules now it may read (`passed`), its outcomes
   * on the rules kept from earlier versions (`kept`, in their order), its bytes and its time. For
   * a memory kept across a start (`RememberedTimes`).
   */
  *classes(): Iterable<{ readonly passed: readonly Access[]; readonly kept: string; readonly text: () => string; readonly mtime: Date }> {
    const now = new Set(this.current);
    for (const [outcome, seen] of this.seen) {
      const passed = this.current.filter((at) => outcome[at] === "1").map((at) => this.rules[at] as Access);
      const kept = [...this.rules.keys()].filter((at) => !now.has(at)).map((at) => outcome[at]).join("");
      yield { passed, kept, text: seen.text, mtime: seen.mtime };
    }
  }

  /** Whether every class is dated as the file is, and no old rule is kept: nothing to remember. */
  moot(): boolean {
    return this.rules.length === 0 && [...this.seen.values()].every((s) => s.mtime.getTime() === this.file.mtime.getTime());
  }
}

/** The least class over `rules`: what a reader refused every rule they can be refused reads (a public rule anyone reads). */
function leastOf(rules: readonly Access[]): string {
  return rules.map((rule) => (rule.public === true ? "1" : "0")).join("");
}

/** The rules of `rules` a class of these outcomes may read. */
function passedRules(rules: readonly Access[], outcome: string): Access[] {
  return rules.filter((_, i) => outcome[i] === "1");
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
