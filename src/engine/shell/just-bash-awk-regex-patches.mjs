// Exact-text corrections to just-bash 3.4.2's awk (its prebuilt bundle): every regex search it
// makes is charged to the call's work budget (issue 25, after sed's `s` and jq's regex builtins,
// adversary round 26). Kept apart from just-bash-patches.mjs (which spreads these in) because
// they form one concept: what awk's searches cost. The same rules as there: each `find` occurs
// exactly once in one file of just-bash's dist/bundle. The helpers are added to the awk chunk
// by the patch of its re2js import (just-bash-patches.mjs), and the loops written by other
// patches (sub/gsub/gensub's in just-bash-jq-char-patches.mjs, split()'s and FS's in
// just-bash-patches.mjs) call them.

/**
 * Before, awk's searches charged no step: `gsub`, `sub`, `gensub`, `match`, `split` with a
 * regex, a regex FS or RS, `~`, `!~` and a `/re/` pattern were each one awk expression (20
 * steps) whatever they searched, so `gsub(/x*\/, "-")` over a long record (a million empty
 * matches, 3.3 s of CPU) or a pattern that reads the rest of the text at each match
 * (`gsub(/a[^z]*z|a/, "-")` over 10,000 a's: 5x10^7 characters read, 60 s) ended by the CPU
 * limit, not by the count. Now each search is ZRM steps plus ZRR per character re2js read to
 * find it (`Qrn`, RE2_SCAN_PATCHES in just-bash-jq-lazy-patches.mjs), as jq's Zcq charges them,
 * so such a call ends at the work limit, on any machine at the same step.
 * - ZRM (2) and ZRR (2): steps of jq's size (a jq node 0.65-0.93 µs; CPU time, one process,
 *   load 4-9, 2026-12-01): a character read costs ~1.4 µs with a simple pattern (`$0 ~
 *   /a[^z]*z|a/` over 2,000 a's, 2,000 times), so two steps; a match of `gsub(/ /, "-")` ~4.9 µs
 *   with the ~4 characters it reads (a million spaces), 10 steps, ~0.5 µs each; an empty one of
 *   `gsub(/x*\/, "-")` 8 steps, ~0.8-1.0 µs each. A pattern that keeps many alternatives alive
 *   costs more per character (~4.7 µs) for the same count: docs/security.md row 100, open.
 * - Zra(k, q): arms the search about to run (Qra, RE2_WORK in just-bash-jq-lazy-patches.mjs)
 *   with what is left of run k's budget, so that one search of a huge pattern ends inside the
 *   engine at the work limit (round 28); returns q. The error it throws is noted in Zrw.
 * - Zrk(k, q): disarms, and charges the search(es) since `Qrn.n` was q to the budget of awk run k (its
 *   `coverage`; a writer without `charge`, in tests, is told of one awk step); returns the count
 *   now, for the next search. An error it throws (the work limit) is noted in Zrw.
 * - Zrz(x): throws x again when it came from Zrk: sub, gsub, gensub, match, `~` and a pattern
 *   catch every error of a bad regex and go on, and the work limit must end the run instead.
 * - Zrs(k, q, r): a regex RS's records of r, as re2js's split makes them (an empty match
 *   separates too), each search charged.
 */
export const AWK_REGEX_HELPERS = String.raw`var ZRM=2,ZRR=2,Zrw=new WeakSet;function Zra(k,q){let c=k?.coverage;return Qra(s=>{try{c.charge("awk:regex",s)}catch(x){throw x!==null&&typeof x=="object"&&Zrw.add(x),x}},ZRR,q,c?.left)}
function Zrk(k,q){Qrd();let n=Qrn.n,c=k?.coverage;if(c)try{c.charge?c.charge("awk:regex",ZRM+ZRR*(n-q)):c.hit("awk:regex")}catch(x){throw x!==null&&typeof x=="object"&&Zrw.add(x),x}return n}
function Zrz(x){if(x!==null&&typeof x=="object"&&Zrw.has(x))throw x}
function Zrs(k,q,r){let m=q._re2.matcher(r),u=[],a=0,o=0,s=q.maxResults,z=Qrn.n;for(;u.length<s&&(Zra(k,z),m.find(o));){z=Zrk(k,z);let b=m.start(0),e=m.end(0);u.push(r.slice(a,b)),a=e,o=e>b?e:e+1}Zrk(k,z);u.length<s&&u.push(r.slice(a));return u}
`;

/** One correction each: the exact minified text, what replaces it, and why. */
export const AWK_REGEX_PATCHES = [
  {
    why: "awk's regex searches are charged to the work budget (AWK_REGEX_HELPERS): gensub's loop, as sub's and gsub's, and a budget stop it meets ends the run",
    find: String.raw`f=>Ce(s,f[0],f.slice(1),_(t)),_(t)).value}else{let u=O(r,"g");return te(o,u,f=>f===c,f=>Ce(s,f[0],f.slice(1),_(t)),_(t)).value}}catch(l){return z(l),o}}`,
    replace: String.raw`f=>Ce(s,f[0],f.slice(1),_(t)),_(t),t).value}else{let u=O(r,"g");return te(o,u,f=>f===c,f=>Ce(s,f[0],f.slice(1),_(t)),_(t),t).value}}catch(l){return Zrz(l),z(l),o}}`,
  },
  {
    why: "(match(): its search)",
    find: "try{let o=O(s).exec(r);if(o)return ",
    replace: "let Zq=Zra(t,Qrn.n);try{let o=O(s).exec(r);if(o)return ",
  },
  {
    why: "(match(): charged once the search is done, found or not)",
    find: "}catch{}return t.RSTART=0,t.RLENGTH=-1,0}",
    replace: "}catch{}finally{Zrk(t,Zq)}return t.RSTART=0,t.RLENGTH=-1,0}",
  },
  {
    why: "(the ~ operator)",
    find: "try{return O(c).test(v(l))?1:0}catch{return 0}",
    replace: "{let Zq=Zra(e,Qrn.n);try{return O(c).test(v(l))?1:0}catch{return 0}finally{Zrk(e,Zq)}}",
  },
  {
    why: "(the !~ operator)",
    find: "try{return O(c).test(v(l))?0:1}catch{return 1}",
    replace: "{let Zq=Zra(e,Qrn.n);try{return O(c).test(v(l))?0:1}catch{return 1}finally{Zrk(e,Zq)}}",
  },
  {
    why: "(a /re/ pattern or expression, tested against $0)",
    find: "function Z(e,t){try{return O(e).test(t)}catch{return!1}}",
    replace: "function Z(e,t,k){let q=Zra(k,Qrn.n);try{return O(e).test(t)}catch{return!1}finally{Zrk(k,q)}}",
  },
  {
    why: "(a /re/ expression: the run it charges)",
    find: 'case"regex":return Z(t.pattern,e.line)?1:0;',
    replace: 'case"regex":return Z(t.pattern,e.line,e)?1:0;',
  },
  {
    why: "(a /re/ rule's pattern)",
    find: 'case"regex_pattern":return Z(r.pattern,this.ctx.line);',
    replace: 'case"regex_pattern":return Z(r.pattern,this.ctx.line,this.ctx);',
  },
  {
    why: "(a /re/ pattern inside a range)",
    find: 'case"regex_pattern":return Z(t.pattern,this.ctx.line);',
    replace: 'case"regex_pattern":return Z(t.pattern,this.ctx.line,this.ctx);',
  },
  {
    why: "(an FS that is no valid regex, searched as its text: split as a regex FS is, each search charged)",
    find: 'catch{e.fieldSep=O(t.replace(/[.*+?^${}()|[\\]\\\\]/g,"\\\\$&"))}}',
    replace: 'catch{e.fieldSep=Qr(O(t.replace(/[.*+?^${}()|[\\]\\\\]/g,"\\\\$&")))}}',
  },
];
