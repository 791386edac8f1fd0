// Exact-text corrections to just-bash 3.4.2's awk (its prebuilt chunks), where its values differ
// from gawk's (issue 25). Applied by the CLI bundle (scripts/bundle-plugins.mjs), by the test
// runner (vitest.config.ts) and by Node's module hooks when the sources run (just-bash-hooks.mjs),
// so all run the same awk; each `find` must occur exactly once in
// just-bash's dist/bundle, or the build fails and test/shell/just-bash-patches.test.ts fails
// (a just-bash upgrade that moves the code: look at the new code, then update or drop the patch).

/** One correction: the exact minified text, what replaces it, and why. */
export const JUST_BASH_PATCHES = [
  {
    why: "int() truncates toward zero (int(-3.7) is -3), just-bash floored",
    find: "async function ct(e,t,n){return e.length===0?0:Math.floor(F(await n.evalExpr(e[0])))}",
    replace: "async function ct(e,t,n){return e.length===0?0:Math.trunc(F(await n.evalExpr(e[0])))}",
  },
  {
    why: "printf %d/%i truncates toward zero (printf \"%d\", -3.7 prints -3)",
    find: 'case"d":case"i":{let p=y!==void 0?Math.floor(Number(y)):0;',
    replace: 'case"d":case"i":{let p=y!==void 0?Math.trunc(Number(y)):0;',
  },
  {
    why: "%g (and so print's OFMT) cut the exponent's zeros (print 1e20 printed 1e+2) and printed one exponent digit",
    find: 'd.includes(".")&&(d=d.replace(/\\.?0+$/,"").replace(/\\.?0+e/,"e")),d.includes("e")&&(d=d.replace(/\\.?0+e/,"e")),',
    replace:
      'f.includes("#")||(/e/i.test(d)?d=d.replace(/\\.?0+(?=e)/i,""):d.includes(".")&&(d=d.replace(/\\.?0+$/,""))),d=d.replace(/([eE][+-])(\\d)$/,"$10$2"),',
  },
  {
    why: "%f rounds an exact half to even, as glibc does (printf \"%.0f\", 2.5 prints 2; JS's toFixed rounds it up)",
    find: "let g=p.toFixed(N);",
    replace:
      'let g=p.toFixed(N);{let a=Math.abs(p);if(a<1e21){let x=a.toFixed(100),i=x.indexOf("."),t=x.slice(0,N===0?i:i+1+N);/^50*$/.test(x.slice(i+1+N))&&Number(t.slice(-1))%2===0&&(g=(p<0?"-":"")+t)}}',
  },
  {
    why: "%e prints at least two exponent digits (1.234568e+04)",
    find: 'let g=p.toExponential(N);if(W==="E"',
    replace: 'let g=p.toExponential(N).replace(/e([+-])(\\d)$/,"e$10$2");if(W==="E"',
  },
  {
    why: "print writes an integral value as an integer whatever its size (2^53, 1e30), as gawk does",
    find: "Number.isInteger(o)&&Math.abs(o)<Number.MAX_SAFE_INTEGER?r.push(String(o))",
    replace: "Number.isInteger(o)?r.push(BigInt(o).toString())",
  },
  {
    why: "a number becomes a string as gawk's CONVFMT %.6g makes it (length(1/3) is 8, 1e-5 \"\" is 1e-05), integers as integers",
    find: 'function v(e){return typeof e=="string"?e:(Number.isInteger(e),String(e))}',
    replace: 'function v(e){return typeof e=="string"?e:Number.isInteger(e)?BigInt(e).toString():Number.isFinite(e)?ie("%.6g",[e]):String(e)}',
  },
  {
    why: "the same for the string functions' arguments (length(1/3) is 8, substr(1e20, 1, 3) is 100)",
    find: 'function L(e){return typeof e=="string"?e:(Number.isInteger(e),String(e))}',
    replace: 'function L(e){return typeof e=="string"?e:Number.isInteger(e)?BigInt(e).toString():Number.isFinite(e)?ie("%.6g",[e]):String(e)}',
  },
  {
    why: "toupper/tolower map one character at a time (glibc towupper): ß stays ß, as in gawk",
    find: 'L(await n.evalExpr(e[0])).toUpperCase()}',
    replace: '[...L(await n.evalExpr(e[0]))].map(c=>{let u=c.toUpperCase();return[...u].length===1?u:c}).join("")}',
  },
  {
    why: "toupper/tolower map one character at a time: İ lowers to i",
    find: 'L(await n.evalExpr(e[0])).toLowerCase()}',
    replace: '[...L(await n.evalExpr(e[0]))].map(c=>{let u=c==="\\u0130"?"i":c.toLowerCase();return[...u].length===1?u:c}).join("")}',
  },
  {
    why: "default field splitting is on spaces, tabs and newlines only: a CRLF line's \\r stays in its last field (NF of \"\\r\" is 1)",
    find: 'e.FS===" "?t.trim().split(/\\s+/).filter(Boolean):e.fieldSep.split(t)}',
    replace: 'e.FS===" "?t.split(/[ \\t\\n]+/).filter(Boolean):e.fieldSep.split(t)}',
  },
  {
    why: 'split("", a) makes no element and returns 0',
    find: "u=typeof o==\"string\"?r.split(o,c+1):o.split(r,c+1);",
    replace: "u=r===\"\"?[]:typeof o==\"string\"?r.split(o,c+1):o.split(r,c+1);",
  },
];

/** Whether a path is one of just-bash's prebuilt bundle files the patches look in. */
export const JUST_BASH_BUNDLE_FILE = /[\\/]just-bash[\\/]dist[\\/]bundle[\\/](index|chunks[\\/][^\\/]+)\.js$/;

/**
 * The text with every patch whose `find` it holds applied; `applied` collects the patches used.
 * A `find` that occurs more than once in one file is an error (the replacement would be ambiguous).
 */
export function patchJustBash(text, applied = new Set()) {
  let out = text;
  for (const p of JUST_BASH_PATCHES) {
    const at = out.indexOf(p.find);
    if (at === -1) continue;
    if (out.indexOf(p.find, at + 1) !== -1) throw new Error(`just-bash patch "${p.why}": its text occurs more than once in one file`);
    out = out.slice(0, at) + p.replace + out.slice(at + p.find.length);
    applied.add(p);
  }
  return out;
}
