// Exact-text corrections to just-bash 3.4.2's jq (its prebuilt bundle) where it read strings as
// UTF-16 units and walked values as if shared parts were one (issue 25, F1 and F2). Applied with
// the others in just-bash-patches.mjs (same rules: each `find` occurs exactly once).

/**
 * Helpers added to the jq chunk, all in jq 1.6's terms (the version we report):
 * - Zcn: a string's length in code points (jq's `length`, slices, match offsets): a surrogate
 *   pair is one character, as jq reads UTF-8; a lone surrogate (a byte that is no UTF-8) one.
 * - Zcu: the UTF-16 index of code point k; Zcs: the slice of code points [a, b).
 * - Zcb: the UTF-8 byte offset of UTF-16 index i (jq 1.6's `index`, `rindex` and `indices` on
 *   strings give byte offsets: `"éx"|index("x")` is 2).
 * - Zcq/Zcm: every match (one, or all with "g") with jq 1.6's record: offsets and lengths in code
 *   points, a capture that took no part `{"offset":-1,"string":null,"length":0,"name":...}`, names
 *   given; after an empty match the next search starts one character on, and the search stops at
 *   the string's end (jq 1.6 ends there too). Each match is ZQM (4) steps of the work budget
 *   (a match record costs a few jq nodes), plus ZQR (2) steps per character re2js read to find it
 *   (`Qrn`, just-bash-jq-lazy-patches.mjs: a search may read far past its match, `a[^z]*z|a`
 *   to the text's end, and a read costs ~1.4 µs, two jq nodes, as awk's searches are charged), and the matches count against the
 *   element limit: a runaway search ends at the work limit (issue 25, round 26). The count holds
 *   the engine's work too (RE2_WORK), and each search is armed with what is left of the budget
 *   (Qra), so one search of a huge pattern ends inside the engine (round 28).
 * - Zcr: sub/gsub as jq 1.6 defines them: the replacement is evaluated with the object of the
 *   named captures as input (`"\(.x)"`), and each of its outputs gives a result (first match's
 *   choice varying fastest, as jq's reduce gives them).
 * - Zcw: walk as jq 1.6 defines it (`def walk(f): if object: reduce keys_unsorted[] ... | f elif array:
 *   map(walk(f)) | f else f`): bottom-up, every element, keys in their order, the last output of
 *   an element's walk kept for an object (none: the object so far is null), all for an array.
 *   A part shared by two places is walked at each (values are trees in jq); each node is a step.
 * - Zct: tostream's events in jq's order, each shared part at each of its places; a container's
 *   closing event is `[path + [last key]]`, none for the root scalar or an empty container.
 */
const JQ_CHAR_HELPERS = String.raw`var ZQM=4,ZQR=2;function Zcn(x){if(!/[\ud800-\udbff]/.test(x))return x.length;let n=x.length;for(let i=0;i<x.length-1;i++){let c=x.charCodeAt(i);if(c>=55296&&c<=56319){let d=x.charCodeAt(i+1);d>=56320&&d<=57343&&(n--,i++)}}return n}
function Zcu(x,k){if(!/[\ud800-\udbff]/.test(x))return k;let i=0;for(;k>0&&i<x.length;k--){let c=x.charCodeAt(i),d=x.charCodeAt(i+1);i+=c>=55296&&c<=56319&&d>=56320&&d<=57343?2:1}return i}
function Zcs(x,a,b){return b<=a?"":x.slice(Zcu(x,a),Zcu(x,b))}
function Zcb(x,i){return Buffer.byteLength(x.slice(0,i),"utf8")}
function Zcq(x,p,fl,r){let re=j(p,fl.replace(/g/g,"")),R2=re._re2,m=R2.matcher(x),n=R2.groupCount(),nm=R2.namedGroups()??{},names=[],ci=0,cc=0,out=[],pos=0,glob=fl.includes("g");for(let[k,v]of Object.entries(nm))names[v]=k;let cp=i=>(i<ci&&(ci=0,cc=0),cc+=Zcn(x.slice(ci,i)),ci=i,cc);let rd=Qrn.n,chg=c=>r.coverage?.charge?r.coverage.charge("jq:match",c):r.coverage?.hit("jq:match");for(;;){Qra(c=>r.coverage.charge("jq:match",c),ZQR,rd,r.coverage?.left);let z=Qrf(m,pos),nr=Qrn.n-rd;rd=Qrn.n;chg(ZQM+ZQR*nr);if(!z)break;D(r,out.length);let s0=m.start(0),e0=m.end(0),g0=m.group(0)??"",caps=[];for(let h=1;h<=n;h++){let gh=m.group(h);gh===null||gh===void 0?caps.push({offset:-1,string:null,length:0,name:names[h]??null}):caps.push({offset:cp(m.start(h)),length:Zcn(gh),string:gh,name:names[h]??null})}out.push([s0,e0,{offset:cp(s0),length:Zcn(g0),string:g0,captures:caps}]);if(!glob)break;if(e0>s0)pos=e0;else{let c=x.charCodeAt(e0),d=x.charCodeAt(e0+1);pos=e0+(c>=55296&&c<=56319&&d>=56320&&d<=57343?2:1)}if(pos>=x.length)break}return out}
function Zcm(x,p,fl,r){let q;try{q=Zcq(x,p,fl,r)}catch(u){if(u instanceof g)throw u;return[null]}return q.map(z=>z[2])}
function Zcr(e,t,r,s,gl){let u=String(s(e,t[0],r)[0]),fl=t.length>2?String(s(e,t[2],r)[0]):"",q;gl&&!fl.includes("g")&&(fl+="g");try{q=Zcq(e,u,fl,r)}catch(y){if(y instanceof g)throw y;return[e]}let acc=[""],prev=0;for(let[s0,e0,o]of q){let c=Object.create(null);for(let w of o.captures)w.name!==null&&E(c,w.name,w.string);let ys=s(c,t[1],r),gap=e.slice(prev,s0),nx=[];for(let y of ys){if(typeof y!="string"){let z=y===null?"null":Array.isArray(y)?"array":typeof y;throw new Error("string ("+JSON.stringify(acc[0]+gap)+") and "+z+" ("+JSON.stringify(y)+") cannot be added")}for(let a of acc)D(r,nx.length),r.coverage?.hit("jq:sub"),nx.push(a+gap+y)}acc=nx,prev=e0}let tail=e.slice(prev);return acc.map(a=>a+tail)}
function Zcw(v,f,r,s,dp){r.coverage?.hit("jq:walk");let L=V(r);if(dp>L.maxDepth)throw new g("query depth limit exceeded ("+L.maxDepth+")","recursion");if(Array.isArray(v)){let a=[];for(let x of v)for(let y of Zcw(x,f,r,s,dp+1))D(r,a.length),a.push(y);return s(a,f,r)}if(v!==null&&typeof v=="object"){let o=Object.create(null);for(let k of Object.keys(v)){let w=Zcw(v[k],f,r,s,dp+1);if(w.length===0){o=null;continue}o===null&&(o=Object.create(null)),E(o,k,w[w.length-1])}return s(o,f,r)}return s(v,f,r)}
function Zct(v,r){let L=V(r),out=[],st=[],put=z=>{ee(r,out.length),out.push(z)},open=(x,p)=>{r.coverage?.hit("jq:tostream");if(p.length>L.maxDepth)throw new g("query depth limit exceeded ("+L.maxDepth+")","recursion");if(x===null||typeof x!="object"){put([p,x]);return}let ks=Array.isArray(x)?null:Object.keys(x),n=ks===null?x.length:ks.length;n===0?put([p,ks===null?[]:Object.create(null)]):st.push({x,p,ks,i:0,n})};open(v,[]);for(;st.length>0;){let f=st[st.length-1];if(f.i>=f.n){st.pop(),put([[...f.p,f.ks===null?f.n-1:f.ks[f.n-1]]]);continue}let k=f.ks===null?f.i:f.ks[f.i];f.i++,open(f.x[k],[...f.p,k])}return out}
`;

export const JQ_CHAR_PATCHES = [
  {
    why: "jq helpers for code points, matches, sub/gsub, walk and tostream as jq 1.6 has them (JQ_CHAR_HELPERS; issue 25)",
    find: "function V(e){let n=e.limits.maxIterations;",
    replace: `${JQ_CHAR_HELPERS}function V(e){let n=e.limits.maxIterations;`,
  },
  {
    why: "jq's length of a string counts code points: `\"😀\"|length` is 1 (was 2, UTF-16 units)",
    find: String.raw`case"length":return typeof e=="string"?[e.length]`,
    replace: String.raw`case"length":return typeof e=="string"?[Zcn(e)]`,
  },
  {
    why: "a string slice `.[a:b]` counts code points (`\"😀x\"|.[0:1]` is the emoji, not half of it as U+FFFD)",
    find: String.raw`let o=s.length,p=n.start?d(e,n.start,t):[0]`,
    replace: String.raw`let o=typeof s=="string"?Zcn(s):s.length,p=n.start?d(e,n.start,t):[0]`,
  },
  {
    why: "(the slice itself)",
    find: String.raw`return Array.isArray(s),s.slice(y,m)}`,
    replace: String.raw`return typeof s=="string"?Zcs(s,y,m):s.slice(y,m)}`,
  },
  {
    why: "jq 1.6's index on a string gives a byte offset (`\"😀x\"|index(\"x\")` is 4)",
    find: String.raw`let f=e.indexOf(u);return f>=0?f:null}`,
    replace: String.raw`let f=e.indexOf(u);return f>=0?Zcb(e,f):null}`,
  },
  {
    why: "(rindex the same)",
    find: String.raw`let f=e.lastIndexOf(u);return f>=0?f:null}`,
    replace: String.raw`let f=e.lastIndexOf(u);return f>=0?Zcb(e,f):null}`,
  },
  {
    why: "(indices the same, counted on from the last one found)",
    find: String.raw`let i=e.indexOf(u);for(;i!==-1;)f.push(i),i=e.indexOf(u,i+1)}`,
    replace: String.raw`let i=e.indexOf(u),pi=0,pb=0;for(;i!==-1;)pb+=Buffer.byteLength(e.slice(pi,i),"utf8"),pi=i,f.push(pb),i=e.indexOf(u,i+1)}`,
  },
  {
    why: "split(\"\") gives characters, not UTF-16 units (half an emoji each)",
    find: String.raw`p=String(o[0]);return U(r,Ze(e,p,Be(r))),[e.split(p)]}`,
    replace: String.raw`p=String(o[0]);return U(r,Ze(e,p,Be(r))),[p===""?[...e]:e.split(p)]}`,
  },
  {
    why: "match: every match with \"g\" (was the first only), offsets in code points, names and jq 1.6's record of a capture that took no part (Zcm)",
    find: String.raw`case"match":{if(typeof e!="string"||t.length===0)return[null];let o=s(e,t[0],r),p=String(o[0]);`,
    replace: String.raw`case"match":{if(typeof e!="string"||t.length===0)return[null];let o=s(e,t[0],r),p=String(o[0]);{let u2=t.length>1?String(s(e,t[1],r)[0]):"";return Zcm(e,p,u2,r)}`,
  },
  {
    why: "sub: the replacement reads the named captures (`\"\\(.x)\"`), as jq 1.6 (Zcr); it was a JS replacement string evaluated on the whole input",
    find: String.raw`case"sub":{if(typeof e!="string"||t.length<2)return[null];`,
    replace: String.raw`case"sub":{if(typeof e!="string"||t.length<2)return[null];return Zcr(e,t,r,s,!1);`,
  },
  {
    why: "(gsub the same)",
    find: String.raw`case"gsub":{if(typeof e!="string"||t.length<2)return[null];`,
    replace: String.raw`case"gsub":{if(typeof e!="string"||t.length<2)return[null];return Zcr(e,t,r,s,!0);`,
  },
  {
    why: "walk applies its filter to every part, bottom-up, as jq 1.6 (Zcw); it was applied at the root only",
    find: String.raw`case"walk":{if(t.length===0)return[e];`,
    replace: String.raw`case"walk":{if(t.length===0)return[e];return Zcw(e,t[0],r,s,0);`,
  },
  {
    why: "tostream: a shared part at each of its places (was 'cyclic value'), closing events as jq's (Zct)",
    find: String.raw`case"tostream":{let o=[],p=r.limits.maxDepth??`,
    replace: String.raw`case"tostream":{return Zct(e,r);let o=[],p=r.limits.maxDepth??`,
  },
  {
    why: "`..` visits a shared part at each of its places (`[1] as $a|[$a,$a]|[..]|length` is 5, as jq); a step of the work budget per value, so a huge shared tree ends at the work limit",
    find: String.raw`if(u&&typeof u=="object"){if(s.has(u))continue;s.add(u)}`,
    replace: String.raw`t.coverage?.hit("jq:recurse");`,
  },
  {
    why: "add of many objects merges them in a loop (spreading 150,000 arguments overflowed the stack)",
    find: String.raw`a.every(l=>l&&typeof l=="object"&&!Array.isArray(l))?Me(...a):null`,
    replace: String.raw`a.every(l=>l&&typeof l=="object"&&!Array.isArray(l))?a.reduce((z,q)=>(r.coverage?.hit("jq:add"),Object.assign(z,q)),Me()):null`,
  },
];

/**
 * awk's substr, index and match count characters as gawk does in a UTF-8 locale: a character
 * outside the BMP (an emoji) is one, not two UTF-16 units (`substr("😀x", 2, 1)` is `x`, not
 * U+FFFD; `index("😀x", "x")` is 2). Zan counts code points, Zas cuts by them (only when the
 * string holds a surrogate pair: others keep just-bash's path).
 */
/**
 * sub, gsub and gensub's loop as gawk 5.2's do_sub in C.UTF-8: an empty match right after a
 * non-empty one it replaced is no match (`gsub(/x*\/, "-")` on `axb` is `-a-b-`; just-bash gave `-a--b-`), and
 * after an empty match the search goes on one byte later. glibc's regex starts a match inside a
 * multibyte character only when it searches byte by byte (its optimize_utf8: a pattern of ASCII
 * or literal characters, `.`, plain ASCII lists and `^`/`$`, without IGNORECASE; Zsb): then each
 * of the character's inner bytes meets the empty match again when the pattern can match empty
 * where no character can be read (Zse: `.`, `^` and `$` made to fail, tried on a probe), and the
 * character is written as its bytes with the replacement between them (`gsub(//, "-")` on `é`
 * is `-\303-\251-`, three matches, as gawk's; the bytes are held as BYTE_TEXT holds them).
 * Otherwise the character is stepped over whole (it was one UTF-16 unit: half an emoji, a lone
 * surrogate, shown as U+FFFD). Each search, and each match made between a character's bytes, is
 * charged to the budget of the awk run K (Zrk, just-bash-awk-regex-patches.mjs).
 */
const AWK_SUB = String.raw`function Zsb(p,i){if(i||/[\ue000-\ue0ff\udc80-\udcff]/.test(p))return null;let q="";for(let k=0;k<p.length;k++){let h=p[k];if(h==="\\"){if(/[wWsSyBbdDpPuck<>]/.test(p[k+1]??""))return null;q+=p.slice(k,k+2),k++;continue}if(h==="."||h==="^"||h==="$"){q+="A";continue}if(h!=="["){q+=h;continue}let s=++k;if(p[k]==="^")return null;for(;k<p.length&&(p[k]!=="]"||k===s);k++){let c=p[k];if(c==="\\"){k++;continue}if(c==="["&&/[:=.]/.test(p[k+1]??"")||c.charCodeAt(0)>127||c==="-"&&k>s&&p[k+1]!=="]")return null}q+=p.slice(s-1,k+1)}return q}
function Zse(t){if(t.Ze!==void 0)return t.Ze;let q=Zsb(t._pattern,t._ignoreCase),e=!1;if(q!==null)try{let y=new t.constructor(q,"g");y.lastIndex=1;let m=y.exec("\ue123\ue123\ue123");e=m!==null&&m.index===1}catch{}return t.Ze=e}
function te(e,t,n,r,s,K){let a=Ee(s),o=0,l=0,c=0,p=0,z=!1,E,Zq=Qrn.n;for(;p<=e.length;){t.lastIndex=p;Zra(K,Zq);let u=t.exec(e);Zq=Zrk(K,Zq);if(u===null)break;let f=u.index,g=u[0].length;t.assertResultCount(l+1);if(g>0||!z||f!==p){l++,a.append(e.slice(o,f));let R=n(l);a.append(R?(c++,r(u)):u[0]),o=f+g;if(g>0){z=R,p=o;continue}}z=!1;if(f>=e.length)break;let h=e.codePointAt(f),w=h>65535?2:1;p=f+w;if(h<128||h>=55296&&h<=57343)continue;E??=Zse(t);if(!E)continue;let y=Buffer.from(String.fromCodePoint(h),"utf8"),x=String.fromCharCode(56320+y[0]),d=!1;for(let j=1;j<y.length;j++){t.assertResultCount(++l),Zq=Zrk(K,Zq);let v=Object.assign(u.map(q=>q===void 0?q:""),{index:f});n(l)&&(x+=r(v),c++,d=!0),x+=String.fromCharCode(56320+y[j])}d&&(a.append(e.slice(o,f)),a.append(x),o=p)}return a.append(e.slice(o)),{value:a.build(),replacements:c}}
`;

const AWK_CHARS = String.raw`function Zan(x){return /[\ud800-\udbff]/.test(x)?[...x].length:x.length}
function Zas(r,b,a){if(!/[\ud800-\udbff]/.test(r))return a===void 0?r.substr(b):r.substr(b,a);let c=[...r];return(a===void 0?c.slice(b):c.slice(b,b+Math.max(0,a))).join("")}
`;

export const AWK_CHAR_PATCHES = [
  {
    why: "awk's substr, index and match in characters (AWK_CHARS; issue 25)",
    find: 'async function et(e,t,n){if(e.length<2)return"";',
    replace: `${AWK_CHARS}async function et(e,t,n){if(e.length<2)return"";`,
  },
  {
    why: "(substr)",
    find: "return r.substr(Math.max(0,s),a)}return r.substr(Math.max(0,s))}",
    replace: "return Zas(r,Math.max(0,s),a)}return Zas(r,Math.max(0,s))}",
  },
  {
    why: "(index)",
    find: "r.indexOf(s);return a===-1?0:a+1}",
    replace: "r.indexOf(s);return a===-1?0:Zan(r.slice(0,a))+1}",
  },
  {
    why: "(match's RSTART and RLENGTH)",
    find: "t.RSTART=o.index+1,t.RLENGTH=o[0].length",
    replace: "t.RSTART=Zan(r.slice(0,o.index))+1,t.RLENGTH=Zan(o[0])",
  },
  {
    why: "sub, gsub and gensub step over an empty match as gawk 5.2 does in C.UTF-8 (AWK_SUB; issue 25, adversary round 26: lone surrogates)",
    find: String.raw`function te(e,t,n,r,s){let a=Ee(s),o=0,l=0,c=0;for(let u of t.matchAll(e)){let f=u.index??0;l++,a.append(e.slice(o,f)),n(l)?(a.append(r(u)),c++):a.append(u[0]),o=f+u[0].length}return a.append(e.slice(o)),{value:a.build(),replacements:c}}`,
    replace: AWK_SUB,
  },
  {
    why: "printf's %s precision and width count characters, as gawk's in a UTF-8 locale (`%.1s` of an emoji is the emoji; it was half of it)",
    find: String.raw`if(C&&(p=p.substring(0,parseInt(C,10))),k){let N=parseInt(k,10);`,
    replace: String.raw`if(C&&(p=Zas(p,0,parseInt(C,10))),k){let N=parseInt(k,10)+p.length-Zan(p);`,
  },
  {
    why: "-F '' makes each character a field, as gawk's (it was one field; FS = \"\" is in just-bash-patches.mjs)",
    find: String.raw`function je(e){if(e===" ")return O("\\s+");`,
    replace: String.raw`function je(e){if(e===" ")return O("\\s+");if(e==="")return{split:x=>[...x]};`,
  },
];
