/**
 * Glob matching, two flavours: fnmatch(3) for `find -name` and `grep --include`, and the
 * gitignore-style globs ripgrep uses for `-g`.
 */

/** Translate the body of a `[...]` set starting after `[`; returns [class source, index after `]`] or null. */
function bracketSet(glob: string, i: number): [string, number] | null {
  let k = i;
  let negate = false;
  if (glob[k] === "!" || glob[k] === "^") {
    negate = true;
    k++;
  }
  let body = "";
  let first = true;
  while (k < glob.length) {
    const c = glob[k] as string;
    if (c === "]" && !first) {
      return [`[${negate ? "^" : ""}${body}]`, k + 1];
    }
    first = false;
    if (c === "[" && glob[k + 1] === ":") {
      const end = glob.indexOf(":]", k + 2);
      if (end !== -1) {
        const name = glob.slice(k + 2, end);
        const cls: Record<string, string> = {
          alpha: "\\p{L}",
          digit: "0-9",
          alnum: "\\p{L}\\p{Nd}",
          upper: "\\p{Lu}",
          lower: "\\p{Ll}",
          space: "\\s",
          punct: "!-\\/:-@\\[-`{-~",
        };
        if (cls[name] !== undefined) {
          body += cls[name];
          k = end + 2;
          continue;
        }
      }
    }
    if (c === "\\" && k + 1 < glob.length) {
      body += escapeClass(glob[k + 1] as string);
      k += 2;
      continue;
    }
    if (c === "-" && body !== "" && glob[k + 1] !== "]" && k + 1 < glob.length) {
      body += "-";
      k++;
      continue;
    }
    body += escapeClass(c);
    k++;
  }
  return null;
}

function escapeClass(c: string): string {
  return "\\]^-[".includes(c) ? `\\${c}` : c;
}

function escapeChar(c: string): string {
  return "^$\\.*+?()[]{}|/".includes(c) ? `\\${c}` : c;
}

/**
 * fnmatch(3) without flags: `*` and `?` match any character including `/`, `[...]` sets with
 * `!` or `^` negation, `\` escapes. A leading `.` needs no special care (no FNM_PERIOD).
 */
export function fnmatchRegex(glob: string, ignoreCase = false): RegExp {
  let src = "";
  for (let i = 0; i < glob.length; ) {
    const c = glob[i] as string;
    if (c === "*") {
      src += "[\\s\\S]*";
      i++;
    } else if (c === "?") {
      src += "[\\s\\S]";
      i++;
    } else if (c === "[") {
      const set = bracketSet(glob, i + 1);
      if (set === null) {
        src += "\\[";
        i++;
      } else {
        src += set[0];
        i = set[1];
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      src += escapeChar(glob[i + 1] as string);
      i += 2;
    } else {
      src += escapeChar(c);
      i++;
    }
  }
  return new RegExp(`^${src}$`, ignoreCase ? "iu" : "u");
}

/** A ripgrep `-g` glob: gitignore semantics (`!` negates, `/` anchors, `**` spans folders). */
export interface IgnoreGlob {
  readonly negated: boolean;
  readonly dirOnly: boolean;
  /** Matched against the basename when the glob has no `/`, else against the relative path. */
  readonly basenameOnly: boolean;
  readonly regex: RegExp;
}

/** The regex source of a glob body (what follows `!`, a leading slash and a leading globstar). */
function gitignoreBody(g: string): string {
  let src = "";
  for (let i = 0; i < g.length; ) {
    if (g[i] === "{") {
      // `{a,b}` alternates, as ripgrep's globset (not nested).
      const close = g.indexOf("}", i + 1);
      if (close !== -1 && !g.slice(i + 1, close).includes("{")) {
        src += `(?:${g.slice(i + 1, close).split(",").map(gitignoreBody).join("|")})`;
        i = close + 1;
        continue;
      }
    }
    if (g.startsWith("/**/", i)) {
      src += "(?:/|/.*/)";
      i += 4;
    } else if (g.startsWith("/**", i) && i + 3 === g.length) {
      src += "/.*";
      i += 3;
    } else if (g.startsWith("**", i)) {
      src += ".*";
      i += 2;
    } else if (g[i] === "*") {
      src += "[^/]*";
      i++;
    } else if (g[i] === "?") {
      src += "[^/]";
      i++;
    } else if (g[i] === "[") {
      const set = bracketSet(g, i + 1);
      if (set === null) {
        src += "\\[";
        i++;
      } else {
        src += set[0];
        i = set[1];
      }
    } else if (g[i] === "\\" && i + 1 < g.length) {
      src += escapeChar(g[i + 1] as string);
      i += 2;
    } else {
      src += escapeChar(g[i] as string);
      i++;
    }
  }
  return src;
}

/** Parse a ripgrep/gitignore glob. */
export function gitignoreGlob(glob: string, ignoreCase = false): IgnoreGlob {
  let g = glob;
  let negated = false;
  if (g.startsWith("!")) {
    negated = true;
    g = g.slice(1);
  }
  let dirOnly = false;
  if (g.endsWith("/") && g.length > 1) {
    dirOnly = true;
    g = g.slice(0, -1);
  }
  const basenameOnly = !g.includes("/");
  if (g.startsWith("/")) g = g.slice(1);
  if (g.startsWith("**/")) g = g.slice(3);
  const src = gitignoreBody(g);
  // A glob without a slash may match at any depth; one with a slash is anchored at the root.
  const prefix = basenameOnly || glob.replace(/^!/, "").startsWith("**/") ? "(?:^|.*/)" : "^";
  return { negated, dirOnly, basenameOnly, regex: new RegExp(`${prefix}${src}$`, ignoreCase ? "isu" : "su") };
}

/**
 * ripgrep's override rules: the last glob that matches decides; a file matching no glob is
 * excluded when any non-negated glob exists. Folders are only ever excluded by negated globs.
 */
export function globsAllow(globs: readonly IgnoreGlob[], relPath: string, isDir: boolean): boolean {
  for (let i = globs.length - 1; i >= 0; i--) {
    const g = globs[i] as IgnoreGlob;
    if (g.dirOnly && !isDir) continue;
    if (g.regex.test(relPath)) return !g.negated;
  }
  return isDir || !globs.some((g) => !g.negated);
}
