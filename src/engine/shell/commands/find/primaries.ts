import { OWNER } from "../../../../vfs/view.js";
import type { CommandIo } from "../../lib/command.js";
import { ERRNO, baseName, lookup } from "../../lib/files.js";
import { inodeOf, lsDate, modeString } from "../../lib/format.js";
import { fnmatchRegex } from "../../lib/glob.js";
import { REGEX_TYPES, compareNumber, compileFindRegex, parseDate, parseMode } from "./arguments.js";
import { type Ctx, type Env, FindError, type Node } from "./expression.js";
import { printfText } from "./printf.js";

/** What a primary reads from and records in the parser while it is parsed. */
export interface PrimaryParser {
  readonly io: CommandIo;
  maxDepth: number;
  minDepth: number;
  depthFirst: boolean;
  hasAction: boolean;
  /** Set by `-regextype`, for the `-regex` tests after it. */
  regexType: "emacs" | "ere" | "bre";
  /** The primary's argument (consumed with the primary), or a FindError when there is none. */
  value(option: string): string;
  /** Consume a primary that takes no argument. */
  skip(): void;
  /** The words of `-exec COMMAND ;` / `COMMAND {} +` (consumed), with whether it is a batch. */
  execWords(option: string): { command: string[]; batch: boolean };
  test(name: string, test: (c: Ctx, env: Env) => boolean | Promise<boolean>, action?: boolean): Node;
}

/** Parses one primary (its name is the current word) into an expression node. */
type Primary = (p: PrimaryParser, name: string) => Node;

/** A primary without an argument that is always `result`: options, and tests that cannot differ here. */
function constant(result: boolean): Primary {
  return (p, t) => {
    p.skip();
    return p.test(t, () => result);
  };
}

/** The modification time of the entry a primary's argument names (`-newer FILE`), or a FindError. */
function referencedTime(p: PrimaryParser, ref: string): number {
  const entry = lookup(p.io.view, p.io.cwd, ref, p.io.piped);
  const info = entry.kind === "file" || entry.kind === "dir" ? p.io.view.info(entry.path) : undefined;
  if (info === undefined) throw new FindError(`\u2018${ref}\u2019: ${ERRNO.ENOENT}`);
  return info.mtime.getTime();
}

/** A test of a number with GNU's `+N` / `-N` / `N`. */
function numeric(read: (c: Ctx) => number): Primary {
  return (p, t) => {
    const cmp = compareNumber(p.value(t), t);
    return p.test(t, (c) => cmp(read(c)));
  };
}

/** An action that prints each entry it is reached for. */
function printing(text: (c: Ctx, p: PrimaryParser, argument: string) => string, takesArgument = false): Primary {
  return (p, t) => {
    let argument = "";
    if (takesArgument) argument = p.value(t);
    else p.skip();
    return p.test(t, (c, env) => env.io.out.write(text(c, p, argument)) || true, true);
  };
}

function lsLine(c: Ctx): string {
  return `${String(inodeOf(c.path)).padStart(9)} ${String(c.info.blocks / 2).padStart(6)} ${modeString(c.info.mode)} ${String(c.info.nlink).padStart(3)} ${OWNER.user.padEnd(8)} ${OWNER.group.padEnd(8)} ${String(c.info.size).padStart(8)} ${lsDate(c.info.mtime, new Date())} ${c.display}\n`;
}

const name: Primary = (p, t) => {
  const re = fnmatchRegex(p.value(t), t === "-iname");
  return p.test(t, (c) => re.test(c.display === "/" ? "/" : baseName(c.display.replace(/\/+$/, "")) || c.display));
};

const path: Primary = (p, t) => {
  const re = fnmatchRegex(p.value(t), t.startsWith("-i"));
  return p.test(t, (c) => re.test(c.display));
};

const regex: Primary = (p, t) => {
  const compiled = compileFindRegex(p.value(t), p.regexType, t === "-iregex");
  return p.test(t, (c) => compiled.test(c.display));
};

const regexType: Primary = (p, t) => {
  const value = p.value(t);
  const syntax = REGEX_TYPES.get(value);
  if (syntax === undefined) {
    const valid = [...REGEX_TYPES.keys()].map((k) => `\u2018${k}\u2019`).join(", ");
    throw new FindError(`Unknown regular expression type \u2018${value}\u2019; valid types are ${valid}.`);
  }
  p.regexType = syntax;
  return p.test(t, () => true);
};

const type: Primary = (p, t) => {
  const kinds = p.value(t).split(",");
  for (const k of kinds) {
    if (!"bcdpflsD".includes(k) || k.length !== 1) throw new FindError(`Unknown argument to -type: ${k}`);
  }
  return p.test(t, (c) => kinds.includes(c.info.kind === "dir" ? "d" : "f"));
};

const depthLimit: Primary = (p, t) => {
  const v = p.value(t);
  if (!/^\d+$/.test(v)) throw new FindError(`Expected a positive decimal integer argument to ${t}, but got \u2018${v}\u2019`);
  if (t === "-maxdepth") p.maxDepth = Number(v);
  else p.minDepth = Number(v);
  return p.test(t, () => true);
};

const size: Primary = (p, t) => {
  const v = p.value(t);
  const m = /^([+-]?)(\d+)([bcwkMG]?)$/.exec(v);
  if (m === null) throw new FindError(`invalid -size type \`${v.replace(/^[+-]?\d+/, "")}'`);
  const unit = { "": 512, b: 512, c: 1, w: 2, k: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[3] as string] as number;
  const cmp = compareNumber(`${m[1]}${m[2]}`, t);
  // GNU rounds the size up to whole units before comparing.
  return p.test(t, (c) => cmp(Math.ceil(c.info.size / unit)));
};

const age: Primary = (p, t) => {
  // Access and change times equal the modification time in the docs shell.
  const cmp = compareNumber(p.value(t), t);
  const unit = t.endsWith("time") ? 86_400_000 : 60_000;
  const now = Date.now();
  return p.test(t, (c) => cmp(Math.floor((now - c.info.mtime.getTime()) / unit)));
};

const owner: Primary = (p, t) => {
  const v = p.value(t);
  const known = t === "-user" ? [OWNER.user, String(OWNER.uid)] : [OWNER.group, String(OWNER.gid)];
  if (!known.includes(v) && !/^\d+$/.test(v)) {
    throw new FindError(t === "-user" ? `\u2018${v}\u2019 is not the name of a known user` : `\u2018${v}\u2019 is not the name of an existing group`);
  }
  return p.test(t, () => known.includes(v));
};

const perm: Primary = (p, t) => {
  const v = p.value(t);
  const kind = v.startsWith("-") ? "all" : v.startsWith("/") ? "any" : "exact";
  const mode = parseMode(kind === "exact" ? v : v.slice(1));
  if (mode === undefined) throw new FindError(`invalid mode \u2018${v}\u2019`);
  return p.test(t, (c) => {
    const bits = c.info.mode & 0o7777;
    if (kind === "exact") return bits === mode;
    if (kind === "all") return (bits & mode) === mode;
    return mode === 0 || (bits & mode) !== 0;
  });
};

const exec: Primary = (p, t) => {
  const { command, batch } = p.execWords(t);
  p.hasAction = true;
  return { op: "exec", command, batch, inDir: t === "-execdir" || t === "-okdir" };
};

/** `-newerXY REF`: every time of an entry is its modification time; Y = t takes a date. */
export const newerXY: Primary = (p, t) => {
  const ref = p.value(t);
  let time: number;
  if (t.endsWith("t")) {
    const parsed = parseDate(ref);
    if (parsed === undefined) throw new FindError(`I cannot figure out how to interpret \u2018${ref}\u2019 as a date or time`);
    time = parsed;
  } else {
    time = referencedTime(p, ref);
  }
  return p.test(t, (c) => c.info.mtime.getTime() > time);
};

/** Every primary find knows, by name (`-newerXY` aside: its names are a pattern). */
export const PRIMARIES: ReadonlyMap<string, Primary> = new Map(
  (
    [
      [["-name", "-iname"], name],
      [["-path", "-ipath", "-wholename", "-iwholename"], path],
      [["-regex", "-iregex"], regex],
      [["-regextype"], regexType],
      [["-type", "-xtype"], type],
      [["-maxdepth", "-mindepth"], depthLimit],
      [
        ["-depth", "-d"],
        (p, t) => {
          p.skip();
          p.depthFirst = true;
          return p.test(t, () => true);
        },
      ],
      [["-follow", "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-nowarn", "-warn", "-true", "-readable"], constant(true)],
      [["-false", "-writable", "-executable", "-nouser", "-nogroup"], constant(false)],
      [["-size"], size],
      [
        ["-empty"],
        (p, t) => {
          p.skip();
          return p.test(t, (c) => (c.info.kind === "dir" ? (p.io.view.childrenOf(c.path)?.length ?? 0) === 0 : c.info.size === 0));
        },
      ],
      [
        ["-newer", "-anewer", "-cnewer"],
        (p, t) => {
          const mtime = referencedTime(p, p.value(t));
          return p.test(t, (c) => c.info.mtime.getTime() > mtime);
        },
      ],
      [["-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin"], age],
      [["-user", "-group"], owner],
      [["-uid", "-gid"], (p, t) => numeric(() => (t === "-uid" ? OWNER.uid : OWNER.gid))(p, t)],
      [["-links"], numeric((c) => c.info.nlink)],
      [["-inum"], numeric((c) => inodeOf(c.path))],
      [["-perm"], perm],
      [
        ["-samefile"],
        (p, t) => {
          const ref = p.value(t);
          const entry = lookup(p.io.view, p.io.cwd, ref, p.io.piped);
          if (entry.kind !== "file" && entry.kind !== "dir") throw new FindError(`\u2018${ref}\u2019: ${ERRNO.ENOENT}`);
          return p.test(t, (c) => c.path === entry.path);
        },
      ],
      [
        ["-lname", "-ilname"],
        (p, t) => {
          p.value(t);
          return p.test(t, () => false); // the docs hold no symbolic links
        },
      ],
      [["-print"], printing((c) => `${c.display}\n`)],
      [["-print0"], printing((c) => `${c.display}\0`)],
      [["-printf"], printing((c, _p, format) => printfText(format, c), true)],
      [["-ls"], printing(lsLine)],
      [
        ["-fprint", "-fprintf", "-fls"],
        (_p, t) => {
          throw new FindError(`${t}: writing files is not possible: ${ERRNO.EROFS}`);
        },
      ],
      [
        ["-prune"],
        (p, t) => {
          p.skip();
          return p.test(t, (c, env) => {
            if (c.info.kind === "dir") env.prune = true;
            return true;
          });
        },
      ],
      [
        ["-quit"],
        (p, t) => {
          p.skip();
          return p.test(t, (_c, env) => {
            env.quit = true;
            return true;
          });
        },
      ],
      [
        ["-delete"],
        (p, t) => {
          p.skip();
          p.hasAction = true;
          return p.test(
            t,
            (c, env) => {
              env.io.fail(`cannot delete \u2018${c.display}\u2019: ${ERRNO.EROFS}`);
              env.status = 1;
              return false;
            },
            true,
          );
        },
      ],
      [["-exec", "-execdir", "-ok", "-okdir"], exec],
    ] as const satisfies ReadonlyArray<readonly [readonly string[], Primary]>
  ).flatMap(([names, primary]) => names.map((n) => [n, primary as Primary] as const)),
);
