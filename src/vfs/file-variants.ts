import { type Access, type AuthMode, type Reader, canRead, readersCover } from "./access.js";
import type { Page } from "./page.js";
import { byteLength, type SiteFile } from "./site-file.js";

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
  private readonly cache = new Map<string, { file: SiteFile; page: Page | undefined }>();
  /**
   * When each variant last changed, as far as this process has seen, by access class: its text
   * then, and the time of the file version that brought that text. Shared with the next
   * snapshot's variants of the same path (`times` of the constructor), so a reader's variant
   * keeps its time across edits that change only parts they may not read: its time (`ls -l`,
   * `stat`, a folder's, a search hit's and a result's `lastModified`) tells them nothing about
   * restricted parts. A class first read after the file changed gets the file's time.
   */
  readonly times: Map<string, { readonly text: string; readonly mtime: Date }>;

  constructor(
    /** The file as written. */
    readonly file: SiteFile,
    /** Distinct rules, each deciding some parts. */
    readonly rules: readonly Access[],
    /** The text for readers who may read the parts of `rules[i]` exactly where `allowed[i]`. */
    private readonly render: (allowed: readonly boolean[]) => string | undefined,
    /** The page the file is, if it is one. */
    readonly page?: Page,
    /** What the rules were derived from, to reuse this (and its built variants) in the next snapshot. */
    readonly signature: string = "",
    /** Outcomes for which the file is not shown at all (its parts cannot be told apart). */
    private readonly hidden?: (allowed: readonly boolean[]) => boolean,
    /** The previous snapshot's `times` of this path: each class read before is compared now. */
    times?: Map<string, { readonly text: string; readonly mtime: Date }>,
  ) {
    this.times = times ?? new Map();
    // Now, not when first read: a class's time must come from the version that changed its text,
    // not from a later edit of other parts made before anyone read it again.
    for (const [key, seen] of [...this.times]) {
      const allowed = [...key].map((c) => c === "1");
      if (allowed.length !== rules.length) {
        this.times.delete(key);
        continue;
      }
      const text = allowed.every(Boolean) ? file.text : (render(allowed) ?? "");
      if (text !== seen.text) this.times.set(key, { text, mtime: file.mtime });
    }
  }

  /**
   * What `reader` sees: the file itself, its variant for the reader's class, or nothing. A
   * variant's text is built when first read (a view lists and globs without reading); the
   * shell worker reads it when the view is sent there.
   */
  forReader(reader: Reader, mode: AuthMode): { file: SiteFile; page: Page | undefined } | undefined {
    return this.forAllowed(this.rules.map((r) => canRead(r, reader, mode)));
  }

  /**
   * The time of the file as readers who may read exactly the parts every reader of `access`
   * may read see it (a page generated from one operation of a spec is dated by the parts all its
   * readers see, never by a part some of them may not read).
   */
  timeFor(access: Access): Date {
    return this.forAllowed(this.rules.map((r) => readersCover(access, r)))?.file.mtime ?? this.file.mtime;
  }

  private forAllowed(allowed: readonly boolean[]): { file: SiteFile; page: Page | undefined } | undefined {
    if (allowed.every(Boolean)) return { file: this.file, page: this.page };
    if (this.hidden?.(allowed) === true) return undefined;
    const key = allowed.map((a) => (a ? "1" : "0")).join("");
    let variant = this.cache.get(key);
    if (variant === undefined) {
      variant = this.build(allowed, key);
      this.cache.set(key, variant);
    }
    return variant;
  }

  private build(allowed: readonly boolean[], key: string): { file: SiteFile; page: Page | undefined } {
    const source = this.file;
    let text: string | undefined;
    let size: number | undefined;
    // A variant that cannot be built reads as empty: `hidden` has said which ones are not shown.
    const textOf = (): string => (text ??= this.render(allowed) ?? "");
    const times = this.times;
    let mtime: Date | undefined;
    // The class's time: kept from the version that last changed its text (see `times`).
    const mtimeOf = (): Date => {
      if (mtime !== undefined) return mtime;
      let seen = times.get(key);
      if (seen === undefined || seen.text !== textOf()) {
        seen = { text: textOf(), mtime: source.mtime };
        times.set(key, seen);
      }
      mtime = seen.mtime;
      return mtime;
    };
    const file: SiteFile = {
      path: source.path,
      get text() {
        return textOf();
      },
      get size() {
        return (size ??= byteLength(textOf()));
      },
      get mtime() {
        return mtimeOf();
      },
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

/** A stable text for a list of rules (`groups` order kept: it is what the author wrote). */
export function accessKey(access: Access): string {
  return JSON.stringify([access.groups ?? null, access.public === true]);
}

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

