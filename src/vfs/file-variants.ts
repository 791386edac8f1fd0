import { type Access, type AuthMode, type Reader, accessKey, canRead, readerKey, readersCover } from "./access.js";
import type { Page } from "./page.js";
import { byteLength, type SiteFile } from "./site-file.js";
import { VariantTimes } from "./variant-times.js";

/**
 * A file whose bytes depend on who reads it: parts of it have access rules of their own (an
 * API operation restricted to some groups, an imported restricted snippet). Each reader sees
 * the file without the parts they may not read.
 *
 * Readers are grouped by *access class*: the outcome of `canRead` on each of the file's rules.
 * Readers with the same outcome share one variant, built when the first of them reads it and
 * kept for the life of the site snapshot (never one copy per reader); a reader who may read
 * every part gets the file itself, byte for byte.
 */
export class FileVariants {
  /** Variants built, by class: the outcomes on the file's rules, and the class's time. */
  private readonly cache = new Map<string, { file: SiteFile; page: Page | undefined }>();
  private constructor(
    /** The file as written. */
    readonly file: SiteFile,
    /** Distinct rules, each deciding some parts. */
    readonly rules: readonly Access[],
    /** The text for readers who may read the parts of `rules[i]` exactly where `allowed[i]`. */
    private readonly render: (allowed: readonly boolean[]) => string | undefined,
    /** The page the file is, if it is one. */
    readonly page: Page | undefined,
    /** What the rules were derived from, to reuse this (and its built variants) in the next snapshot. */
    readonly signature: string,
    /** Outcomes for which the file is not shown at all (its parts cannot be told apart). */
    private readonly hidden: ((allowed: readonly boolean[]) => boolean) | undefined,
    /**
     * When each class's variant last changed (`VariantTimes`), carried from the previous version of
     * the file: a reader's variant keeps its time across edits that change only parts they may not
     * read, and across changes of the file's rules that leave their bytes as they were.
     */
    readonly times: VariantTimes,
    /** Texts rendered, by the outcomes on the file's rules (those the times compared, to start). */
    private readonly texts: Map<string, string>,
  ) {}

  /**
   * The variants of `file` under `rules` (`render` a class's text, see the constructor), dated
   * from `times`, the times of the previous version of this path (`VariantTimes.everyone` of one
   * without variants). Made in turns (`VariantTimes.of`): the classes compared are rendered
   * while the snapshot before keeps answering.
   */
  static async of(
    file: SiteFile,
    rules: readonly Access[],
    render: (allowed: readonly boolean[]) => string | undefined,
    page?: Page,
    signature = "",
    hidden?: (allowed: readonly boolean[]) => boolean,
    times?: VariantTimes,
  ): Promise<FileVariants> {
    const texts = new Map<string, string>();
    const made = await VariantTimes.of(times, file, rules, (allowed) => textOf(file, render, texts, allowed), madeAgain(file, render));
    return new FileVariants(file, rules, render, page, signature, hidden, made, texts);
  }

  /**
   * The times of a file without restricted parts now, kept while they date some of its readers
   * otherwise than the file (their bytes unchanged since before its last restricted part went):
   * undefined when there is nothing to keep.
   */
  static async timesOnly(file: SiteFile, page: Page | undefined, previous: FileVariants): Promise<FileVariants | undefined> {
    const kept = reuse(previous, file, TIMES_ONLY);
    if (kept !== undefined) return kept;
    const variants = await FileVariants.of(file, [], () => file.text, page, TIMES_ONLY, undefined, previous.times);
    return variants.times.moot() ? undefined : variants;
  }

  /** `timesOnly` at a start: the times a memory kept across starts recalls (`VariantTimes.recalled`). */
  static async recalledOnly(file: SiteFile, page: Page | undefined, recalled: VariantTimes): Promise<FileVariants | undefined> {
    const variants = await FileVariants.of(file, [], () => file.text, page, TIMES_ONLY, undefined, recalled);
    return variants.times.moot() ? undefined : variants;
  }

  /**
   * What `reader` sees: the file itself, its variant for the reader's class, or nothing. A
   * variant's text is built when first read (a view lists and globs without reading); the
   * shell worker reads it when the view is sent there.
   */
  forReader(reader: Reader, mode: AuthMode): { file: SiteFile; page: Page | undefined } | undefined {
    const reads = (rule: Access): boolean => canRead(rule, reader, mode);
    return this.forClass(this.times.classOf(`${mode} ${readerKey(reader)}`, reads), reads);
  }

  /**
   * The time of the file as readers who may read exactly the parts every reader of `access`
   * may read see it (a page generated from one operation of a spec is dated by the parts all its
   * readers see, never by a part some of them may not read).
   */
  timeFor(access: Access): Date {
    const reads = (rule: Access): boolean => readersCover(access, rule);
    return this.forClass(this.times.classOf(`readers of ${accessKey(access)}`, reads), reads)?.file.mtime ?? this.file.mtime;
  }

  private forClass(outcome: string, reads: (rule: Access) => boolean): { file: SiteFile; page: Page | undefined } | undefined {
    const allowed = this.times.allowed(outcome);
    const everything = allowed.every(Boolean);
    if (!everything && this.hidden?.(allowed) === true) return undefined;
    const mtime = this.times.timeOf(outcome, reads, () => this.textOf(allowed));
    // A reader of every part, dated as the file is, reads the file itself.
    if (everything && mtime.getTime() === this.file.mtime.getTime()) return { file: this.file, page: this.page };
    // Readers served the same bytes since the same time share one variant.
    const key = `${allowed.map((a) => (a ? "1" : "0")).join("")}@${mtime.getTime()}`;
    let variant = this.cache.get(key);
    if (variant === undefined) {
      variant = this.build(allowed, mtime);
      this.cache.set(key, variant);
    }
    return variant;
  }

  /** The text of readers who may read the parts of `rules[i]` exactly where `allowed[i]`, made once. */
  private textOf(allowed: readonly boolean[]): string {
    return textOf(this.file, this.render, this.texts, allowed);
  }

  private build(allowed: readonly boolean[], mtime: Date): { file: SiteFile; page: Page | undefined } {
    const source = this.file;
    let size: number | undefined;
    const textOf = (): string => this.textOf(allowed);
    const file: SiteFile = {
      path: source.path,
      get text() {
        return textOf();
      },
      get size() {
        return (size ??= byteLength(textOf()));
      },
      mtime,
      access: source.access,
    };
    const page = this.page;
    if (page === undefined) return { file, page: undefined };
    // The parts are in the body: the front matter, and so the body's first line, are the page's.
    const bodyStart = source.text.length - page.body.length;
    return {
      file,
      page: {
        ...page,
        file,
        get body() {
          return textOf().slice(bodyStart);
        },
      },
    };
  }
}

/** The text of a class (`FileVariants.textOf`), kept in `texts`: the file itself for a reader of every part. */
function textOf(file: SiteFile, render: (allowed: readonly boolean[]) => string | undefined, texts: Map<string, string>, allowed: readonly boolean[]): string {
  if (allowed.every(Boolean)) return file.text;
  const key = allowed.map((a) => (a ? "1" : "0")).join("");
  let text = texts.get(key);
  // A variant that cannot be built reads as empty: `hidden` has said which ones are not shown.
  if (text === undefined) texts.set(key, (text = render(allowed) ?? ""));
  return text;
}

/**
 * A class's text made again from the file, for the version after to look back at (`VariantTimes`):
 * made outside the object, whose variants and texts the closure would otherwise keep alive.
 */
function madeAgain(file: SiteFile, render: (allowed: readonly boolean[]) => string | undefined): (allowed: readonly boolean[]) => string {
  return (allowed) => (allowed.every(Boolean) ? file.text : (render(allowed) ?? ""));
}

/** The signature of `FileVariants.timesOnly`: a file with no rules, only times. */
const TIMES_ONLY = "times only";

/** The distinct rules among `accesses`, and each one's index there. */
export function distinctRules(accesses: readonly Access[]): { rules: Access[]; index: number[] } {
  const keys = new Map<string, number>();
  const rules: Access[] = [];
  const index = accesses.map((a) => {
    const key = accessKey(a);
    let i = keys.get(key);
    if (i === undefined) {
      i = rules.length;
      keys.set(key, i);
      rules.push(a);
    }
    return i;
  });
  return { rules, index };
}

/** The previous snapshot's variants of the same file and rules (with the variants built so far), if any. */
export function reuse(previous: FileVariants | undefined, file: SiteFile, signature: string): FileVariants | undefined {
  return previous !== undefined && previous.file === file && previous.signature === signature ? previous : undefined;
}

