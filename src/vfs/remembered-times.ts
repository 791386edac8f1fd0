import { createHash } from "node:crypto";
import { type Access, accessKey } from "./access.js";
import type { FileVariants } from "./file-variants.js";
import type { SiteFile } from "./site-file.js";
import type { Recall, VariantTimes } from "./variant-times.js";
import { LIMITS } from "../limits.js";

/** One class remembered: the SHA-256 of the bytes it was served (never the text), and since when (ms). */
export interface Remembered {
  readonly sha256: string;
  readonly mtime: number;
}

/** What a state file holds that is not what this version writes (`RememberedTimes.parse`). */
export class RememberedTimesError extends Error {
  override readonly name = "RememberedTimesError";
}

/** A memory of variant times kept across starts, as the site loads ask it (`siteVariants`). */
export interface TimesMemory {
  /** What is remembered of `path`'s classes (undefined: nothing). */
  recall(path: string): Recall | undefined;
  /** Every path something is remembered of. */
  paths(): Iterable<string>;
  /**
   * The variants of a snapshot just made, and its files that could gain a restricted part but
   * have none (`wholes`: pages and spec files, each served whole to every reader): what is
   * remembered from now on. `present`: every path of the snapshot.
   */
  noted(variants: ReadonlyMap<string, FileVariants>, wholes: readonly SiteFile[], present: ReadonlyMap<string, unknown>): void;
}

const FORMAT = "svc-mcp variant times";
const VERSION = 1;

/**
 * The times of each class of readers of each file with restricted parts (`VariantTimes`), kept
 * across a restart (security.md row 160): a start knew nothing before it and dated every class by
 * the file's time, so after a restart an anonymous reader's copy of a spec was dated by the last
 * edit of a staff-only operation. With this memory a class whose bytes are what it was served
 * before the start takes the time it had then; any other class is dated as at any start.
 *
 * A class is remembered by the set of the file's rules it may read (their `accessKey`s, sorted),
 * not by its outcomes on the rules in their order: the rules' order is the order their parts
 * come in the file (and `VariantTimes` puts rules kept from earlier versions after them), which
 * an edit made while stopped, or a rule let go, changes; the set a reader passes does not. Rules
 * kept from earlier versions are not remembered (a start has only the file's rules now): the
 * classes that differ only in them are one after a start, remembered by the time of the one that
 * may read the least of them (it reads the same bytes, and its time comes of parts all the
 * others may read), never by the time of one that read more (the time of a part since removed
 * would date readers who never read it). When no such class is among them, none is remembered.
 *
 * The set is enough, with the bytes: a reader passing the same rules reads the same parts, and a
 * class whose bytes equal what it was served is dated by when those bytes were first served to
 * readers of those rules, which tells it nothing of parts it may not read.
 */
export class RememberedTimes {
  private constructor(
    private readonly files: ReadonlyMap<string, ReadonlyMap<string, Remembered>>,
    /**
     * Files without restricted parts (pages and specs, which a restricted operation or import can
     * come to): the SHA-256 of the file, base64url (every reader's bytes), and its time. A file
     * gaining its first restricted part while stopped (a deploy: stop, pull, start) dates a class
     * whose bytes hash so by that time, as `VariantTimes.everyone` does while serving (adversary
     * round 53 F2: only files with restricted parts were kept, and the anonymous reader's
     * unchanged spec took the time of the pull's staff-only operation).
     */
    private readonly wholes: ReadonlyMap<string, Remembered> = new Map(),
  ) {}

  /** Nothing remembered. */
  static readonly EMPTY = new RememberedTimes(new Map());

  /** The memory of `text` (a state file) for the docs root `root`; `RememberedTimesError` says why it is not one. */
  static parse(text: string, root: string): RememberedTimes {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new RememberedTimesError(`not JSON (${(error as Error).message})`);
    }
    if (!isObject(value) || value.format !== FORMAT) throw new RememberedTimesError("not a variant times file");
    if (value.version !== VERSION) throw new RememberedTimesError(`version ${JSON.stringify(value.version)}, not ${VERSION}`);
    // Keyed by the root's path: a hash of it names the file, and two roots must not share one.
    if (value.root !== root) throw new RememberedTimesError(`of another docs root (${JSON.stringify(value.root)})`);
    if (!isObject(value.files)) throw new RememberedTimesError("no files");
    const files = new Map<string, Map<string, Remembered>>();
    for (const [path, list] of Object.entries(value.files)) {
      if (files.size >= LIMITS.variantTimes.maxFiles) throw new RememberedTimesError(`more than ${LIMITS.variantTimes.maxFiles} files`);
      if (!path.startsWith("/") || !Array.isArray(list) || list.length > LIMITS.load.maxTimedClasses) throw new RememberedTimesError(`${path}: not a list of at most ${LIMITS.load.maxTimedClasses} classes`);
      const classes = new Map<string, Remembered>();
      for (const entry of list as unknown[]) {
        if (!isObject(entry) || !Array.isArray(entry.reads) || !entry.reads.every((r) => typeof r === "string") || typeof entry.sha256 !== "string" || !SHA256.test(entry.sha256) || typeof entry.mtime !== "number" || !Number.isSafeInteger(entry.mtime)) {
          throw new RememberedTimesError(`${path}: a class that is not { reads, sha256, mtime }`);
        }
        classes.set(classKey(entry.reads as string[]), { sha256: entry.sha256, mtime: entry.mtime });
      }
      files.set(path, classes);
    }
    // Absent from files written before wholes were kept: nothing of them then.
    const wholes = new Map<string, Remembered>();
    if (value.wholes !== undefined) {
      if (!isObject(value.wholes)) throw new RememberedTimesError("wholes not an object");
      for (const [path, entry] of Object.entries(value.wholes)) {
        if (wholes.size >= LIMITS.variantTimes.maxWholeFiles) throw new RememberedTimesError(`more than ${LIMITS.variantTimes.maxWholeFiles} whole files`);
        if (!path.startsWith("/") || !Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "string" || !SHA256_B64.test(entry[0]) || typeof entry[1] !== "number" || !Number.isSafeInteger(entry[1])) {
          throw new RememberedTimesError(`${path}: a whole file that is not [sha256, mtime]`);
        }
        wholes.set(path, { sha256: entry[0], mtime: entry[1] });
      }
    }
    return new RememberedTimes(files, wholes);
  }

  /**
   * What the variants of a snapshot have dated so far: each class's bytes hashed (made now if not
   * yet), once a version (`hashed`, by version and class: a version's text for a class is fixed).
   */
  static of(variants: ReadonlyMap<string, FileVariants>, hashed: Hashed = new WeakMap(), wholes: readonly SiteFile[] = [], wholeHashed: WholeHashed = new WeakMap()): RememberedTimes {
    const files = new Map<string, ReadonlyMap<string, Remembered>>();
    for (const path of [...variants.keys()].sort()) {
      if (files.size >= LIMITS.variantTimes.maxFiles) break;
      const classes = classesOf((variants.get(path) as FileVariants).times, hashed);
      if (classes.size > 0) files.set(path, classes);
    }
    const whole = new Map<string, Remembered>();
    for (const file of wholes) {
      if (whole.size >= LIMITS.variantTimes.maxWholeFiles) break;
      if (variants.has(file.path)) continue;
      // Hashed once a version of the file (a `SiteFile` is never changed): a save re-hashes what
      // it changed, and the entry (the same object) is serialized once (`serialize`).
      whole.set(file.path, RememberedTimes.whole(file, wholeHashed));
    }
    return new RememberedTimes(files, whole);
  }

  /** A whole file's entry, made once a version of the file (hashing its text) and kept in `wholeHashed`. */
  static whole(file: SiteFile, wholeHashed: WholeHashed): Remembered {
    let entry = wholeHashed.get(file);
    if (entry === undefined) wholeHashed.set(file, (entry = { sha256: sha256b64(file.text), mtime: file.mtime.getTime() }));
    return entry;
  }

  /**
   * What two processes serving the same docs root remember, together (adversary round 53 F3: each
   * `--workers` process wrote only what it had dated, and the last write replaced the others':
   * a class another process had served was lost, or dated by a process that first met it in a
   * version after a staff edit, by that edit's time). `mine` (this process's newest snapshot)
   * decides for each path it holds, with the classes only `other` remembers added; a class both
   * remember with the same bytes takes the earlier time (a whole file is `mine`'s). Every entry says the class was served
   * those bytes in a version of that time (or a millisecond after), so the earlier tells a reader
   * nothing of parts they may not read either, and is never the later edit's of parts they may
   * not read. A path `mine` does not hold is kept while it is in `present` (this process's
   * snapshot: a file deleted is let go).
   */
  static merge(mine: RememberedTimes, other: RememberedTimes, present: ReadonlyMap<string, unknown>): RememberedTimes {
    const files = new Map<string, ReadonlyMap<string, Remembered>>();
    for (const [path, classes] of mine.files) {
      const out = new Map(classes);
      for (const [key, was] of other.files.get(path) ?? []) {
        const now = out.get(key);
        if (now === undefined) {
          if (out.size < LIMITS.load.maxTimedClasses) out.set(key, was);
        } else if (now.sha256 === was.sha256 && was.mtime < now.mtime) out.set(key, was);
      }
      files.set(path, out);
    }
    // A whole file is dated by the file (every reader is served it so): each process's time is the
    // one its readers see, and no class of it is dated by a process that guessed.
    const wholes = new Map(mine.wholes);
    for (const [path, classes] of other.files) {
      if (files.size >= LIMITS.variantTimes.maxFiles) break;
      if (!files.has(path) && !wholes.has(path) && present.has(path)) files.set(path, classes);
    }
    for (const [path, was] of other.wholes) {
      if (wholes.size >= LIMITS.variantTimes.maxWholeFiles) break;
      if (!files.has(path) && !wholes.has(path) && present.has(path)) wholes.set(path, was);
    }
    return new RememberedTimes(files, wholes);
  }

  recall(path: string): Recall | undefined {
    const classes = this.files.get(path);
    if (classes === undefined) {
      const whole = this.wholes.get(path);
      // Every reader was served the file: a class now served the same bytes keeps its time, whatever it may read.
      return whole === undefined ? undefined : (_passed, text) => (sha256b64(text()) === whole.sha256 ? new Date(whole.mtime) : undefined);
    }
    return (passed, text) => {
      const was = classes.get(classKey(passed.map(accessKey)));
      // Hashed only for a class remembered: the text of another is not made for nothing.
      return was !== undefined && sha256(text()) === was.sha256 ? new Date(was.mtime) : undefined;
    };
  }

  paths(): Iterable<string> {
    return this.files.keys();
  }

  /** Files remembered, with restricted parts or whole. */
  get size(): number {
    return this.files.size + this.wholes.size;
  }

  /** The state file's text for the docs root `root`: files past `LIMITS.variantTimes.maxBytes` left out. */
  serialize(root: string): string {
    const head = `{"format":${JSON.stringify(FORMAT)},"version":${VERSION},"root":${JSON.stringify(root)},"files":{`;
    const parts: string[] = [];
    let bytes = head.length + 3;
    for (const [path, classes] of this.files) {
      const list = [...classes].map(([key, c]) => ({ reads: JSON.parse(key) as string[], sha256: c.sha256, mtime: c.mtime }));
      const part = `${JSON.stringify(path)}:${JSON.stringify(list)}`;
      // Bytes of UTF-8 at most three a character: a bound, not a count.
      if (bytes + part.length * 3 + 1 > LIMITS.variantTimes.maxBytes) break;
      bytes += part.length * 3 + 1;
      parts.push(part);
    }
    // Whole files after (the same bound): `[hash, mtime]` under the path, ~100 bytes each.
    const wholes: string[] = [];
    bytes += 12;
    for (const [path, w] of this.wholes) {
      let part = SERIALIZED.get(w);
      // By entry object: a path's entry is made again only when the file is (`of`, `merge`).
      if (part === undefined) SERIALIZED.set(w, (part = `${JSON.stringify(path)}:[${JSON.stringify(w.sha256)},${w.mtime}]`));
      if (bytes + part.length * 3 + 1 > LIMITS.variantTimes.maxBytes) break;
      bytes += part.length * 3 + 1;
      wholes.push(part);
    }
    return `${head}${parts.join(",")}},"wholes":{${wholes.join(",")}}}\n`;
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const SHA256_B64 = /^[A-Za-z0-9_-]{43}$/;

/** Hashes of classes' texts made so far, by version of a file and class (`RememberedTimes.of`). */
export type Hashed = WeakMap<VariantTimes, Map<string, string>>;

/** Whole files' entries made so far, by version of a file (`RememberedTimes.of`). */
export type WholeHashed = WeakMap<SiteFile, Remembered>;

/** A whole file's text in the state file, by its entry (the path is the entry's, which is one path's only). */
const SERIALIZED = new WeakMap<Remembered, string>();

/** The key of a class: the `accessKey`s of the rules it may read, sorted (order-free; see the class). */
function classKey(reads: readonly string[]): string {
  return JSON.stringify([...reads].sort());
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A whole file's SHA-256, base64url: 43 characters, not 64 (a big site keeps tens of thousands). */
function sha256b64(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/**
 * A file's classes by key: of those that differ only in rules kept from earlier versions, the
 * one whose outcomes on them are within every other's (it may read the least of them), or none.
 * At most `LIMITS.load.maxTimedClasses`, the least class's first (`VariantTimes` dates it first).
 */
function classesOf(times: VariantTimes, hashed: Hashed): Map<string, Remembered> {
  let known = hashed.get(times);
  if (known === undefined) hashed.set(times, (known = new Map()));
  const byKey = new Map<string, { kept: string; text: () => string; mtime: Date }[]>();
  for (const c of times.classes()) {
    const key = classKey(c.passed.map((rule: Access) => accessKey(rule)));
    let list = byKey.get(key);
    if (list === undefined) byKey.set(key, (list = []));
    list.push(c);
  }
  const out = new Map<string, Remembered>();
  for (const [key, list] of byKey) {
    if (out.size >= LIMITS.load.maxTimedClasses) break;
    const least = list.find((c) => list.every((d) => within(c.kept, d.kept)));
    if (least === undefined) continue;
    let hash = known.get(`${key} ${least.kept}`);
    if (hash === undefined) known.set(`${key} ${least.kept}`, (hash = sha256(least.text())));
    out.set(key, { sha256: hash, mtime: least.mtime.getTime() });
  }
  return out;
}

/** Whether every rule `a` may read `b` may read too. */
function within(a: string, b: string): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] === "1" && b[i] !== "1") return false;
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
