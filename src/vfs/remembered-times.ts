import { createHash } from "node:crypto";
import { type Access, accessKey } from "./access.js";
import type { FileVariants } from "./file-variants.js";
import type { Recall, VariantTimes } from "./variant-times.js";
import { LIMITS } from "../limits.js";

/** One class remembered: the SHA-256 of the bytes it was served (never the text), and since when (ms). */
interface Remembered {
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
  /** The variants of a snapshot just made: what is remembered from now on. */
  noted(variants: ReadonlyMap<string, FileVariants>): void;
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
  private constructor(private readonly files: ReadonlyMap<string, ReadonlyMap<string, Remembered>>) {}

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
    return new RememberedTimes(files);
  }

  /**
   * What the variants of a snapshot have dated so far: each class's bytes hashed (made now if not
   * yet), once a version (`hashed`, by version and class: a version's text for a class is fixed).
   */
  static of(variants: ReadonlyMap<string, FileVariants>, hashed: Hashed = new WeakMap()): RememberedTimes {
    const files = new Map<string, ReadonlyMap<string, Remembered>>();
    for (const path of [...variants.keys()].sort()) {
      if (files.size >= LIMITS.variantTimes.maxFiles) break;
      const classes = classesOf((variants.get(path) as FileVariants).times, hashed);
      if (classes.size > 0) files.set(path, classes);
    }
    return new RememberedTimes(files);
  }

  recall(path: string): Recall | undefined {
    const classes = this.files.get(path);
    if (classes === undefined) return undefined;
    return (passed, text) => {
      const was = classes.get(classKey(passed.map(accessKey)));
      // Hashed only for a class remembered: the text of another is not made for nothing.
      return was !== undefined && sha256(text()) === was.sha256 ? new Date(was.mtime) : undefined;
    };
  }

  paths(): Iterable<string> {
    return this.files.keys();
  }

  get size(): number {
    return this.files.size;
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
    return `${head}${parts.join(",")}}}\n`;
  }
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Hashes of classes' texts made so far, by version of a file and class (`RememberedTimes.of`). */
export type Hashed = WeakMap<VariantTimes, Map<string, string>>;

/** The key of a class: the `accessKey`s of the rules it may read, sorted (order-free; see the class). */
function classKey(reads: readonly string[]): string {
  return JSON.stringify([...reads].sort());
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
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
