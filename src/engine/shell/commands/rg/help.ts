/** The ripgrep release whose behaviour and messages this rg reproduces (`rg --version`). */
export const RG_VERSION = "13.0.0";

/** clap 2's usage block, printed after every command-line error. */
export const USAGE_BLOCK = `USAGE:
    
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help
    rg [OPTIONS] --version

For more information try --help

`;

/** `rg -h` / `rg --help`: ours is short, and says where this rg differs from a terminal's. */
export const HELP = `ripgrep ${RG_VERSION} (read-only docs shell)
Recursively search the docs for lines matching a regex pattern.

USAGE:
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN

Output is ripgrep's when piped (never a terminal here): no colours, no line numbers unless -n,
file names when searching a folder or several paths, no headings unless --heading. Files are
searched and printed in path order (as with --sort path). Patterns use ripgrep's (Rust) regex
syntax; -P adds look-around and back-references. Type md also covers *.mdx here.

OPTIONS:
  -e, --regexp PATTERN       a pattern (repeatable)        -f, --file FILE   patterns from a file
  -i, --ignore-case          case-insensitive              -S, --smart-case  insensitive unless uppercase
  -s, --case-sensitive       case-sensitive (default)      -F, --fixed-strings  literal strings
  -w, --word-regexp          whole words                   -x, --line-regexp  whole lines
  -v, --invert-match         non-matching lines            -P, --pcre2       PCRE2 syntax
  -l, --files-with-matches   only file names               --files-without-match
  -c, --count                matching lines per file       --count-matches   matches per file
  -o, --only-matching        only the matched parts        -q, --quiet       exit status only
  -m, --max-count NUM        at most NUM matching lines per file
  -A/-B/-C NUM               lines of context after/before/around each match
  -n, --line-number          show line numbers             -N, --no-line-number
      --column               show column numbers           -b, --byte-offset
      --heading              group matches under file names (--no-heading is the default)
  -H, --with-filename        -I, --no-filename             -0, --null
      --vimgrep              path:line:column:text for every match
  -r, --replace TEXT         replace matches ($1, \${name})  --trim   strip leading whitespace
  -M, --max-columns NUM      omit lines longer than NUM bytes
  -g, --glob GLOB            include (or !exclude) files by gitignore-style glob; --iglob ignores case
  -t, --type TYPE            only files of TYPE (see --type-list); -T, --type-not TYPE excludes
      --type-add NAME:GLOB   add a glob to file type NAME for this search; --type-clear NAME
      --files                list the files that would be searched
      --hidden               search hidden files and folders
  -d, --max-depth NUM        descend at most NUM folders
      --sort path|none|modified   --sortr path|modified (reverse)
      --passthru             print every line, matches and non-matches
`;
